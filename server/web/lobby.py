"""The lobby: the reader's games (those waiting for their move first, then those they follow),
the public games seeking players (to join: a free seat nobody is invited to), the public
games (to watch, follow, or replay once over), and a form per game to create one
(the game's part new_game.html: its options and seats, which its presenter reads; the deadlines
and bots every form shares, templates/web/_new_game.html); joining by invitation, starting a
game whose seats are all taken, and following a game as a spectator."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

from babel.dates import format_timedelta
from engine import bots as engine_bots
from engine.core import OptionsError
from flask import Blueprint, redirect, request

from server import db
from server.games import UnknownGame, presenter, presenters
from server.i18n import game_text
from server.models import Game, User, aware, utcnow
from server.services import chat, display_names, lobby, seat_view
from server.services.lobby import LobbyError
from server.web.accounts import check_form, sign_in_page
from server.web.board import (_options_line, _timing_lines, players, show_open,
                              show_with_refusal)
from server.web.pages import page, reader
from server.web import standing_orders
from server.web.seats import names as seat_names
from server.web.seats import title as game_title
from server.web.words import N_, _, locale, refusal
from server.parsing import whole

bp = Blueprint("lobby", __name__)

STATUS = {"not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422, "too_many": 429}


PUBLIC, FINISHED = 50, 10  # public games listed: in play or open, and over


BOTS = {"random": N_("Random bot"), "greedy": N_("Greedy bot (a rule of thumb)"),
        "strong": N_("Strong bot")}


def _against(others: list[dict]) -> str:
    """The other seats and who plays them, in one line: "Dick (Nixon), Strong bot (...)"."""
    return ", ".join(_("%(name)s (%(seat)s)", seat=o["seat_name"], name=o["name"] or (
        _(BOTS.get(o["bot"], o["bot"])) if o["bot"] else _("an open seat"))) for o in others)


def _row(session, game: Game, user, followed: set[int], now=None) -> dict:
    """A game as the lobby lists it (issue 47): its name, the reader's seat, the others and
    who plays them, where it stands (turn and phase, in the game's words), whose move it is,
    the deadline (shown in the reader's zone) and how long ago its last move was; all read
    through the reader's seat view (a move that may still be taken back is not shown)."""
    seat = lobby.seat_of(session, game.id, user.id) if user is not None else None
    loc = locale()
    names = seat_names(game.game_type, loc)
    seen = seat_view.of(session, game, seat)
    row = {"id": game.id, "status": game.status, "title": game_title(game.game_type),
           "seat": names.get(seat, seat) if seat else None,
           "your_move": bool(seat) and seen.your_move,
           "following": game.id in followed,
           "may_follow": lobby.may_follow(game, user, seat, followed),
           "against": _against(players(session, game, seat, names)),
           "where": None, "deciding": [], "deadline": None, "last_move": None}
    if seen.status == "active" and seen.state is not None:
        row["where"] = presenter(game.game_type).replay_heading(seen.view, loc)
        row["deciding"] = [names.get(s, s) for s in seen.state.active() if s != seat
                           and s in names]
        row["deadline"] = seen.deadline_at
        if seen.held_until is None and game.updated_at is not None:
            ago = (now or utcnow()) - aware(game.updated_at)
            row["last_move"] = _("just now") if ago < timedelta(minutes=1) else \
                format_timedelta(-ago, add_direction=True, locale=loc, threshold=1.1)
    return row


@bp.get("/")
def home():
    user = reader()
    with db.reading(db.session()) as session:
        followed = lobby.followed(session, user)
        mine = []
        if user is not None:
            account = session.get(User, user.id)
            unread = chat.unread(session, account)  # issue 27: lines of table talk not read
            mine = [{**_row(session, g, user, followed), "unread": unread.get(g.id, 0)}
                    for g in lobby.games_of(session, account)]
            mine.sort(key=lambda r: (not r["your_move"], r["status"] == "finished",
                                     r["following"], -r["id"]))
        listed = lobby.public_games(session)
        seeking = [_seeking(session, g, seats, user) for g, seats in
                   lobby.seeking_players(session, PUBLIC)]
        public = [_row(session, g, user, followed) for g in listed
                  if g.status != "finished" and g.id not in {r["id"] for r in seeking}][:PUBLIC]
        finished = [_row(session, g, user, followed)
                    for g in listed if g.status == "finished"][:FINISHED]
    return _lobby_page(200, user=user, mine=mine, public=public, finished=finished, error=None,
                       form={}, seeking=seeking)


def _seeking(session, game: Game, seats: list[str], user) -> dict:
    """An open public game seeking players, as the lobby lists it (issue 47): the game and
    its variant in words, who opened it, the free seats anybody may take (``seats``), the
    others and who holds them, and its time limits; whether the reader may join (signed in,
    not seated in it already)."""
    loc = locale()
    names = seat_names(game.game_type, loc)
    creator = session.get(User, game.created_by) if game.created_by is not None else None
    seated = user is not None and lobby.seat_of(session, game.id, user.id) is not None
    return {"id": game.id, "title": game_title(game.game_type),
            "variant": _options_line(game, loc),
            "creator": display_names.shown(creator, _) if creator is not None else None,
            "free": [{"seat": s, "name": names.get(s, s)} for s in seats],
            "against": _against([p for p in players(session, game, None, names)
                                 if p["seat"] not in seats]),
            # the time for a decision, and whether a missed deadline loses the game
            "timing": " ".join(_timing_lines(game)[:1] + (
                [_("A missed deadline forfeits the game.")]
                if game.decision_hours and game.on_deadline == "forfeit" else [])),
            "may_join": user is not None and not seated,
            "seated": seated}


@bp.post("/games/new")
def create():
    """A new game from the lobby's form of its game (``game_type``; none: the lobby's first
    game's); a game this server does not have is refused."""
    user = reader()
    if user is None:
        return sign_in_page("/", 401, _("Sign in to create a game."))
    refused = check_form()
    form = request.form
    if refused:
        return _lobby_error(refused, 400, form)
    game_type = _game_type(form)
    if not game_type:
        return _lobby_error(_("Choose the game to create: each game has its own form below."),
                            422, form)
    try:
        shown = presenter(game_type)
    except UnknownGame:
        return _lobby_error(_("There is no game called “%(name)s” on this server.",
                              name=game_type), 422, form)
    try:
        timing = {"decision_hours": _hours((form.get("decision_hours") or "72").strip()),
                  "reminder_hours": [_hours(h) for h in (form.get("reminder_hours") or "24")
                                     .replace(",", " ").split()],
                  "on_deadline": form.get("on_deadline", "default"),
                  "absent_after_missed": _hours((form.get("absent_after_missed") or "2")
                                                .strip())}
    except ValueError:
        return _lobby_error(_("Hours are whole numbers, like 72, and reminders a list like "
                              "24 6."), 422, form)
    try:
        options, emails, bots = shown.read_new_game(form, user)
    except ValueError as problem:
        return _lobby_error(str(problem), 422, form)
    delay = whole((form.get("bot_delay_seconds") or "0").strip())
    if delay is None:
        return _lobby_error(_("A bot's pause is a whole number of seconds, like 5."), 422, form)
    with db.session() as session:
        account = session.get(User, user.id)
        try:
            policies = standing_orders.chosen_policies(game_type, form)
            game, codes = lobby.open_game(session, account, game_type, options, emails,
                                           public=form.get("public") == "on", timing=timing,
                                           bots=bots, bot_delay_seconds=delay,
                                           spectator_chat=form.get("spectator_chat") == "on",
                                           start_by_hand=form.get("start_by_hand") == "on",
                                           random_side=form.get("random_side") == "on")
            standing_orders.file_policies(session, game.id,
                                          lobby.seat_of(session, game.id, user.id), policies)
            lobby.start_if_ready(session, game.id)   # the others are bots: it begins now
        except LobbyError as exc:
            return _lobby_error(refusal(exc), STATUS[exc.kind], form)
        except OptionsError as exc:  # the engine's reason, in the reader's words
            return _lobby_error(game_text.text(exc.args[0], locale(), game_type), 422, form)
    shown_codes = {seat: code for seat, code in codes.items() if not emails.get(seat)}
    if shown_codes:  # a seat left open: its code is shown now, once (only its hash is kept)
        created = show_open(game.id, codes=shown_codes, status=201)
        created.headers["Location"] = f"/games/{game.id}"  # 201 Created names the game
        return created
    return redirect(f"/games/{game.id}", 303)


def _hours(text: str) -> int:
    """A number of hours typed in the form: ASCII digits only (the lobby judges the range)."""
    hours = whole(text)
    if hours is None:
        raise ValueError(text)
    return hours


def _game_type(form) -> str:
    """The game a new-game form names (``game_type``; every game's form says which): a form
    naming none names no game, and is refused as such."""
    return (form.get("game_type") or "").strip()


def _lobby_error(message: str, status: int, form):
    return _lobby_page(status, user=reader(), mine=[], public=[], finished=[], error=message,
                       form=dict(form), seeking=[])


def _lobby_page(status: int, **context):
    """The lobby with every game's new-game form (the posted ``form`` refilled in its own)."""
    form, loc = context["form"], locale()
    posted = _game_type(form)
    new_games = [{**shown.new_game(loc), "part": shown.part("new_game.html"),
                  "form": form if shown.game == posted else {},
                  "levels": engine_bots.levels(shown.game)} for shown in presenters()]
    return page("lobby.html", status, loc, new_games=new_games, **context)


@bp.get("/games/<int:game_id>/join")
def join_page(game_id: int):
    """An invitation's page; with ``code`` (a share link's), the join form holding that code
    (the code lets its holder see the open game it opens a seat of; joining is a POST)."""
    code = (request.args.get("code") or "").strip()
    if reader() is None:
        if code:
            return sign_in_page(f"/games/{game_id}/join?code={quote(code)}", 200,
                                _("Sign in (or sign up: any address will do) to take the seat "
                                  "this invitation code opens."))
        return sign_in_page(f"/games/{game_id}", 200,
                            _("Sign in with the address the invitation came to, to take "
                              "your seat."))
    if code:
        with db.reading(db.session()) as session:
            opens = lobby.code_opens(session, game_id, code)
        if opens is not None:
            return show_open(game_id, join_code=code, seen=False)
    return redirect(f"/games/{game_id}", 303)


@bp.post("/games/<int:game_id>/code")
def new_code(game_id: int):
    """A new invitation code for a free seat (``seat``), shown once to the game's creator;
    the seat's old code stops working."""
    seat = (request.form.get("seat") or "").strip()
    made: dict[str, str] = {}
    return _lobby_action(game_id, lambda session, account: made.update(
        {seat: lobby.new_code(session, game_id, account, seat)}),
        then=lambda: show_open(game_id, codes=made))


@bp.post("/games/<int:game_id>/join")
def join(game_id: int):
    return _lobby_action(game_id, standing_orders.taking_seat(
        game_id, request.form, lambda session, account: lobby.join_game(
            session, game_id, account, code=(request.form.get("code") or "").strip() or None,
            seat=(request.form.get("seat") or "").strip() or None)))


@bp.post("/games/<int:game_id>/start")
def start(game_id: int):
    return _lobby_action(game_id, lambda session, account: lobby.start_game(
        session, game_id, account))


@bp.post("/games/<int:game_id>/resign")
def resign(game_id: int):
    """The reader concedes the game (the page's confirmation sends ``confirm``: the game
    ends; with two seats the other one wins)."""
    if request.form.get("confirm") != "yes":
        user = reader()
        if user is None:
            return sign_in_page(f"/games/{game_id}", 401, _("Sign in first."))
        return show_with_refusal(game_id, _("Confirm first: open “Resign this game” and "
                                            "press its button."), 422)

    def concede(session, account):
        seat = lobby.seat_of(session, game_id, account.id)
        if seat is None:
            raise LobbyError("forbidden", N_("Only a player of the game can resign it."))
        lobby.resign(session, game_id, seat)
    return _lobby_action(game_id, concede)


@bp.post("/games/<int:game_id>/follow")
def follow(game_id: int):
    """Follow a game as a spectator: it is listed among the reader's games from then on."""
    return _lobby_action(game_id, lambda session, account: lobby.spectate(
        session, game_id, account))


def _lobby_action(game_id: int, act, then=None):
    """Do ``act(session, account)`` for the signed-in reader, with the form's CSRF token
    checked; the game page with the refusal, or after it ``then()`` (default: the game page)."""
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
    return then() if then is not None else redirect(f"/games/{game_id}", 303)
