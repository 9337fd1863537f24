"""The page a signed link in a mail opens (server/services/links.py).

GET shows the decision with the mail's choice described and a button, and under it the same
decision form as the game page (server/web/decision_form.py), the mail's choice ticked; it
never changes anything (mail scanners and link previews open every link). POST from that page
commits the mail's choice, or what the form says instead (the link vouches for its seat at its
step, as every link of the same mail does), through the same order service as the API; either
way the link is then used. A refused link says why on a clear page. A link is good for its own
step only: once the step has moved on it shows what happened since and the way to the game
page (which needs a signed-in session), never the decision now nor fresh links.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, current_app, request
from sqlalchemy.exc import IntegrityError

from server import db, secret_keys
from server.games import presenter
from server.i18n import game_text
from server.models import Game, User
from server.services import links, play, seat_view
from server.web.board import form_now, held_reason, refused_line
from server.web.decision_form import (Order, Refused, build, compose, explain, keep,
                                      nothing_chosen)
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.words import _, speak

bp = Blueprint("decide", __name__)

STATUS = {"tampered": 400, "expired": 410, "other_game": 400, "other_player": 403,
          "used": 409}


def _read(session, game_id: int, token: str):
    """(the link, None), or (None, the page saying why it cannot be used)."""
    try:
        link = links.read(session, secret_keys.ring(current_app.config), token, game_id,
                          float(current_app.config["LINK_MAX_AGE_SECONDS"]))
    except links.LinkRefused as refused:
        if refused.link is not None:
            speak(_locale(session, refused.link))
        return None, _refused(session, game_id, refused)
    speak(_locale(session, link))  # the page, and every refusal on it, in the mail's language
    return link, None


@bp.get("/games/<int:game_id>/decide/<token>")
def show(game_id: int, token: str):
    with db.session() as session:
        db.reading(session)
        link, refusal = _read(session, game_id, token)
        return refusal or _decision_page(session, link, confirm=True)


@bp.post("/games/<int:game_id>/decide/<token>")
def commit(game_id: int, token: str):
    with db.session() as session:
        db.reading(session)
        link, refusal = _read(session, game_id, token)
        if refusal is not None:
            return refusal
        game = session.get(Game, game_id)
        seen = seat_view.of(session, game, link.seat)  # a move held from the seat: before it
        if seen.status != "active" or seen.step != link.step:
            return _decision_page(session, link, confirm=False)
        order, answered = Order([link.action]), _answered(request.form)
        loc, game_type = _locale(session, link), game.game_type
        if answered:  # the page's decision form, not the mail's choice
            form = form_now(session, game, link.seat, loc)
            # A refused form comes back as it was filled in, the refusal beside its field,
            # as on the game page (server/web/board.py ``order``).
            try:
                order = compose(request.form, form)
            except Refused as plan:
                keep(request.form, link.step, plan.field, str(plan))
                return _decision_page(session, link, confirm=True, refusal=str(plan),
                                      status=422)
            if not order.lines:
                keep(request.form, link.step)
                return _decision_page(session, link, confirm=True, status=422,
                                      refusal=nothing_chosen())
    try:
        outcome = play.order(game_id, link.seat, link.step, order.lines, atomic=order.atomic,
                             then=order.then,
                             before_commit=lambda s, _result: links.use(s, link))
    except IntegrityError:  # the same link, sent twice at once: the other one committed
        with db.session() as session:
            return _refused(session, game_id, links.LinkRefused(
                "used", "This link has been used already: each link commits its choice once.",
                link))
    if answered and not outcome.accepted and outcome.status in ("illegal", "malformed"):
        field, message = explain(order, *refused_line(outcome.reason, loc, game_type))
        keep(request.form, link.step, field, message)
        outcome = replace(outcome, reason=message)
    with db.session() as session:
        db.reading(session)
        return _decision_page(session, link, confirm=not outcome.accepted, outcome=outcome,
                              status=200 if outcome.accepted else 409
                              if outcome.status in ("stale", "held") else 422)


def _answered(data) -> bool:
    """Whether the post carries the decision form's fields, whatever the game's (else: the
    mail's choice, whose button sends none): any field but the forms' token and step."""
    return any(key not in ("csrf_token", "step") for key in data.keys())


def _locale(session, link: links.Link) -> str:
    user = session.get(User, link.user_id)
    return user.locale if user else "en"


def _refused(session, game_id: int, refused: links.LinkRefused):
    link = refused.link
    if refused.kind == "used":  # the player's own link: show what is asked now
        return _decision_page(session, link, confirm=False, refusal=refused.reason,
                              status=STATUS["used"])
    user = session.get(User, link.user_id) if link is not None else None
    return page("refused.html", STATUS[refused.kind], user.locale if user else "en",
                refusal=refused.reason, game_url=_game_url(game_id))


def _decision_page(session, link: links.Link, *, confirm: bool, outcome=None, refusal=None,
                   status: int = 200):
    """The seat's decision now; the link's choice offered when its step is still current.
    While another seat's move may be taken back, the game before it (services/seat_view.py):
    a stale link's "what happened since" never tells a held move."""
    seen = seat_view.of(session, session.get(Game, link.game_id), link.seat)
    game, state, view, decision = seen.game, seen.state, seen.view, seen.decision
    user = session.get(User, link.user_id)
    current = (game.status == "active" and game.step == link.step
               and (outcome is None or not outcome.accepted))
    offered = confirm and current and link.action in decision["legal_actions"]
    locale = user.locale if user else "en"
    # The link, unused and of this step, vouches for the form; else fresh links of the step now.
    form = build(decision, view, locale) \
        if confirm and current and decision["active"] else None
    return page(
        "decide.html", status, locale,
        game_id=game.id, seat_name=seat_names(game.game_type, locale).get(link.seat, link.seat),
        many=len(state.seats) > 2,
        game_url=_game_url(game.id), outcome=outcome, refusal=refusal,
        reason=(held_reason(outcome, locale, game.game_type, user.time_zone if user else None)
                if outcome.status == "held"
                else game_text.text(outcome.reason, locale, game.game_type)) if outcome else "",
        changes=[] if current else game_text.texts(view["note_messages"][link.notes:], locale,
                                                 game.game_type),
        # The link's own step only: once it is over, what happened (public notes) and the way
        # to the game page (a signed-in session), never the seat's decision or fresh links.
        prompt=game_text.text(decision["prompt"], locale, game.game_type)
        if decision["active"] and current else None,
        simultaneous=decision["simultaneous"],
        confirm={"action": link.action, "url": request.path,
                 "words": choice_words(game.game_type, view, link.action, locale)}
        if offered else None,
        over=not current and outcome is None, form=form, step=game.step,
        finished=game.status == "finished", signed_in=reader() is not None,
        action_url=request.path,
        preselect=link.action if current else None, submit_label=_("Send this instead"))


def choice_words(game_type: str, view: dict, action: str, loc: str) -> str | None:
    """The link's choice as its decision mail names it (issue 47: words, not notation): the
    label of its option under its card's or kind's heading, else the order in the game's
    words (a range's order, "Campaigning: 2 CP in New York (NY)"); None when the game has no
    words for it."""
    for group in presenter(game_type).mail_choices(view, loc)["groups"]:
        for option in group.get("options") or []:
            if option["action"] == action and option["label"] != action:
                heading = group.get("heading")
                label = option["label"]
                return f"{heading}: {label}" if heading and heading not in label else label
    said = presenter(game_type).order_words(action, loc)
    return said if said != action else None


def _game_url(game_id: int) -> str:
    return f"{current_app.config['BASE_URL']}/games/{game_id}"
