"""The game page: the game's board as the reader's seat may see it (a spectator's view for a
public game), built from ``view(seat)`` only, with a form for exactly the legal actions; and the
order that form posts, through the same order service as the API and the mail. Every game's
page is templates/web/game.html with the game's own parts (its status line, board and the
reader's hand: the game's presenter, server/games/presenter.py, gives what they show).

A seat's page shows its hand, the decision and its choices; the other seat's hand is only a
count, sealed choices are only "chosen" until revealed. An illegal or stale order shows the
reason in the game's words and the decision now, and changes nothing.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, request

import engine.core as game_engine
from engine.core.errors import OptionsError
from server import db
from server.games import presenter
from server.i18n import game_text
from server.models import Game, aware, utcnow
from server.parsing import whole
from server.services import games, lobby, play, reach
from server.web.accounts import check_form
from server.web.decision_form import NOTHING_ASKED, Refused, build, compose, nothing_chosen
from server.web.help import page_url
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.seats import title as game_title
from server.web.words import locale

bp = Blueprint("board", __name__)

def _seat_and_game(session, game_id: int):
    """(game, the reader's seat or None); 404 when the reader may not see the game."""
    game = session.get(Game, game_id)
    user = reader()
    if game is None or not lobby.may_see(session, game, user):
        abort(404)
    seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
    return game, seat


@bp.get("/games/<int:game_id>")
def show(game_id: int):
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        return _page(session, game, seat)


@bp.get("/games/<int:game_id>/version")
def version(game_id: int):
    """The game's step and status, for the page's script to notice that the game moved on
    (a small JSON answer, cheap to ask every half minute; nothing hidden in it)."""
    with db.reading(db.session()) as session:
        game, _seat = _seat_and_game(session, game_id)
        response = jsonify(step=game.step, status=game.status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<int:game_id>/seen")
def seen(game_id: int):
    """The game page was shown to its seat's player (a small POST the page sends once it is in
    view, with its CSRF token: the GET itself never writes): a channel has reached them for
    the decision the page showed (``step``), if it is still the game's (services/reach.py).
    204 when recorded or nothing to record, 400 without the page's token, 403 for no seat."""
    with db.session() as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            abort(403)
        if check_form():
            abort(400)
        step = whole(request.form.get("step", ""), -1)
        if game.status == "active" and 0 <= step <= game.step:
            reach.record(session.connection(), game.id, seat, step, "page", utcnow())
            session.commit()
    return "", 204


@bp.post("/games/<int:game_id>/order")
def order(game_id: int):
    """The decision form's answer (server/web/decision_form.py): a choice, a plan, or order
    lines typed in the notation; a plan is played whole or not at all."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            abort(403)
        refused = check_form()
        step = request.form.get("step", "")
        step = whole(step, -1)
        stale = game.status == "active" and step != game.step
        form = form_now(session, game, seat, locale()) if not (refused or stale) else None
    if refused:
        return _answer(game_id, seat, refusal=refused, status=400)
    if stale:  # a form of an earlier decision: its fields mean nothing now
        return _answer(game_id, seat, outcome=play.Outcome("stale"), status=409)
    try:  # asked nothing now: what was sent goes to the order service, which says why not
        order = compose(request.form, form or NOTHING_ASKED)
    except Refused as plan:
        return _answer(game_id, seat, status=422, refusal=str(plan))
    if not order.lines:
        return _answer(game_id, seat, status=422, refusal=nothing_chosen())
    outcome = play.order(game_id, seat, step, order.lines, atomic=order.atomic,
                         then=order.then)
    if outcome.accepted and outcome.reason is None:
        return redirect(f"/games/{game_id}?done={outcome.status}", 303)
    return _answer(game_id, seat, outcome=outcome,
                   status=200 if outcome.accepted else 409 if outcome.status == "stale" else 422)


def form_now(session, game: Game, seat: str, loc: str, state=None) -> dict | None:
    """The decision form the seat is shown now, or None when it is asked nothing."""
    if game.status != "active" or game.state is None:
        return None
    state = state or game_engine.from_dict(game.state, copy=False)
    decision = games.decision_for(session, game, seat, state)
    if not decision["legal_actions"]:
        return None
    return build(decision, state.view(seat), loc)


def _answer(game_id: int, seat: str, **answer):
    """The game page as it is now, with the answer to the reader's request."""
    with db.reading(db.session()) as session:
        return _page(session, session.get(Game, game_id), seat, **answer)


def show_with_refusal(game_id: int, refusal: str, status: int):
    """The game page with why the reader's request (join, start) was refused."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        return _page(session, game, seat, refusal=refusal, status=status)


def _page(session, game: Game, seat: str | None, *, outcome=None, refusal: str | None = None,
          status: int = 200):
    loc = locale()
    if game.state is None:  # open: waiting for players
        return page("game_open.html", status, loc, refusal=refusal,
                    **_open_context(session, game, loc))
    state = game_engine.from_dict(game.state, copy=False)
    view = games.seat_view(session, game, seat, state)
    decision = games.decision_for(session, game, seat, state) if seat else None
    done = request.args.get("done") if outcome is None and refusal is None else None
    names = seat_names(game.game_type, loc)
    shown = presenter(game.game_type)
    return page(
        "game.html", status, loc, part=shown.part,
        game=game, seat=seat, seat_name=names.get(seat) if seat else None,
        many=len(state.seats) > 2,
        may_follow=lobby.may_follow(game, reader(), seat, lobby.followed(session, reader())),
        log=list(reversed(game_text.texts(view.get("note_messages", []), loc,
                                          game.game_type)))[:60],
        decision=_decision(decision, view, loc, state, names, game.game_type), done=done,
        deadline=_deadline(game),
        not_reached=[names.get(s, s) for s in reach.waiting(session, game) if s != seat],
        refusal=refusal,
        outcome=_outcome(outcome, loc, game.game_type), result=_result(game, view, loc),
        **shown.page(view, seat, loc))


def _decision(decision: dict | None, view: dict, loc: str, state=None,
              names: dict | None = None, game_type: str = "") -> dict | None:
    """The decision section: what is asked and, while the seat may still answer (or change
    its sealed choice), the form for exactly its legal actions."""
    if decision is None:
        return None
    form = build(decision, view, loc) if decision["legal_actions"] else None
    names = names or {}
    return {**decision, "prompt": game_text.text(decision["prompt"], loc, game_type)
            if decision["prompt"] else "", "form": form,
            "deciding": len(state.active()) if state is not None else 0,
            "waiting_names": ", ".join(names.get(s, s) for s in decision["waiting_for"])}


def _deadline(game: Game) -> dict | None:
    """The current decision's deadline, {"at": the moment (the page shows it in the reader's
    zone), "hours": whole hours left}; None when the game has none now."""
    if game.status != "active" or game.deadline_at is None:
        return None
    left = (aware(game.deadline_at) - utcnow()).total_seconds()
    return {"at": aware(game.deadline_at), "hours": max(0, round(left / 3600))}


def _outcome(outcome, loc: str, game_type: str) -> dict | None:
    if outcome is None:
        return None
    return {"status": outcome.status, "accepted": outcome.accepted, "applied": outcome.applied,
            "reason": game_text.text(outcome.reason, loc, game_type) if outcome.reason else ""}


def _result(game: Game, view: dict, loc: str) -> dict | None:
    if game.status != "finished":
        return None
    result = game.result or {}
    winner = result.get("winner")
    return {"winner": seat_names(game.game_type, loc).get(winner, winner) if winner else None,
            "reason": game_text.text(result.get("reason_message") or result.get("reason"), loc,
                                      game.game_type),
            "seed": game.seed}


def _open_context(session, game: Game, loc: str) -> dict:
    user = reader()
    rows = lobby.seat_rows(session, game.id)
    names = seat_names(game.game_type, loc)
    bots = game.bots or {}
    listed = [{"seat": r.seat, "name": names.get(r.seat, r.seat),
               "taken": r.user_id is not None or r.seat in bots, "bot": bots.get(r.seat),
              "mine": user is not None and r.user_id == user.id,
              "invited_me": user is not None and r.user_id is None
              and r.invite_email == user.email} for r in rows]
    return {"game": game, "part": presenter(game.game_type).part, "seats": listed,
            "title": game_title(game.game_type),
            "options_line": _options_line(game, loc),
            "help_url": page_url(game.game_type),
            "may_start": user is not None and game.created_by == user.id
            and all(s["taken"] for s in listed),
            "signed_in": user is not None}


def _options_line(game: Game, loc: str) -> str | None:
    """The variant the open game is played in, as its mails name it (None: the game names
    none; "" for options the engine no longer takes)."""
    try:
        return presenter(game.game_type).variant(game.options, loc)
    except OptionsError:
        return ""
