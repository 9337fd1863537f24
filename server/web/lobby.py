"""The lobby: the reader's games (those waiting for their move first, then those they follow),
the public games (to watch, follow, or replay once over), and the forms that create a game of
1960 (edition, options, deadlines, opponent by email) or of Mr. President (players, edition,
version, count, Nominee version, plurality, the seats' addresses: mrpresident_lobby.py);
joining by invitation, starting a game whose seats are all taken, and following a game as a
spectator."""

from __future__ import annotations

from engine import bots as engine_bots

from engine.core import OptionsError
from flask import Blueprint, redirect, request

from server import db
from server.i18n import game_text
from server.games import presenter
from server.models import Game, User
from server.services import games, lobby, outbox
from server.services.lobby import LobbyError
from server.web import mrpresident_lobby, seats
from server.web.accounts import check_form, is_email, sign_in_page
from server.web.board import show_with_refusal
from server.web.pages import page, reader
from server.web.words import _, locale, refusal
from server.parsing import whole

bp = Blueprint("lobby", __name__)

STATUS = {"not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422, "too_many": 429}


PUBLIC, FINISHED = 50, 10  # public games listed: in play or open, and over


def _row(session, game: Game, user, followed: set[int]) -> dict:
    seat = lobby.seat_of(session, game.id, user.id) if user is not None else None
    names = seats.names(game.game_type, locale())
    return {"id": game.id, "status": game.status, "title": seats.title(game.game_type),
            "seat": names.get(seat, seat) if seat else None,
            "your_move": bool(seat) and games.your_move(session, game, seat),
            "following": game.id in followed,
            "may_follow": lobby.may_follow(game, user, seat, followed)}


@bp.get("/")
def home():
    user = reader()
    with db.reading(db.session()) as session:
        followed = lobby.followed(session, user)
        mine = []
        if user is not None:
            account = session.get(User, user.id)
            mine = [_row(session, g, user, followed)
                    for g in lobby.games_of(session, account)]
            mine.sort(key=lambda r: (not r["your_move"], r["status"] == "finished",
                                     r["following"], -r["id"]))
        listed = lobby.public_games(session)
        public = [_row(session, g, user, followed)
                  for g in listed if g.status != "finished"][:PUBLIC]
        finished = [_row(session, g, user, followed)
                    for g in listed if g.status == "finished"][:FINISHED]
    return _lobby_page(200, user=user, mine=mine, public=public, finished=finished, error=None,
                       form={})


@bp.post("/games/new")
def create():
    """A new game from the lobby's form of its game (``game_type``: 1960 unless said)."""
    user = reader()
    if user is None:
        return sign_in_page("/", 401, _("Sign in to create a game."))
    refused = check_form()
    form = request.form
    if refused:
        return _lobby_error(refused, 400, form)
    game_type = form.get("game_type") or "tmotp"
    try:
        timing = {"decision_hours": _hours((form.get("decision_hours") or "72").strip()),
                  "reminder_hours": [_hours(h) for h in (form.get("reminder_hours") or "24")
                                     .replace(",", " ").split()],
                  "on_deadline": form.get("on_deadline", "default")}
    except ValueError:
        return _lobby_error(_("Hours are whole numbers, like 72, and reminders a list like "
                              "24 6."), 422, form)
    if game_type == "mrpresident":
        try:
            options, emails, bots = mrpresident_lobby.read(form)
        except ValueError as problem:
            return _lobby_error(str(problem), 422, form)
    else:
        game_type, options = "tmotp", _tmotp_options(form)
        emails, bots = _tmotp_seats(form, user)
        if emails is None:
            return _lobby_error(_("Give the opponent's email address, like name@example.org, "
                                  "or leave it empty to invite with a code."), 422, form)
    delay = whole((form.get("bot_delay_seconds") or "0").strip())
    if delay is None:
        return _lobby_error(_("A bot's pause is a whole number of seconds, like 5."), 422, form)
    with db.session() as session:
        account = session.get(User, user.id)
        try:
            game, _codes = lobby.open_game(session, account, game_type, options, emails,
                                           public=form.get("public") == "on", timing=timing,
                                           bots=bots, bot_delay_seconds=delay)
        except LobbyError as exc:
            return _lobby_error(refusal(exc), STATUS[exc.kind], form)
        except OptionsError as exc:  # the engine's reason, in the reader's words
            return _lobby_error(game_text.text(exc.args[0], locale(), game_type), 422, form)
    outbox.publish_written(db.get_engine())
    return redirect(f"/games/{game.id}", 303)


def _hours(text: str) -> int:
    """A number of hours typed in the form: ASCII digits only (the lobby judges the range)."""
    hours = whole(text)
    if hours is None:
        raise ValueError(text)
    return hours


def _tmotp_options(form) -> dict:
    return {"edition": form.get("edition", "gmt"),
            "vp_cards": form.get("vp_cards") == "on",
            "restricted_positioning": form.get("restricted_positioning") == "on"}


def _tmotp_seats(form, user) -> tuple[dict | None, dict]:
    """1960's seats: the reader's and the opponent's (None: not an email address), and the
    opponent's bot if one was chosen (``opponent_bot``: its level)."""
    my_seat = form.get("seat", "kennedy")
    other = "nixon" if my_seat == "kennedy" else "kennedy"
    bot = form.get("opponent_bot") or ""
    opponent = (form.get("opponent") or "").strip() or None
    if opponent is not None and not is_email(opponent):
        return None, {}
    if bot:
        return ({my_seat: user.email, other: opponent} if opponent else {my_seat: user.email},
                {other: bot})
    return {my_seat: user.email, other: opponent}, {}


def _lobby_error(message: str, status: int, form):
    return _lobby_page(status, user=reader(), mine=[], public=[], finished=[], error=message,
                       form=dict(form))


def _lobby_page(status: int, **context):
    """The lobby with both games' new-game forms (the posted ``form`` refilled in its own)."""
    form = context["form"]
    mine = form.get("game_type") == "mrpresident"
    return page("lobby.html", status, locale(), seat_names=presenter("tmotp").seat_names(locale()),
                mp_names=seats.names("mrpresident", locale()),
                bot_levels={g: engine_bots.levels(g) for g in ("tmotp", "mrpresident")},
                tmotp_form=form if not mine else {}, mp_form=form if mine else {}, **context)


@bp.get("/games/<int:game_id>/join")
def join_page(game_id: int):
    if reader() is None:
        return sign_in_page(f"/games/{game_id}", 200,
                            _("Sign in with the address the invitation came to, to take "
                              "your seat."))
    return redirect(f"/games/{game_id}", 303)


@bp.post("/games/<int:game_id>/join")
def join(game_id: int):
    return _lobby_action(game_id, lambda session, account: lobby.join_game(
        session, game_id, account, code=(request.form.get("code") or "").strip() or None))


@bp.post("/games/<int:game_id>/start")
def start(game_id: int):
    return _lobby_action(game_id, lambda session, account: lobby.start_game(
        session, game_id, account))


@bp.post("/games/<int:game_id>/follow")
def follow(game_id: int):
    """Follow a game as a spectator: it is listed among the reader's games from then on."""
    return _lobby_action(game_id, lambda session, account: lobby.spectate(
        session, game_id, account))


def _lobby_action(game_id: int, act):
    user = reader()
    if user is None:
        return sign_in_page(f"/games/{game_id}", 401, _("Sign in first."))
    refused = check_form()
    if refused:
        return show_with_refusal(game_id, refused, 400)
    with db.session() as session:
        try:
            act(session, session.get(User, user.id))
        except LobbyError as exc:
            return show_with_refusal(game_id, refusal(exc), STATUS[exc.kind])
    outbox.publish_written(db.get_engine())
    return redirect(f"/games/{game_id}", 303)
