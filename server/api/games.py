"""Games: open, list, show, join, start, decision, log, resign, spectate."""

from __future__ import annotations

import engine.core as engine
from engine import bots as engine_bots
from flask_smorest import Blueprint

from server import db
from server.api import access, auth, present, schemas
from server.api.problems import Problem, not_found
from server.models import Game, utcnow
from server.services import chat, lobby, retract
from server.services.users import sha256_hex

blp = Blueprint("games", __name__, url_prefix="/api/v1/games",
                description="Open a game, invite and join its seats, start it, follow it.")

ERRORS = {401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT",
          422: "UNPROCESSABLE_ENTITY", 429: "TOO_MANY_REQUESTS"}


def documents(*codes: int):
    """Document the problem responses an endpoint may answer."""
    def decorator(func):
        for code in codes:
            func = blp.alt_response(code, response=ERRORS[code])(func)
        return func
    return decorator


def _example_game() -> dict:
    """A new game of the first registered game, with its default options and open seats (the
    OpenAPI example; tests/security/test_schemathesis_live.py sends it)."""
    info = engine.info(engine.games()[0])
    options = {key: value for key, value in info.option_defaults.items() if value is not None}
    return {"game_type": info.game_id, "options": options, "public": True,
            "seats": dict.fromkeys(info.seats(options))}


@blp.route("", methods=["POST"])
@auth.required
@blp.arguments(schemas.NewGameSchema, example=_example_game())
@blp.response(201, schemas.NewGameResultSchema)
@documents(401, 422, 429)
def open_game(data):
    """Open a game; answer each seat's invitation code (shown this once only).

    The creator takes the seat reserved for their own address at once (``random_side``: the
    server draws which seat is the creator's). The game starts by itself once every seat has
    a player (at once when the others are bots), unless ``start_by_hand``: then when its
    creator says so (POST /games/{id}/start).
    """
    user = auth.current_user()
    with db.session() as session:
        game, codes = lobby.open_game(session, user, data["game_type"], data["options"],
                                      data["seats"], public=data["public"],
                                      timing=data["timing"], bots=data["bots"],
                                      bot_delay_seconds=data["bot_delay_seconds"],
                                      spectator_chat=data["spectator_chat"],
                                      start_by_hand=data["start_by_hand"],
                                      random_side=data["random_side"])
        lobby.start_if_ready(session, game.id)
        session.refresh(game)
        body = {"game": present.game_body(session, game, user), "invitations": codes}
    return body


@blp.route("", methods=["GET"])
@auth.required
@blp.arguments(schemas.GamesQuerySchema, location="query")
@blp.response(200, schemas.MyGameSchema(many=True))
@documents(401, 422)
def my_games(query):
    """Your games (played, created, invited to, followed), newest first, with your_move and
    the table-talk lines you have not read (unread_chat)."""
    user = auth.current_user()
    with db.reading(db.session()) as session:
        listed = lobby.games_of(session, user, query.get("status"))
        unread = chat.unread(session, user, [game.id for game in listed])  # one statement
        return [{**present.game_body(session, game, user, view=False),
                 "unread_chat": unread.get(game.id, 0)} for game in listed]


@blp.route("/bots", methods=["GET"])
@blp.response(200, schemas.BotLevelsSchema)
@blp.doc(security=auth.NO_AUTH)
def bot_levels():
    """The bots each game offers for its seats (the "bots" of a new game), weakest first."""
    return {"games": {game_type: engine_bots.levels(game_type) for game_type in engine.games()}}


@blp.route("/public", methods=["GET"])
@auth.optional
@blp.arguments(schemas.GamesQuerySchema, location="query")
@blp.response(200, schemas.GameSummarySchema(many=True))
@blp.doc(security=auth.OPTIONAL_AUTH)
@documents(401, 422)
def public_games(query):
    """The public games anybody may follow, newest first (no token needed)."""
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        return [present.game_body(session, game, user, view=False)
                for game in lobby.public_games(session, query.get("status"))]


@blp.route("/open", methods=["GET"])
@auth.optional
@blp.response(200, schemas.OpenGameSchema(many=True))
@blp.doc(security=auth.OPTIONAL_AUTH)
@documents(401)
def open_games():
    """The public games seeking players, newest first (no token needed): open, with a free
    seat nobody is invited to (``free_seats``). Any signed-in player whose address is proven
    takes one with POST /games/{id}/join and ``{"seat": ...}``; a seat taken meanwhile is
    answered 409 with the reason. Private games are never listed."""
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        return [{**present.game_body(session, game, user, view=False), "free_seats": seats}
                for game, seats in lobby.seeking_players(session)]


@blp.route("/<int:game_id>", methods=["GET"])
@auth.optional
@blp.response(200, schemas.GameSchema)
@blp.doc(security=auth.OPTIONAL_AUTH)
@documents(401, 404)
def show_game(game_id):
    """The game as you may see it: your seat's view, or the spectators' view.

    A public game needs no token; a private one answers 404 to anybody who may not see it.
    """
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        return present.game_body(session, access.visible_game(session, game_id, user), user)


