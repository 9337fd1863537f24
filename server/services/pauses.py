"""Pausing one game by every player's agreement.

One seated player asks; every other seated player (bots' seats agree by themselves) agrees or
refuses, on the game page, by API, by the signed link in the mail that tells them, or by a reply
line (``pause yes`` / ``pause no``). When the last one agrees the game is paused: no deadline or
reminder fires (services/clock.py). Orders are still accepted while paused: a player who wants
to move may; the next decision's clock is stopped too until the game resumes. Any seated player
resumes it; the pending deadline then moves by the paused time. A refusal ends the ask; an ask
not agreed within ASK_HOURS expires. Every step is told to every seat (a "pause" mail).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Game, GamePause, Seat, aware
from server.services import clock, outbox

ASK_HOURS = 24


class PauseError(Exception):
    """Why a pause cannot be asked, answered or ended now (``message``: in words, English,
    translated where shown; ``status``: the HTTP status it answers)."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.message, self.status = message, status


def humans(session: Session, game: Game) -> list[str]:
    """The seats held by a person (not a bot), in seat order."""
    return [s for s, u in session.exec(select(Seat.seat, Seat.user_id)
                                       .where(Seat.game_id == game.id).order_by(Seat.id))
            if u is not None and s not in (game.bots or {})]


def current(session: Session, game_id: int) -> GamePause | None:
    """The game's pause asked or in force, or None."""
    return session.exec(select(GamePause).where(GamePause.game_id == game_id,
                                                GamePause.status.in_(("asked", "paused")))
                        .order_by(GamePause.id.desc())).first()


def _game(session: Session, game_id: int, seat: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise PauseError(N_("There is no such game."), 404)
    if game.status != "active":
        raise PauseError(N_("Only a game in play can be paused."))
    if seat not in humans(session, game):
        raise PauseError(N_("Only the game's players can ask for, agree to or end a pause."),
                         403)
    return game


def _tell(session: Session, game: Game, pause: GamePause, event: str, by: str) -> None:
    outbox.write(session, "pause", {"game_id": game.id, "pause_id": pause.id, "event": event,
                                    "by": by})


def ask(session: Session, game_id: int, seat: str, now: datetime) -> GamePause:
    """Ask the other players to pause the game (paused at once when there is nobody else to
    ask); commits. Raise PauseError."""
    game = _game(session, game_id, seat)
    if current(session, game_id) is not None:
        raise PauseError(N_("A pause of this game is already asked or in force."))
    pause = GamePause(game_id=game_id, asked_by=seat, step=game.step, agreed=[seat],
                      asked_at=now)
    session.add(pause)
    session.flush()
    if not _start_if_agreed(session, game, pause, now):
        _tell(session, game, pause, "asked", seat)
        expiry = now + timedelta(hours=ASK_HOURS)
        if game.alarm_at is not None and aware(game.alarm_at) > expiry:
            session.execute(update(Game).where(Game.id == game.id).values(alarm_at=expiry))
    session.commit()
    return pause


def answer(session: Session, game_id: int, seat: str, agree: bool, now: datetime,
           pause_id: int | None = None) -> GamePause:
    """Agree to or refuse the pause asked; commits. Raise PauseError."""
    game = _game(session, game_id, seat)
    pause = current(session, game_id)
    if pause is None or pause.status != "asked" or (pause_id and pause.id != pause_id):
        raise PauseError(N_("No pause of this game is waiting for an answer."))
    if expired(pause, now):
        expire(session, game, now)
        raise PauseError(N_("The ask to pause this game has expired."))
    if seat in pause.agreed:
        raise PauseError(N_("You have already agreed to this pause."))
    if not agree:
        pause.status, pause.answered_by = "refused", seat
        session.add(pause)
        _tell(session, game, pause, "refused", seat)
    else:
        pause.agreed = [*pause.agreed, seat]
        session.add(pause)
        _start_if_agreed(session, game, pause, now)
    session.commit()
    return pause


def _start_if_agreed(session: Session, game: Game, pause: GamePause, now: datetime) -> bool:
    if set(humans(session, game)) - set(pause.agreed):
        return False
    pause.status, pause.started_at = "paused", now
    session.add(pause)
    stopped = max(now, aware(game.clock_started_at) or now)
    session.execute(update(Game).where(Game.id == game.id)
                    .values(alarm_at=None, clock_stopped_at=stopped))
    _tell(session, game, pause, "paused", pause.asked_by)
    return True


def resume(session: Session, game_id: int, seat: str, now: datetime) -> GamePause:
    """End the pause in force (any player); the deadline moves by the paused time; commits.
    Raise PauseError."""
    game = _game(session, game_id, seat)
    pause = current(session, game_id)
    if pause is None or pause.status != "paused":
        raise PauseError(N_("This game is not paused."))
    pause.status, pause.resumed_at = "resumed", now
    session.add(pause)
    session.flush()
    moved = clock.catch_up(session, game, clock.owing_now(session, game), now)
    if not moved and game.deadline_at is not None:
        session.execute(update(Game).where(Game.id == game.id).values(alarm_at=now))
    _tell(session, game, pause, "resumed", seat)
    session.commit()
    return pause


def expired(pause: GamePause, now: datetime) -> bool:
    return pause.status == "asked" and now >= aware(pause.asked_at) + timedelta(hours=ASK_HOURS)


def expire(session: Session, game: Game, now: datetime) -> None:
    """Mark the game's ask expired if its time is over, and tell the players; commits."""
    pause = current(session, game.id)
    if pause is not None and expired(pause, now):
        pause.status = "expired"
        session.add(pause)
        _tell(session, game, pause, "expired", pause.asked_by)
        session.commit()


def expiry(session: Session, game_id: int) -> datetime | None:
    """When the game's pause ask expires, if one waits."""
    pause = current(session, game_id)
    if pause is None or pause.status != "asked":
        return None
    return aware(pause.asked_at) + timedelta(hours=ASK_HOURS)
