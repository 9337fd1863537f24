"""Departed and vanished players through the API (issue 46, item 1; the rulings:
server/services/absences.py): the game's absent seats and what the caller may choose about them,
the choice, a replacement taking the seat with its code, and a silent player coming back.

What an absence shows is public game information (who left or went silent, whether a bot
plays the seat, who asked to end the game): whoever may see the game reads it. Refusals are
problems with the reason in words and ``allowed``: what the caller may choose instead."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint
from sqlmodel import select

from server import db
from server.api import access, auth
from server.api import absence_schemas as schemas
from server.api.problems import Problem, not_found
from server.models import Game, Seat, SeatAbsence, User
from server.services import absences, lobby

blp = Blueprint("absences", __name__, url_prefix="/api/v1",
                description="Departed and vanished players: a seat whose player deleted their "
                            "account, or missed the game's absent_after_missed deadlines in a "
                            "row (default 2), is absent; the other players may claim the win "
                            "(two seats), end the game unrated, hand the seat to a bot or "
                            "invite a replacement. With three or four seats a bot takes the "
                            "seat at once. A game nobody plays ends unrated after the "
                            "operator's WHISTLESTOP_SILENT_GAME_DAYS (default 30).")

_GAME = "/games/<int:game_id>"
_SLUGS = {403: "forbidden", 404: "not-found"}


def refused(exc: absences.AbsenceError) -> Problem:
    """The service's refusal as a problem: its words (the API speaks English), its status and
    what may be chosen instead."""
    detail = exc.message % exc.params if exc.params else exc.message
    slug = _SLUGS.get(exc.status, "absence-refused")
    return Problem(slug, detail, status=exc.status, allowed=list(exc.allowed))


def _missed(session, game_id: int) -> dict[str, int]:
    return dict(session.exec(select(Seat.seat, Seat.missed_in_a_row)
                             .where(Seat.game_id == game_id)).all())


def listing(session, game: Game, seat: str | None) -> dict:
    """The open absences of the game, with what ``seat`` may choose about each."""
    missed = _missed(session, game.id)
    opened = absences.open_ones(session, game.id)
    return {"your_seat": seat, "absent_after_missed": game.absent_after_missed or 0,
            "come_back": any(a.seat == seat and a.bot is not None for a in opened),
            "absences": [{
                "id": a.id, "seat": a.seat, "reason": a.reason, "since": a.since,
                "step": a.step, "missed": (missed.get(a.seat) or 0) if a.reason == "silent"
                else 0, "bot": a.bot, "bot_by": a.bot_by, "wants_end": list(a.wants_end or []),
                "invited_by": a.invited_by,
                "choices": absences.choices_for(session, game, a, seat)} for a in opened]}


def _documented(*statuses):
    def decorate(view):
        names = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND",
                 409: "CONFLICT", 410: "GONE", 422: "UNPROCESSABLE_ENTITY"}
        for status in statuses:
            view = blp.alt_response(status, response=names[status])(view)
        return view
    return decorate


@blp.route(_GAME + "/absences", methods=["GET"])
@auth.optional
@blp.response(200, schemas.AbsencesSchema)
@blp.doc(security=auth.OPTIONAL_AUTH)
@_documented(401, 404)
def list_absences(game_id: int):
    """The game's absent seats and what you may choose about them.

    A seat is absent when its player left the game (deleted their account) or missed the
    game's absent_after_missed deadlines in a row (default 2; 0 never). Listed while nobody has
    settled it: since when, whether a bot plays the seat meanwhile, who asked to end the game,
    and, for your seat, what you may choose now. Public to whoever may see the game."""
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        game = access.visible_game(session, game_id, user)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        return listing(session, game, seat)


@blp.route(_GAME + "/absences/<seat>", methods=["POST"])
@auth.required
@blp.arguments(schemas.ChooseSchema, example={"choice": "bot"})
@blp.response(200, schemas.ChosenSchema)
@_documented(400, 401, 403, 404, 409, 410, 422)
def choose(data, game_id: int, seat: str):
    """Choose what happens to an absent seat.

    Any present player of the game may choose: claim the win (two seats only, while no bot plays it: the game ends, the absent seat
    forfeits; rated as a win by forfeit), end the game unrated (with two seats at once; with
    three or four once every present player asked it), bot (the game's strongest bot plays the
    seat; the game is then unrated) or replace (a one-time code, answered once with the page
    where a signed-in person takes the seat; with invite_email, also mailed there; the game is
    then unrated). Refused with the reason and `allowed`: 400 no such choice, 403 not a
    present player, 404 no such game, 409 not allowed now, 410 settled already."""
    user = auth.current_user()
    with db.session() as session:
        game, mine = access.playing(session, game_id, user)
        latest = session.exec(select(SeatAbsence).where(
            SeatAbsence.game_id == game_id, SeatAbsence.seat == seat)
            .order_by(SeatAbsence.id.desc())).first()
        if latest is not None and latest.status != "open":
            raise Problem("absence-refused", f"This was settled already: {latest.status}.",
                          status=410, allowed=[], settled=latest.status)
        try:
            done = absences.choose(session, game_id, mine, data["choice"], seat=seat,
                                   invite_email=data.get("invite_email"))
        except absences.AbsenceError as exc:
            raise refused(exc) from None
        session.expire_all()
        body = {**listing(session, session.get(Game, game_id), mine), "done": done.done,
                "seat": seat}
        if done.code:
            body.update(code=done.code, take_seat_url=take_seat_url(game_id, done.code))
        return body


def take_seat_url(game_id: int, code: str) -> str:
    return f"{current_app.config['BASE_URL'].rstrip('/')}/games/{game_id}/take-seat/{code}"


@blp.route(_GAME + "/take-seat", methods=["POST"])
@auth.required
@blp.arguments(schemas.TakeSeatSchema, example={"code": "Zb1c4hT0cKz-aQ2e"})
@blp.response(200, schemas.SeatTakenSchema)
@_documented(401, 404, 409, 410, 422)
def take_seat(data, game_id: int):
    """Take over an absent seat with a replacement's code.

    The one-time code a player of the game gave you (from their "replace" choice): the seat is yours from its decision now on, a bot that played it
    leaves it, and the game is unrated. 404: no such game, or a code that is not one of its;
    409: you already play a seat of the game; 410: the seat was settled meanwhile."""
    user = auth.current_user()
    with db.session() as session:
        try:
            seat = absences.take_seat(session, game_id, data["code"],
                                      session.get(User, user.id))
        except absences.AbsenceError as exc:
            raise refused(exc) from None
        return {"seat": seat, "game_id": game_id}


@blp.route(_GAME + "/come-back", methods=["POST"])
@auth.required
@blp.response(200, schemas.AbsencesSchema)
@_documented(401, 403, 404, 409)
def come_back(game_id: int):
    """Take your seat back from the bot that plays it since you went silent.

    While no bot plays it, an order of your own brings you back. 409: your seat is yours already."""
    user = auth.current_user()
    with db.session() as session:
        access.playing(session, game_id, user)
        try:
            absences.come_back(session, game_id, session.get(User, user.id))
        except absences.AbsenceError as exc:
            raise refused(exc) from None
        session.expire_all()
        game = session.get(Game, game_id)
        if game is None:
            raise not_found()
        return listing(session, game, lobby.seat_of(session, game_id, user.id))