@blp.route("/<int:game_id>/join", methods=["POST"])
@auth.required
@blp.arguments(schemas.JoinSchema, example={"seat": "nixon"})
@blp.response(200, schemas.GameSchema)
@documents(401, 403, 404, 409, 422)
def join_game(data, game_id):
    """Take a seat: the one reserved for your address, or the one your invitation code opens,
    or in a public game seeking players (GET /games/open) a free seat nobody is invited to
    (``seat``: that one; your address must be proven)."""
    user = auth.current_user()
    code = data.get("code")
    with db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            raise not_found()
        if not lobby.may_see(session, game, user):
            # Only a code that opens one of its seats shows that a private game exists.
            if code is None or not any(r.invite_token_hash == sha256_hex(code)
                                       for r in lobby.seat_rows(session, game_id)):
                raise not_found()
        lobby.join_game(session, game_id, user, seat=data.get("seat"), code=code)
        body = present.game_body(session, session.get(Game, game_id), user)
    return body


@blp.route("/<int:game_id>/start", methods=["POST"])
@auth.required
@blp.response(200, schemas.GameSchema)
@documents(401, 403, 404, 409)
def start_game(game_id):
    """Start the game (its creator only, once every seat has a player; if the creator deleted
    their account before the start, the player who joined it first). A game that started by
    itself when its last seat was taken (it was not opened with ``start_by_hand``) is answered
    as it is: starting it again changes nothing."""
    user = auth.current_user()
    with db.session() as session:
        game = lobby.start_game(session, game_id, user)
        body = present.game_body(session, game, user)
    return body


@blp.route("/<int:game_id>/code", methods=["POST"])
@auth.required
@blp.arguments(schemas.NewCodeSchema, example={"seat": "nixon"})
@blp.response(200, schemas.NewCodeResultSchema)
@documents(401, 403, 404, 409, 422)
def new_code(data, game_id):
    """A new invitation code for a free seat of an open game (its creator only: the player who
    opened it, or, if they deleted their account, the player who joined it first)."""
    user = auth.current_user()
    with db.session() as session:
        access.visible_game(session, game_id, user)
        return {"seat": data["seat"], "code": lobby.new_code(session, game_id, user,
                                                             data["seat"])}


@blp.route("/<int:game_id>/decision", methods=["GET"])
@auth.required
@blp.response(200, schemas.DecisionSchema)
@documents(401, 403, 404)
def decision(game_id):
    """What your seat is asked now: the prompt, the legal actions and the step to answer."""
    user = auth.current_user()
    with db.reading(db.session()) as session:
        game, seat = access.playing(session, game_id, user)
        return present.decision_body(session, game, seat)


@blp.route("/<int:game_id>/show-move", methods=["POST"])
@auth.required
@blp.response(200, schemas.GameSchema)
@documents(401, 403, 404)
def show_move(game_id):
    """Show now the move another player may still take back (the game's `held_until`: until
    then you see the game as it was before it). From now on you see it, and it is final: its
    mover can no longer take it back. Changes nothing when no move is held from you. The
    game page's "Show the move now" does the same; a GET never does."""
    user = auth.current_user()
    with db.session() as session:
        _game, seat = access.playing(session, game_id, user)
        # Under the game's lock, as a take back: one of the two happens wholly first.
        if retract.show(session, game_id, seat, "api", utcnow()):
            session.commit()
        # The answer: one snapshot (the state and its log read together).
        db.read_afresh(session)
        return present.game_body(session, session.get(Game, game_id), user)


@blp.route("/<int:game_id>/log", methods=["GET"])
@auth.optional
@blp.response(200, schemas.LogSchema)
@blp.doc(security=auth.OPTIONAL_AUTH)
@documents(401, 404)
def game_log(game_id):
    """The action log: redacted for you during play, the full record (and seed) after the end.

    `whistlestop verify --file` replays this document from the seed and checks the seed_hash.
    """
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        game = access.visible_game(session, game_id, user)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        return present.log_body(session, game, seat)


@blp.route("/<int:game_id>/resign", methods=["POST"])
@auth.required
@blp.response(200, schemas.GameSchema)
@documents(401, 403, 404, 409)
def resign(game_id):
    """Concede the game; with two seats the other one wins."""
    user = auth.current_user()
    with db.session() as session:
        _, seat = access.playing(session, game_id, user)
        lobby.resign(session, game_id, seat)
        db.read_afresh(session)  # the answer in one snapshot (the state with its log)
        body = present.game_body(session, session.get(Game, game_id), user)
    return body


@blp.route("/<int:game_id>/spectate", methods=["POST"])
@auth.required
@blp.response(200, schemas.GameSchema)
@documents(401, 404)
def spectate(game_id):
    """Follow a public game (or a private one you may see): it is listed in GET /games."""
    user = auth.current_user()
    with db.session() as session:
        lobby.spectate(session, game_id, user)
        db.read_afresh(session)  # the answer in one snapshot (a take back may commit meanwhile)
        body = present.game_body(session, access.visible_game(session, game_id, user), user)
    return body


# Problem responses for the lobby's refusals.
LOBBY_STATUS = {"not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422,
                "too_many": 429}
LOBBY_SLUG = {"forbidden": "forbidden", "conflict": "conflict", "invalid": "invalid-options",
              "too_many": "too-many-requests"}


def lobby_problem(exc: lobby.LobbyError) -> Problem:
    if exc.kind == "not_found":
        return not_found()
    headers = {"Retry-After": str(exc.values["seconds"])} if exc.kind == "too_many" else None
    return Problem(LOBBY_SLUG[exc.kind], exc.reason, status=LOBBY_STATUS[exc.kind],
                   headers=headers)
