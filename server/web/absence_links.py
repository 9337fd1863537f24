"""The page a signed choice link of an "absence" mail opens (issue 46, item 1:
/games/<id>/absence/<token>; services/absence_links.py): GET shows the choice and a button
(for an invitation, a field for the address to invite, which may stay empty); only POST
chooses, through services/absences.choose. A link that cannot be used now (expired, another
player's seat, the absence settled, the choice made already) is refused, saying why."""

from __future__ import annotations

from flask import Blueprint, current_app, request

from server import db, secret_keys
from server.models import Game, SeatAbsence, User, utcnow
from server.services import absence_links, absences
from server.web.accounts import check_form
from server.web.pages import page
from server.web.seats import names as seat_names
from server.web.words import _, locale, speak

bp = Blueprint("absence_links", __name__)


def take_seat_url(game_id: int, code: str) -> str:
    """The page with which the invited person takes the seat (the game page's side)."""
    return f"{current_app.config['BASE_URL']}/games/{game_id}/take-seat/{code}"


def _link(session, game_id: int, token: str):
    """The link ``token`` carries, still good for its choice (in its player's language), or
    None and the page refusing it."""
    try:
        link = absence_links.read(session, secret_keys.ring(current_app.config), token, game_id,
                                  float(current_app.config["LINK_MAX_AGE_SECONDS"]))
    except absence_links.LinkRefused as refused:
        return None, _refused(refused)
    user = session.get(User, link.user_id)
    speak(user.locale if user else "en")
    try:
        absence_links.still_good(session, link)
    except absence_links.LinkRefused as refused:
        return None, _refused(refused)
    return link, None


def _refused(refused: absence_links.LinkRefused):
    return page("refused.html", refused.status, locale(),
                refusal=_(refused.message, **refused.params))


def _page(session, link, token: str, status: int = 200, done: str = "", code: str = ""):
    game = session.get(Game, link.game_id)
    absence = session.get(SeatAbsence, link.absence_id)
    names = seat_names(game.game_type, locale())
    return page("absence_choice.html", status, locale(), game=game, link=link, token=token,
                done=done, label=_(absence_links.LABELS[link.choice]),
                seat_name=names.get(link.seat, link.seat),
                absent_seat=names.get(absence.seat, absence.seat),
                two=absences.seat_count(session, game.id) == 2,
                take_seat=take_seat_url(game.id, code) if code else "")


@bp.get("/games/<int:game_id>/absence/<token>")
def show(game_id: int, token: str):
    with db.session() as session:
        link, refusal = _link(session, game_id, token)
        if refusal is not None:
            return refusal
        return _page(session, link, token)


@bp.post("/games/<int:game_id>/absence/<token>")
def choose(game_id: int, token: str):
    with db.session() as session:
        link, refusal = _link(session, game_id, token)
        if refusal is not None:
            return refusal
        form_refused = check_form()
        if form_refused:
            return page("refused.html", 400, locale(), refusal=form_refused)
        email = (request.form.get("email") or "").strip() if link.choice == "replace" else ""
        try:
            done = absences.choose(session, game_id, link.seat, link.choice,
                                   absence_id=link.absence_id, invite_email=email or None,
                                   now=utcnow())
        except absences.AbsenceError as exc:
            return page("refused.html", exc.status, locale(), refusal=_(exc.message,
                                                                        **exc.params))
        session.expire_all()
        return _page(session, link, token, done=done.done, code=done.code or "")
