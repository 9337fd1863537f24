"""Deadlines: reminders before a decision's time runs out, and what happens when it does.

Each decision gets ``Game.deadline_at`` when it is asked (games._compare_and_set: the game's
``decision_hours`` from then; none when 0). ``Game.alarm_at`` is the next moment something is
due: the next reminder (``reminder_hours`` before the deadline, each one once) or the deadline.
One beat task (workers/tasks.sweep_deadlines) asks ``due()`` for the games whose alarm has come
and ``ring()``s each: no Celery countdowns, nothing lost when a worker restarts, and the clock
is a parameter, so tests control it.

When the deadline passes, every seat still owing an order (in a simultaneous step, the seats
that have not committed) gets, in the game's own transaction:
- with ``on_deadline`` "forfeit": the game ends and the seat loses (every seat that missed it;
  when all did, nobody wins);
- otherwise its own filed default order (the first of its lines legal now; used once), else the
  safe default of the engine (``default_action``: decline to trigger, pass, done, the lowest
  legal card for campaign points...). What the seat started goes on the same way (Campaigning
  after the card, an event's choices) until the decision is the opponent's or a new Activity
  Phase play: a player who is away loses one play per missed deadline, not the game.
The seat gets a "deadline passed" mail saying what was done for it, and an AutoOrder records it.

Unless no channel has reached a seat's player since the decision opened (services/reach.py: no
mail about it accepted by the SMTP server, no webhook post about it answered 2xx, no view of the
game page, no order): then nobody is defaulted nor forfeited. The deadline waits ("waiting"):
the sweeper looks again every ``reach.RECHECK`` (and as soon as a reach comes), and the other
seats are told once, by a "not_reached" mail and on the game page. Once every seat it waited for
is reached, the deadline is ``reach.grace`` (the game's time for a decision, at most 24 hours)
after the last of their first reaches, if that is later than the deadline as it was set
("extended"); then it applies as any deadline. A player who was reached before the deadline
gets no more time: the mails did their work. A bot's seat, or one nobody holds, is always
reached.

Issue 27: before it reminds or acts on a deadline, a ring expires a pause ask past its day
(services/pauses.py) and asks the decision's clock (services/clock.py): while the game is paused
or a player owing the decision is on vacation nothing fires ("stopped"); once no stop is in
force, a deadline that had stopped time is moved by it ("moved"). An extension still asked when
the deadline comes expires (services/extensions.py). Reminders and moved deadlines keep out of
the owing players' quiet hours (services/quiet_hours.py).

Every ring is idempotent: it acts only while the game is at the step it read (compare-and-set)
and the alarm is still due.
"""

from __future__ import annotations

from datetime import datetime

import engine.core as game_engine
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server.models import AutoOrder, Game, OutboxMessage, Seat, aware, utcnow
from server.services import (absences, clock, extensions, games, lobby, pauses, quiet_hours,
                             reach, standing)
from server.services.games import StaleStep

# A deadline's default goes on through what the seat started, but a new play is a new decision.
NEW_DECISIONS = ("activity",)


def due(session: Session, now: datetime, limit: int = 500) -> list[int]:
    """The games whose next reminder or deadline has come, the longest due first."""
    return list(session.exec(select(Game.id).where(Game.status == "active",
                                                   Game.alarm_at.is_not(None),
                                                   Game.alarm_at <= now)
                             .order_by(Game.alarm_at).limit(limit)).all())


owing = clock.owing  # the seats asked something now that have not answered (sealed) yet


def ring(engine: Engine, game_id: int, now: datetime) -> str:
    """Do what the game's alarm calls for at ``now``: "reminded", "defaulted", "forfeited",
    "stopped" / "moved" (the clock, issue 27),
    "waiting" (a seat owing an order is not reached: the deadline waits), "extended" (the
    deadline, after a wait, is later now), "idle" (nobody owes an order: the step's resolution
    is under way) or "none" (not due)."""
    with Session(engine) as session:
        game = session.get(Game, game_id)
        if (game is None or game.status != "active" or game.alarm_at is None
                or aware(game.alarm_at) > now or not game.state):
            return "none"
        state = game_engine.from_dict(game.state)
        seats = owing(session, game, state)
        deadline = aware(game.deadline_at)
        step = game.step
        if not seats:
            if _set_alarm(session, game, None, game.reminders_sent):
                session.commit()
            return "idle"
        # Issue 27: a pause ask past its time, a stopped clock, a deadline moved by it, an
        # extension asked and unanswered at the deadline.
        pauses.expire(session, game, now)
        held = clock.check(session, game, seats, now, pauses.expiry(session, game.id))
        if held is not None:
            return held
        if extensions.expire(session, game, now):
            session.commit()
        deadline = aware(game.deadline_at)
        quiet = quiet_hours.windows(session, game.id, seats)
        if deadline is not None and now < deadline:
            return _remind(session, game, seats, deadline, now, quiet)
        rows = reach.seats(session, game.id, seats)
        unreached = [s for s in seats if not reach.reached(game, rows.get(s))]
        if unreached:
            return _wait(session, game, unreached, now)
        later = reach.after_wait(game, [r for r in rows.values() if r.waited_step == step])
        if later is not None and deadline is not None and now < later and deadline < later:
            return _extend(session, game, quiet_hours.later(later, quiet), now, quiet)
        forfeit = game.on_deadline == "forfeit"
    if forfeit:
        return _forfeit(engine, game_id, step, seats)
    for seat in seats:
        _default(engine, game_id, step, seat, now)
    return "defaulted"


