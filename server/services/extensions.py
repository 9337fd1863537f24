"""A one-time extension of a deadline: the player who owes a decision may ask once per game for
one more decision period (the game's ``decision_hours`` added to the deadline; chosen over a
fixed +48 h so a game of short turns stays short and one of long turns gets a turn's worth).

The other seated players are asked (a bot's seat grants by itself); the first answer decides:
granted, the deadline moves (its reminders with it; into the end of the owing players' quiet
hours if it falls in them); refused, it stays. Answered on the game page, by API, by the signed
link in the "extension" mail, or by a reply line (``extend yes`` / ``extend no``). An ask still
unanswered when the deadline comes, or when the decision is answered, expires. Each step is
told to the players by an "extension" mail. The ask is used even when refused or expired.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Extension, Game, aware
from server.services import clock, games, outbox, pauses, quiet_hours


class ExtensionError(pauses.PauseError):
    """Why an extension cannot be asked or answered now (``message``, ``status``)."""


def of_game(session: Session, game_id: int) -> list[Extension]:
    return list(session.exec(select(Extension).where(Extension.game_id == game_id)
                             .order_by(Extension.id)).all())


def _asked(session: Session, game_id: int) -> Extension | None:
    return session.exec(select(Extension).where(Extension.game_id == game_id,
                                                Extension.status == "asked")).first()


def pending(session: Session, game_id: int) -> Extension | None:
    """The ask waiting for an answer: of the decision the game is at (an ask of a decision
    since answered waits no more; the sweep or the next answer marks it expired)."""
    return session.exec(select(Extension).join(Game, Game.id == Extension.game_id)
                        .where(Extension.game_id == game_id, Extension.status == "asked",
                               Extension.step == Game.step, Game.status == "active")).first()


def _tell(session: Session, game: Game, row: Extension, event: str, by: str) -> None:
    outbox.write(session, "extension", {"game_id": game.id, "extension_id": row.id,
                                        "event": event, "by": by})


def ask(session: Session, game_id: int, seat: str, now: datetime) -> Extension:
    """Ask for the seat's one extension of the decision it owes; commits. Raise
    ExtensionError."""
    game = session.get(Game, game_id)
    if game is None:
        raise ExtensionError(N_("There is no such game."), 404)
    if seat not in pauses.humans(session, game):
        raise ExtensionError(N_("Only the game's players can ask for an extension."), 403)
    if game.status != "active" or game.deadline_at is None:
        raise ExtensionError(N_("This game has no deadline to extend."))
    if seat not in clock.owing_now(session, game):
        raise ExtensionError(N_("Only the player who owes the decision can ask for more "
                                "time, and only while it is theirs."))
    expire(session, game, now)  # another seat's ask of a decision since answered
    if session.exec(select(Extension.id).where(Extension.game_id == game_id,
                                               Extension.seat == seat)).first():
        raise ExtensionError(N_("You have used your one extension in this game."))
    row = Extension(game_id=game_id, seat=seat, step=game.step, hours=game.decision_hours,
                    asked_at=now)
    session.add(row)
    try:
        session.flush()
    except IntegrityError:  # the same ask twice at once
        session.rollback()
        raise ExtensionError(N_("You have used your one extension in this game.")) from None
    others = [s for s in pauses.humans(session, game) if s != seat]
    if others:
        _tell(session, game, row, "asked", seat)
    else:
        _decide(session, game, row, True, "", now)
    session.commit()
    return row


def answer(session: Session, game_id: int, seat: str, grant: bool, now: datetime,
           extension_id: int | None = None) -> Extension:
    """Grant or refuse the extension asked of the seat's player; commits. Raise
    ExtensionError."""
    game = session.get(Game, game_id)
    if game is None:
        raise ExtensionError(N_("There is no such game."), 404)
    if expire(session, game, now):
        session.commit()
        raise ExtensionError(N_("The ask for more time has expired: the decision was "
                                "answered or its deadline came."))
    row = pending(session, game_id)
    if row is None or (extension_id is not None and row.id != extension_id):
        raise ExtensionError(N_("No extension in this game is waiting for an answer."))
    if seat == row.seat or seat not in pauses.humans(session, game):
        raise ExtensionError(N_("Only the other players can answer an ask for more time."),
                             403)
    _decide(session, game, row, grant, seat, now)
    session.commit()
    return row


def _decide(session: Session, game: Game, row: Extension, grant: bool, by: str,
            now: datetime) -> None:
    row.status, row.answered_by, row.answered_at = ("granted" if grant else "refused"), by, now
    session.add(row)
    if grant:
        seats = clock.owing_now(session, game)
        quiet = quiet_hours.windows(session, game.id, seats)
        later = quiet_hours.later(aware(game.deadline_at) + timedelta(hours=row.hours), quiet)
        session.execute(update(Game).where(Game.id == game.id, Game.step == row.step)
                        .values(deadline_at=later,
                                alarm_at=_alarm(game, later, now, quiet)))
    _tell(session, game, row, row.status, by)


def _alarm(game: Game, deadline: datetime, now: datetime, quiet) -> datetime:
    alarm = games.next_alarm(game, deadline, game.reminders_sent, quiet)
    return max(alarm, now) if game.clock_stopped_at is None else (game.alarm_at or alarm)


def expire(session: Session, game: Game, now: datetime) -> bool:
    """Mark the game's unanswered ask expired when its decision was answered or its deadline
    has come, and tell the players (no commit). Whether it did."""
    row = _asked(session, game.id)
    if row is None:
        return False
    if row.step == game.step and game.status == "active" and (
            game.deadline_at is None or now < aware(game.deadline_at)):
        return False
    row.status = "expired"
    session.add(row)
    _tell(session, game, row, "expired", row.seat)
    return True
