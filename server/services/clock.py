"""A decision's clock: stopped while the game is paused (services/pauses.py) or while a player
who owes the decision is on vacation (services/vacations.py); the deadline moves by the time it
was stopped.

Exactly: the stopped time of a decision is the length of the union of the game's pauses and the
vacations of the players of the seats owing it, within the time from ``Game.clock_started_at``
(the decision's opening, or the last move of its deadline) to now. The sweep (deadlines.ring)
asks ``check`` before it sends a reminder or acts on a deadline:

- while a stop is in force, nothing fires: the clock is marked stopped (``clock_stopped_at``:
  the later of the stop's start and the clock's start) and the next alarm is the stop's end (a
  vacation's end; none for a pause: its resumption moves the deadline at once);
- once no stop is in force, a deadline that had stopped time is moved by it (into the quiet
  hours' end if it falls inside the owing players' quiet hours), its reminders with it (those
  already sent are not sent again), and the clock counts again from now;
- an alarm rung early (set at a vacation's start, or for a pause ask's expiry) just finds the
  next one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, select

import engine.core as game_engine
from server.models import Game, GamePause, Order, Seat, Vacation, aware
from server.services import games, quiet_hours

Interval = tuple[datetime, "datetime | None"]  # (start, end); end None: not over yet


def owing(session: Session, game: Game, state) -> list[str]:
    """The seats asked something now that have not answered (sealed) yet."""
    active = [s for s in state.active() if s != game_engine.CHANCE]
    if len(active) <= 1:
        return active
    sealed = set(session.exec(select(Order.seat).where(Order.game_id == game.id,
                                                       Order.step == game.step,
                                                       Order.status == "pending")).all())
    return [s for s in active if s not in sealed]


def owing_now(session: Session, game: Game) -> list[str]:
    """``owing`` of the game's stored state (none when it has none)."""
    return owing(session, game, game_engine.from_dict(game.state)) if game.state else []


def stops(session: Session, game: Game, seats: list[str]) -> list[Interval]:
    """The pauses of the game and the vacations of the players of ``seats`` (any time)."""
    found: list[Interval] = [(aware(p.started_at), aware(p.resumed_at)) for p in session.exec(
        select(GamePause).where(GamePause.game_id == game.id,
                                GamePause.started_at.is_not(None))).all()]
    if seats:
        found += [(aware(v.starts_at), aware(v.ends_at)) for v in session.exec(
            select(Vacation).join(Seat, Seat.user_id == Vacation.user_id)
            .where(Seat.game_id == game.id, Seat.seat.in_(seats))).all()]
    return found


def stopped_time(intervals: list[Interval], start: datetime, end: datetime) -> timedelta:
    """The length of the union of ``intervals`` within [start, end]."""
    clipped = sorted((max(s, start), min(e or end, end)) for s, e in intervals)
    total, reach_ = timedelta(0), start
    for s, e in clipped:
        s = max(s, reach_)
        if e > s:
            total += e - s
            reach_ = e
    return total


def in_force(intervals: list[Interval], now: datetime) -> list[Interval]:
    return [(s, e) for s, e in intervals if s <= now and (e is None or e > now)]


def moved(game: Game, seats_quiet, stopped: timedelta, now: datetime) -> dict:
    """The game's deadline columns with the deadline moved by ``stopped``."""
    deadline = quiet_hours.later(aware(game.deadline_at) + stopped, seats_quiet)
    return {"deadline_at": deadline, "clock_started_at": now, "clock_stopped_at": None,
            "alarm_at": games.next_alarm(game, deadline, game.reminders_sent, seats_quiet)}


def _save(session: Session, game: Game, values: dict) -> bool:
    done = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                              Game.reminders_sent == game.reminders_sent)
                           .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        session.rollback()
        return False
    for name, value in values.items():
        setattr(game, name, value)
    return True


def check(session: Session, game: Game, seats: list[str], now: datetime,
          wake: datetime | None = None) -> str | None:
    """What the clock says at the game's alarm: "stopped" (a stop in force: nothing fires),
    "moved" (the deadline moved by the stopped time), "none" (the alarm was early, or the game
    has no deadline), or None: the clock ran, the sweep goes on. ``wake``: a later moment the
    sweep must look at the game too (a pause ask's expiry). Commits what it changes."""
    deadline = aware(game.deadline_at)
    if deadline is None:  # no time limit (an alarm was set for a pause ask's expiry)
        _save(session, game, {"alarm_at": None}) and _commit(session)
        return "none"
    intervals = stops(session, game, seats)
    current = in_force(intervals, now)
    if current:
        start = max(min(s for s, _ in current), aware(game.clock_started_at) or now)
        until = None if any(e is None for _, e in current) else max(e for _, e in current)
        values = {"alarm_at": until}
        if game.clock_stopped_at is None:
            values["clock_stopped_at"] = start
        _save(session, game, values) and _commit(session)
        return "stopped"
    quiet = quiet_hours.windows(session, game.id, seats)
    started = aware(game.clock_started_at) or aware(game.updated_at)
    stopped = stopped_time(intervals, started, now) if started else timedelta(0)
    if stopped > timedelta(0):
        _save(session, game, moved(game, quiet, stopped, now)) and _commit(session)
        return "moved"
    expected = games.next_alarm(game, deadline, game.reminders_sent, quiet)
    if now < expected:
        alarm = min(expected, wake) if wake is not None and wake > now else expected
        _save(session, game, {"alarm_at": alarm}) and _commit(session)
        return "none"
    return None


def catch_up(session: Session, game: Game, seats: list[str], now: datetime) -> bool:
    """Move the deadline now by the time its clock was stopped, when no stop is in force (a
    pause resumed, a vacation ended early); no commit. Whether it moved."""
    if game.deadline_at is None or game.status != "active":
        return False
    intervals = stops(session, game, seats)
    if in_force(intervals, now):
        return False
    started = aware(game.clock_started_at) or aware(game.updated_at)
    stopped = stopped_time(intervals, started, now)
    if stopped <= timedelta(0):
        return False
    return _save(session, game, moved(game, quiet_hours.windows(session, game.id, seats),
                                      stopped, now))


def _commit(session: Session) -> bool:
    session.commit()
    return True