def _set_alarm(session: Session, game: Game, alarm: datetime | None, sent: int) -> bool:
    done = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                              Game.reminders_sent == game.reminders_sent)
                           .values(alarm_at=alarm, reminders_sent=sent)
                           .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        session.rollback()
        return False
    return True


def _wait(session: Session, game: Game, unreached: list[str], now: datetime) -> str:
    """The deadline waits for the seats no channel has reached: look again later, and tell the
    other seats, once per seat and decision, that it waits (a "not_reached" mail)."""
    if not _set_alarm(session, game, now + reach.RECHECK, game.reminders_sent):
        return "none"
    for seat in unreached:
        told = session.execute(update(Seat).where(
            Seat.game_id == game.id, Seat.seat == seat,
            (Seat.waited_step.is_(None)) | (Seat.waited_step != game.step))
            .values(waited_step=game.step).execution_options(synchronize_session=False))
        if told.rowcount == 1:
            session.add(OutboxMessage(kind="not_reached", payload={
                "game_id": game.id, "seat": seat, "step": game.step}))
    session.commit()
    return "waiting"


def _extend(session: Session, game: Game, later: datetime, now: datetime, quiet=()) -> str:
    """Every seat the deadline waited for is reached: the deadline is ``later`` (reminders
    whose time has passed are not sent)."""
    times = games.reminder_times(game, later, quiet)
    sent = sum(1 for t in times if t <= now)
    done = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                              Game.reminders_sent == game.reminders_sent)
                           .values(deadline_at=later, reminders_sent=sent,
                                   alarm_at=games.next_alarm(game, later, sent, quiet))
                           .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        session.rollback()
        return "none"
    session.commit()
    return "extended"


def _remind(session: Session, game: Game, seats: list[str], deadline: datetime,
            now: datetime, quiet=()) -> str:
    """Send the reminder due (one, even if the sweeper was away through several)."""
    times = games.reminder_times(game, deadline, quiet)
    sent = max(game.reminders_sent + 1, sum(1 for t in times if t <= now))
    if not _set_alarm(session, game, games.next_alarm(game, deadline, sent, quiet), sent):
        return "none"
    for seat in seats:
        session.add(OutboxMessage(kind="reminder", payload={
            "game_id": game.id, "seat": seat, "step": game.step, "number": sent,
            "of": len(times)}))
    session.commit()
    return "reminded"


def _default(engine: Engine, game_id: int, step: int, seat: str, now: datetime) -> None:
    """Apply the seat's filed default order, else the safe default, for the step."""
    with Session(engine) as session:
        game = session.get(Game, game_id)
        if game is None or game.step != step:
            return
        state = game_engine.from_dict(game.state)
        lines = standing.filed_lines(session, game_id, seat)
        first = _first_legal(state, seat, lines)
        source = "filed" if first is not None else "default"
        action = first if first is not None else state.default_action(seat)
        rest = list(lines[lines.index(first) + 1:]) if first is not None else []
        simultaneous = len(state.active()) > 1

        def then(state, seat):
            if state.asks(seat)["step"] in NEW_DECISIONS:
                return None
            line = _first_legal(state, seat, rest)
            if line is not None:
                del rest[:rest.index(line) + 1]
                return line
            return state.default_action(seat)

        def before_commit(session, result):
            if source == "filed":
                standing.use_default(session, game_id, seat)
            session.add(AutoOrder(game_id=game_id, seat=seat, step=step,
                                  actions=list(result.applied), source=source, rule=source,
                                  mailed_at=utcnow()))  # the deadline mail says it
            session.add(OutboxMessage(kind="deadline_passed", payload={
                "game_id": game_id, "seat": seat, "step": step,
                "actions": list(result.applied), "source": source, "rule": source}))
            absences.missed(session, game, seat, now)  # a player gone silent (issue 46)

        try:
            games.submit_order(session, game_id, seat, step, [action],
                               before_commit=before_commit,
                               then=None if simultaneous else then, now=now,
                               by_player=False)
        except StaleStep:
            return  # the seat (or another ring) acted meanwhile


def _first_legal(state, seat: str, lines: list[str]) -> str | None:
    for line in lines:
        try:
            state.parse(seat, line)
            return line
        except game_engine.ActionError:
            continue
    return None


def _forfeit(engine: Engine, game_id: int, step: int, seats: list[str]) -> str:
    def before_commit(session, game):
        for seat in seats:
            session.add(AutoOrder(game_id=game_id, seat=seat, step=step, actions=[],
                                  source="forfeit", rule="forfeit", mailed_at=utcnow()))
            session.add(OutboxMessage(kind="deadline_passed", payload={
                "game_id": game_id, "seat": seat, "step": step, "actions": [],
                "source": "forfeit", "rule": "forfeit"}))

    with Session(engine) as session:
        try:
            lobby.resign(session, game_id, seats[0], step=step, forfeit=True, losers=seats,
                         before_commit=before_commit)
        except lobby.LobbyError:
            return "none"
    return "forfeited"
