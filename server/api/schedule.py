"""Vacations, quiet hours, and a game's pause and extension (issue 27, items 4 and 5)."""

from __future__ import annotations

from datetime import date, timedelta

from flask import current_app
from flask_smorest import Blueprint

from server import db
from server.api import access, auth
from server.api import schedule_schemas as schemas
from server.api.problems import Problem
from server.i18n import times
from server.models import User, aware, utcnow
from server.services import extensions, pauses, quiet_hours, seat_view, vacations

blp = Blueprint("schedule", __name__, url_prefix="/api/v1",
                description="Vacations, quiet hours, pauses and extensions: when the clocks "
                            "of your games stop or give you more time.")


def _refused(exc) -> Problem:
    slug = {403: "forbidden", 404: "not-found", 409: "conflict"}.get(exc.status,
                                                                      "invalid-request")
    return Problem(slug, str(exc), status=exc.status)


# --- vacations --------------------------------------------------------------------------------
def _vacation(row, zone: str, now) -> dict:
    ends = aware(row.ends_at)
    return {"id": row.id, "first_day": date.fromisoformat(row.first_day),
            "starts_at": aware(row.starts_at),
            "ends_at": ends, "days": row.days,
            "last_day": times.local_date(ends - timedelta(seconds=1), zone),
            "ongoing": aware(row.starts_at) <= now}


def _vacations(session, user: User) -> dict:
    now = utcnow()
    allowance = current_app.config.get("VACATION_DAYS_PER_YEAR", vacations.DAYS_PER_YEAR)
    used = vacations.used(session, user.id, times.local_date(now, user.time_zone).year)
    return {"allowance": allowance, "used_this_year": used,
            "left_this_year": max(allowance - used, 0),
            "notice_hours": current_app.config.get("VACATION_NOTICE_HOURS",
                                                   vacations.NOTICE_HOURS),
            "vacations": [_vacation(row, user.time_zone, now)
                          for row in vacations.of_user(session, user.id, now)]}


