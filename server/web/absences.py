"""The game page's choices about an absent seat (issue 46, item 1; the section:
server/web/absence_section.py; the rulings: server/services/absences.py): POST
/games/<id>/absences (claim the win, end the game, hand the seat to a bot, invite a
replacement; claim and end only with their "I am sure" box ticked), POST /games/<id>/come-back
(the silent player takes their seat back from its bot), and the replacement's page
/games/<id>/take-seat/<code> (GET shows the seat and a button, or the way to sign in first;
only POST takes it). A refusal shows the game page with the reason in the reader's words and
what they had typed."""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, request
from sqlmodel import select

from server import db
from server.models import Game, Seat, SeatAbsence
from server.services import absences, lobby
from server.services.users import sha256_hex
from server.web.absence_section import LABELS
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.pages import page, reader, signed_in_only
from server.web.seats import names as seat_names
from server.web.seats import title as game_title
from server.web.words import N_, _, locale

bp = Blueprint("absence_pages", __name__)

SETTLED = {"claimed": N_("the win was claimed"), "ended": N_("the game was ended unrated"),
           "replaced": N_("another player took the seat over"),
           "returned": N_("its player came back"),
           "abandoned": N_("the game was ended unrated: nobody played it")}


def refusal_words(exc: absences.AbsenceError) -> str:
    """The service's refusal in the reader's words (the choices named as the page's buttons)."""
    params = dict(exc.params)
    if "choices" in params:
        params["choices"] = ", ".join(_(LABELS[c]) for c in exc.allowed if c in LABELS)
    if "how" in params:
        params["how"] = _(SETTLED[params["how"]]) if params["how"] in SETTLED else params["how"]
    return _(exc.message, **params)


def _refused(game_id: int, words: str, status: int, typed: dict | None = None):
    g.absence_shown = {"absence_id": typed.get("absence_id") if typed else None,
                       "typed": typed or {}}
    return show_with_refusal(game_id, words, status)


@bp.post("/games/<int:game_id>/absences")
@signed_in_only(lambda game_id: f"/games/{game_id}")
def choose(game_id: int, signed_in):
    form = request.form
    absence_id = _whole(form.get("absence_id"))
    choice = form.get("choice", "")
    typed = {"absence_id": absence_id, "choice": choice,
             "invite_email": (form.get("invite_email") or "").strip()[:320]}
    refused = check_form()
    if refused:
        return _refused(game_id, refused, 400, typed)
    if choice in ("claim", "end") and form.get("confirm") != "yes":
        return _refused(game_id, _("Tick “I am sure” first: this ends the game."), 422, typed)
    with db.session() as session:
        seat = lobby.seat_of(session, game_id, signed_in.id)
        row = session.get(SeatAbsence, absence_id) if absence_id else None
        if row is None or row.game_id != game_id:
            return _refused(game_id, _("Choose one of the page's buttons."), 400, typed)
        if row.status != "open":
            how = _(SETTLED.get(row.status, row.status))
            return _refused(game_id, _("This was settled already: %(how)s.", how=how), 410)
        try:
            done = absences.choose(session, game_id, seat or "", choice, absence_id=absence_id,
                                   invite_email=typed["invite_email"] or None)
        except absences.AbsenceError as exc:
            return _refused(game_id, refusal_words(exc), exc.status, typed)
        game = session.get(Game, game_id)
        seat_name = seat_names(game.game_type, locale()).get(row.seat, row.seat)
    if done.code:  # shown this once: only its sha256 is kept
        g.absence_shown = {"code": done.code, "seat_name": seat_name,
                           "url": take_seat_url(game_id, done.code)}
        return show_with_refusal(game_id, None, 200)
    return redirect(f"/games/{game_id}?absence={done.done}#absence", 303)


def take_seat_url(game_id: int, code: str) -> str:
    return f"{current_app.config['BASE_URL'].rstrip('/')}/games/{game_id}/take-seat/{code}"


def _whole(text) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


@bp.post("/games/<int:game_id>/come-back")
@signed_in_only(lambda game_id: f"/games/{game_id}")
def come_back(game_id: int, signed_in):
    refused = check_form()
    if refused:
        return _refused(game_id, refused, 400)
    with db.session() as session:
        try:
            absences.come_back(session, game_id, signed_in)
        except absences.AbsenceError as exc:
            return _refused(game_id, refusal_words(exc), exc.status)
    return redirect(f"/games/{game_id}?absence=returned#absence", 303)


# --- the replacement's page ------------------------------------------------------------------
def _invitation(session, game_id: int, code: str):
    """(game, absence) the code is for, or None; reads only."""
    game = session.get(Game, game_id)
    if game is None:
        return None
    row = session.exec(select(SeatAbsence).where(
        SeatAbsence.game_id == game_id,
        SeatAbsence.invite_token_hash == sha256_hex(code or ""))).first()
    return (game, row) if row is not None else None


def _take_page(game_id: int, code: str, status: int = 200, refusal: str | None = None):
    with db.reading(db.session()) as session:
        found = _invitation(session, game_id, code)
        if found is None:
            return page("take_seat.html", 404, locale(), found=None, code=code, game_id=game_id,
                        refusal=refusal or _(
                            "This invitation code is not one of this game's: ask the player who "
                            "invited you for the whole link."))
        game, row = found
        user = reader()
        settled = game.status != "active" or row.status != "open"
        seats = session.exec(select(Seat.seat).where(Seat.game_id == game_id)).all()
        mine = lobby.seat_of(session, game_id, user.id) if user is not None else None
        names = seat_names(game.game_type, locale())
        return page("take_seat.html", 410 if settled and status == 200 else status, locale(),
                    found=True, code=code, game_id=game_id, game_title=game_title(game.game_type),
                    seat_name=names.get(row.seat, row.seat), seats=len(seats),
                    invited_by=names.get(row.invited_by, row.invited_by) if row.invited_by
                    else None, bot=row.bot is not None, settled=settled, mine=mine,
                    refusal=refusal, next=f"/games/{game_id}/take-seat/{code}")


@bp.get("/games/<int:game_id>/take-seat/<code>")
def show_take_seat(game_id: int, code: str):
    return _take_page(game_id, code)


@bp.post("/games/<int:game_id>/take-seat/<code>")
@signed_in_only(lambda game_id, code: f"/games/{game_id}/take-seat/{code}")
def take_seat(game_id: int, code: str, signed_in):
    refused = check_form()
    if refused:
        return _take_page(game_id, code, 400, refused)
    with db.session() as session:
        try:
            absences.take_seat(session, game_id, code, signed_in)
        except absences.AbsenceError as exc:
            return _take_page(game_id, code, exc.status, refusal_words(exc))
    return redirect(f"/games/{game_id}?absence=taken", 303)