@blp.route("/users/me/vacations", methods=["GET"])
@auth.required
@blp.response(200, schemas.VacationsSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def list_vacations():
    """Your allowance (whole days a calendar year), the days used this year, and your
    vacations not over yet. While you are on vacation the clocks of all your games stop."""
    with db.session() as session:
        return _vacations(session, session.get(User, auth.current_user().id))


@blp.route("/users/me/vacations", methods=["POST"])
@auth.required
@blp.arguments(schemas.VacationSchema, example={"first_day": "2026-12-24",
                                                "last_day": "2026-12-27"})
@blp.response(201, schemas.VacationsSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def book_vacation(data):
    """Book a vacation: whole days in your time zone, from 00:00 of the first day to 00:00
    after the last. Refused (422, saying why) with less than the notice
    (VACATION_NOTICE_HOURS, default 24) before its first day, beyond the year's allowance
    (VACATION_DAYS_PER_YEAR, default 30), or over another vacation."""
    cfg = current_app.config
    with db.session() as session:
        user = session.get(User, auth.current_user().id)
        try:
            vacations.book(session, user, data["first_day"], data["last_day"], utcnow(),
                           allowance=cfg.get("VACATION_DAYS_PER_YEAR", vacations.DAYS_PER_YEAR),
                           notice_hours=cfg.get("VACATION_NOTICE_HOURS",
                                                vacations.NOTICE_HOURS))
        except vacations.VacationError as exc:
            session.rollback()
            raise _refused(exc) from None
        return _vacations(session, user)


@blp.route("/users/me/vacations/<int:vacation_id>", methods=["DELETE"])
@auth.required
@blp.response(200, schemas.VacationEndSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
def end_vacation(vacation_id: int):
    """Cancel a future vacation, or end one under way now (your games' deadlines move by the
    time their clocks were stopped; the whole days not begun return to your allowance)."""
    with db.session() as session:
        user = session.get(User, auth.current_user().id)
        try:
            return {"result": vacations.cancel(session, user, vacation_id, utcnow())}
        except vacations.VacationError as exc:
            session.rollback()
            raise _refused(exc) from None


# --- quiet hours ------------------------------------------------------------------------------
def _quiet(session, user: User) -> dict:
    row = quiet_hours.of_user(session, user.id)
    return {"start": row.start if row else None, "end": row.end if row else None,
            "time_zone": user.time_zone}


@blp.route("/users/me/quiet-hours", methods=["GET"])
@auth.required
@blp.response(200, schemas.QuietHoursSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def show_quiet_hours():
    """Your quiet hours (null: off), local times in your time zone."""
    with db.session() as session:
        return _quiet(session, session.get(User, auth.current_user().id))


@blp.route("/users/me/quiet-hours", methods=["PUT"])
@auth.required
@blp.arguments(schemas.QuietHoursSchema, example={"start": "22:30", "end": "07:00"})
@blp.response(200, schemas.QuietHoursSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def change_quiet_hours(data):
    """Set your quiet hours (start and end, HH:MM in your zone; the end may be earlier than the
    start: they cross midnight), or turn them off (both null). A deadline or reminder of a
    decision you owe that would fall in them moves to their end, from the next decision on."""
    with db.session() as session:
        user = session.get(User, auth.current_user().id)
        try:
            quiet_hours.set_hours(session, user.id, data.get("start"), data.get("end"))
        except quiet_hours.TooLong as long:
            session.rollback()
            raise Problem("invalid-request", f"Quiet hours last at most "
                          f"{quiet_hours.MAX_HOURS} hours a day (these would last "
                          f"{long.hours} h {long.minutes:02d} min), so that half of every day "
                          "stays open to the deadlines the other players wait on.") from None
        except quiet_hours.BadQuietHours:
            session.rollback()
            raise Problem("invalid-request", "Quiet hours are a start and an end, each a time "
                          "of day written HH:MM (like 22:30 and 07:00), not the same time; "
                          "both null turns them off.") from None
        session.commit()
        return _quiet(session, user)


# --- a game's pause and extension ----------------------------------------------------------
def schedule_of(session, game, seat: str) -> dict:
    """What a seat may know of the game's clock: all of it is public to its players (the
    deadline as the seat may see it: none while a move another seat may still take back is
    hidden from it, services/seat_view.py)."""
    now = utcnow()
    pause = pauses.current(session, game.id)
    return {"deadline_at": aware(seat_view.of(session, game, seat).deadline_at),
            "clock_stopped": game.clock_stopped_at is not None,
            "pause": pause, "extensions": extensions.of_game(session, game.id),
            "away": [{"seat": s, "until": u} for s, u in vacations.away(session, game.id, now)]}


_GAME = "/games/<int:game_id>"


def _act(game_id: int, do) -> dict:
    with db.session() as session:
        game, seat = access.playing(session, game_id, auth.current_user())
        try:
            do(session, seat)
        except pauses.PauseError as exc:
            session.rollback()
            raise _refused(exc) from None
        session.expire_all()
        return schedule_of(session, session.get(type(game), game_id), seat)


def _documented(view):
    for status, name in ((401, "UNAUTHORIZED"), (403, "FORBIDDEN"), (404, "NOT_FOUND"),
                         (409, "CONFLICT")):
        view = blp.alt_response(status, response=name)(view)
    return blp.response(200, schemas.ScheduleSchema)(view)


@blp.route(_GAME + "/schedule", methods=["GET"])
@auth.required
@_documented
def game_schedule(game_id: int):
    """The game's deadline, whether its clock is stopped, the pause asked or in force, the
    extensions asked, and which players are on vacation until when."""
    with db.session() as session:
        game, seat = access.playing(session, game_id, auth.current_user())
        return schedule_of(session, game, seat)


@blp.route(_GAME + "/pause", methods=["POST"])
@auth.required
@_documented
def ask_pause(game_id: int):
    """Ask every other player to pause the game. Once all agree, no deadline or reminder fires
    (orders are still taken); any player resumes it, and the deadline moves by the paused time.
    An ask not agreed within a day expires."""
    return _act(game_id, lambda s, seat: pauses.ask(s, game_id, seat, utcnow()))


@blp.route(_GAME + "/pause/answer", methods=["POST"])
@auth.required
@blp.arguments(schemas.AnswerSchema, example={"agree": True})
@_documented
def answer_pause(data, game_id: int):
    """Agree to (or refuse) the pause another player asked."""
    return _act(game_id, lambda s, seat: pauses.answer(s, game_id, seat, data["agree"],
                                                       utcnow()))


@blp.route(_GAME + "/pause/resume", methods=["POST"])
@auth.required
@_documented
def resume_game(game_id: int):
    """End the pause (any player): the pending deadline moves by the time it was paused."""
    return _act(game_id, lambda s, seat: pauses.resume(s, game_id, seat, utcnow()))


@blp.route(_GAME + "/extension", methods=["POST"])
@auth.required
@_documented
def ask_extension(game_id: int):
    """Ask the other players for one more decision period on the decision you owe: once per
    game. Unanswered, the ask expires at the deadline."""
    return _act(game_id, lambda s, seat: extensions.ask(s, game_id, seat, utcnow()))


@blp.route(_GAME + "/extension/answer", methods=["POST"])
@auth.required
@blp.arguments(schemas.AnswerSchema, example={"agree": True})
@_documented
def answer_extension(data, game_id: int):
    """Grant (agree true) or refuse the extension another player asked; granted, the deadline
    moves by one decision period."""
    return _act(game_id, lambda s, seat: extensions.answer(s, game_id, seat, data["agree"],
                                                           utcnow()))
