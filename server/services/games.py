"""The synchronous order service: create games, take orders, resolve simultaneous steps.

Every public function takes a Session and commits (or rolls back) its own transaction. A game's
`step` is the version of its current decision; every change of state bumps it with a
compare-and-set, so two writers can never both apply the same step.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Callable

import engine.core as engine
from engine.core import CHANCE, ActionError, IllegalAction, MalformedAction
from engine.core.messages import plain
from sqlalchemy import bindparam, or_, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from datetime import datetime, timedelta

from server import db
from server.models import Game, LogEntry, Order, OutboxMessage, Seat, utcnow
from server.raw_sql import Raw
from server.services import (absences, game_history, holds, live, outbox, quiet_hours, ratings,
                             reach)
from server.services.standing import Standing


class GameNotFound(LookupError):
    pass


class StaleStep(Exception):
    """The order answers a step that is no longer current; carries the current step and prompt."""

    def __init__(self, step: int, prompt: str | None):
        self.step = step
        self.prompt = prompt
        super().__init__(f"The game is at step {step}: {prompt}")


# Another seat's move may still be taken back: its orders are refused (services/holds.py).
HeldMove, held_move_reason = holds.HeldMove, holds.held_move_reason


@dataclass
class OrderResult:
    step: int  # the game's step after the order
    applied: list[str] = field(default_factory=list)  # canonical actions accepted (applied or sealed)
    sealed: bool = False  # stored sealed for a simultaneous step, not applied yet
    all_committed: bool = False  # simultaneous: every active seat has a pending order now
    stopped_at: int | None = None  # index of the first action not applied, if the order stopped
    reason: str | None = None  # why it stopped
    legal: list[str] = field(default_factory=list)  # what the seat may do instead
    state: object = field(default=None, repr=False)  # the engine state after the order
    retract_until: datetime | None = None  # the move may be taken back until then (issue 27)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --- engine helpers -----------------------------------------------------------------------
def _load(game: Game, copy: bool = True):
    """The game's engine state, for its rules: without its history, which only a view reads
    (``whole_state``; services/game_history.py). ``copy=False`` hands the loaded dict to the
    engine, which changes it as it plays: for an order that saves the state it produces (the
    game's ``state`` is then set to it, or the transaction rolls back and expires it)."""
    state = engine.from_dict(game.state, copy=copy)
    state.keeps_legal_actions = True  # the server changes a state only by applying actions
    return state


def whole_state(session: Session, game: Game, copy: bool = True):
    """The game's engine state with its whole history: what a view needs."""
    state = game_history.whole(session, game, copy=copy)
    state.keeps_legal_actions = True
    return state


def _forced(state, seat) -> bool:
    return len(state.legal_actions(seat)) == 1


def _advance(state, next_action: tuple[str, str] | None = None,
             standing: Standing | None = None) -> None:
    """Apply chance and forced decisions, and the seats' standing orders, until somebody has a
    real choice or the game ends.

    With ``next_action`` (seat, text) it stops as soon as that action is legal, so a multi-action
    order may name a forced action itself.
    """
    while True:
        active = state.active()
        if not active:
            return
        if next_action and next_action[0] in active and _is_legal(state, *next_action):
            return
        if active == [CHANCE]:
            state.apply(CHANCE, engine.sample_chance(state))
        elif all(_forced(state, seat) for seat in active):
            before = state.log_length()
            for seat in active:
                state.apply(seat, state.legal_actions(seat)[0])
            if standing is not None:
                standing.made(before, state.log_length())
        elif standing is not None and len(active) == 1 and (
                given := standing.answer(state, active[0])) is not None:
            before = state.log_length()
            state.apply(active[0], given)
            standing.made(before, state.log_length())
        else:
            return


def _is_legal(state, seat, text) -> bool:
    try:
        state.parse(seat, text)
    except ActionError:
        return False
    return True


def _simultaneous(active) -> bool:
    return len(active) > 1


def state_json(state) -> dict:
    """An engine state as plain JSON values (with its history, if it holds it)."""
    return json.loads(json.dumps(state.to_dict()))


# --- writing ------------------------------------------------------------------------------
def _write_progress(session: Session, game: Game, state, old_log_len: int, new_step: int,
                    actor: str | None = None, not_before: datetime | None = None) -> list[int]:
    """Add the new log rows, the sealed forced orders and the notifications of the new step;
    return the ids of the outbox rows asking the seats.

    The seat that just acted (``actor``) is not notified of its own next decision: the answer to
    its order already carries it, and every email costs a player a round trip.
    ``not_before``: a retractable move's hold (services/holds.py): the seats are asked then.
    """
    new = state.log_since(old_log_len)
    offset = game.log_offset or 0  # rows taken back (services/retract.py) keep their seq
    if new:  # one executemany, without the ORM's unit of work
        _LOG_INSERT.executemany(db.connection(session), [
            {"game_id": game.id, "seq": offset + seq, "seat": seat, "action": action,
             "is_chance": seat == CHANCE}
            for seq, (seat, action) in enumerate(new, old_log_len)])
    active = state.active()
    if not active:
        outbox.write(session, "game_over", {"game_id": game.id})
        ratings.write_request(session, game.id)
        return []
    asked = []
    for seat in active:
        if _simultaneous(active) and _forced(state, seat):
            # A forced choice in a simultaneous step is committed for the seat, not asked: on
            # the driver's cursor, as the order's own row (an ORM object here made the answer's
            # read of the sealed orders flush the session, a fiftieth of the orders' CPU in
            # bench/order_throughput.py, where one order in 36 leads to such a step).
            _insert_order(session, game.id, new_step, seat, state.legal_actions(seat)[:1],
                          "pending", utcnow())
        elif seat in (game.bots or {}):
            # A bot's seat is asked by a task (server/services/bots.py), its own next decision
            # too: nobody else will ask it.
            asked.append(outbox.write(session, "bot_move", {
                "game_id": game.id, "seat": seat, "step": new_step,
                "delay": game.bot_delay_seconds}, not_before))
        elif seat != actor or _simultaneous(active):
            asked.append(outbox.write(session, "your_decision", {
                "game_id": game.id, "seat": seat, "step": new_step}, not_before))
    return asked


def deadline_values(game: Game, now: datetime, quiet=()) -> dict:
    """The deadline of a decision asked ``now``, its first alarm (the first reminder, or the
    deadline itself) and no reminders sent yet; no deadline when the game has no time limit.
    ``quiet``: the quiet hours of the seats asked (quiet_hours.Window): a deadline or reminder
    inside them moves to their end. The decision's clock starts ``now`` (services/clock.py)."""
    if not game.decision_hours:
        return {"deadline_at": None, "alarm_at": None, "reminders_sent": 0,
                "clock_started_at": now, "clock_stopped_at": None}
    deadline = quiet_hours.later(now + timedelta(hours=game.decision_hours), quiet)
    return {"deadline_at": deadline, "alarm_at": next_alarm(game, deadline, 0, quiet),
            "reminders_sent": 0, "clock_started_at": now, "clock_stopped_at": None}


def reminder_times(game: Game, deadline: datetime, quiet=()) -> list[datetime]:
    """The moments of the game's reminders before ``deadline``, earliest first (each moved out
    of the ``quiet`` hours; never past the deadline)."""
    before = sorted({h for h in game.reminder_hours or [] if 0 < h < game.decision_hours},
                    reverse=True)
    return [min(quiet_hours.later(deadline - timedelta(hours=h), quiet), deadline)
            for h in before]


def next_alarm(game: Game, deadline: datetime, sent: int, quiet=()) -> datetime:
    """When the sweeper must next look at the game: reminder ``sent`` + 1, or the deadline."""
    times = reminder_times(game, deadline, quiet)
    return times[sent] if sent < len(times) else deadline


_GAME = Game.__table__
# Built once and run on the driver's cursor (server/raw_sql.py): every order runs them. The
# SET clause of the update is the values it is given. (Two comparisons rather than IN: an IN
# list is expanded at every execution.)
_COMPARE_AND_SET = Raw(_GAME.update().where(_GAME.c.id == bindparam("match_id"),
                                            _GAME.c.step == bindparam("match_step"),
                                            or_(_GAME.c.status == "open",
                                                _GAME.c.status == "active")))
_LOG_INSERT = Raw(LogEntry.__table__.insert())
_ORDER_INSERT = Raw(Order.__table__.insert())
_GAME_ROW = Raw(select(*_GAME.c).where(_GAME.c.id == bindparam("game_id")))


def _insert_order(session: Session, game_id: int, step: int, seat: str, actions: list,
                  status: str, now: datetime) -> None:
    """An order's row, written on the driver's cursor (no ORM object to flush later)."""
    _ORDER_INSERT.execute(db.connection(session), {
        "game_id": game_id, "step": step, "seat": seat, "actions": actions,
        "status": status, "created_at": now, "updated_at": now})


class GameRow:
    """A game's columns, read by one statement on the driver's cursor (``game_row``): what an
    order reads of its game, without the ORM building a Game and tracking it (measured, a
    twentieth of an API order's CPU, bench/order_throughput.py). It has a Game's attributes,
    and the order's compare-and-set keeps them up to date as it does a Game's; it belongs to
    no session."""

    __slots__ = tuple(_GAME.c.keys())

    def __init__(self, values: tuple):
        for name, value in zip(self.__slots__, values):
            setattr(self, name, value)


def game_row(session: Session, game_id: int) -> GameRow | None:
    """The game's row in the session's transaction, or None."""
    rows = _GAME_ROW.rows(db.connection(session), {"game_id": game_id})
    return GameRow(rows[0]) if rows else None


def _compare_and_set(session: Session, game: Game, step: int, state,
                     now: datetime | None = None, deadline: dict | None = None) -> int:
    """Save the state and bump the step iff it is still ``step``; raise StaleStep otherwise.
    Each new decision gets its deadline, counted from ``now`` (default: the clock's now), or
    ``deadline``: its deadline columns as given (a take back gives the decision back as it
    was: services/retract.py)."""
    # state.s is plain JSON data by the engine's contract: serialized once, by the column,
    # without its history (its new notes are written here, its new log entries by
    # _write_progress).
    now = now or utcnow()
    if deadline is None:
        asked = [s for s in state.active() if s != engine.CHANCE] if game.decision_hours else []
        deadline = deadline_values(game, now, quiet_hours.windows(session, game.id, asked))
    had = game.state
    values = {"step": step + 1, "state": game_history.trimmed(state.s), "status": "active",
              "updated_at": now, **deadline}
    if not state.active():
        outcome = state.outcome()
        values.update(status="finished", finished_at=now, deadline_at=None, alarm_at=None,
                      result=outcome.to_dict() if outcome else None)
    # A statement built once, not an ORM update: the session's Game is brought up to date
    # below, without another write or read.
    result = _COMPARE_AND_SET.execute(db.connection(session),
                                      {"match_id": game.id, "match_step": step, **values})
    if result.rowcount != 1:
        session.rollback()
        current = session.get(Game, game.id)
        raise StaleStep(current.step, _prompt(current, None))
    game_history.store_notes(session, game.id, state.s, had)
    live.changed(session, game.id, step + 1, values["status"])  # told the pages after the commit
    # Bring the session's Game (or the order's GameRow) up to date without another write or
    # read.
    keep = setattr if isinstance(game, GameRow) else set_committed_value
    for name in ("step", "state", "status", "result", "deadline_at", "alarm_at",
                 "reminders_sent", "clock_started_at", "clock_stopped_at"):
        if name in values:
            keep(game, name, values[name])
    return step + 1


def _prompt(game: Game, seat) -> str | None:
    return _load(game).prompt(seat) if game.state else None


def _get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


# --- public API ---------------------------------------------------------------------------
def create_game(session: Session, game_type: str, options: dict | None,
                seats: dict[str, int | None], seed: str | None = None,
                public: bool = False, created_by: int | None = None,
                timing: dict | None = None) -> Game:
    """Create and start a game whose seats are already known (operators and tests; players go
    through lobby.open_game / join_game / start_game). ``timing``: decision_hours,
    reminder_hours, on_deadline, checked by lobby.check_timing (default: the model's)."""
    seed = seed if seed is not None else secrets.token_hex(16)
    options = dict(options or {})
    names = engine.info(game_type).seats(options)
    if set(seats) != set(names):
        raise engine.OptionsError(f"The seats of {game_type} are {', '.join(names)}.")
    game = Game(game_type=game_type, options=options, status="open", step=0, seed=seed,
                seed_hash=sha256_hex(seed), public=public, created_by=created_by,
                **(timing or {}))
    try:
        session.add(game)
        session.flush()
        for name in names:
            session.add(Seat(game_id=game.id, seat=name, user_id=seats[name],
                             joined_at=utcnow() if seats[name] else None))
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return start(session, game)


def start(session: Session, game: Game) -> Game:
    """Start an open game: draw the opening chance, make forced choices, tell the first seats."""
    try:
        state = engine.new_game(game.game_type, seed=game.seed, options=dict(game.options))
        standing = Standing(session, game.id)
        _advance(state, standing=standing)
        new_step = _compare_and_set(session, game, game.step, state)
        standing.record(game.step)
        _write_progress(session, game, state, 0, new_step)
        session.add(OutboxMessage(kind="game_started", payload={"game_id": game.id}))
        session.commit()
    except BaseException:
        session.rollback()
        raise
    session.refresh(game)
    return game


def submit_order(session: Session, game_id: int, seat: str, step: int,
                 actions: list[str], *,
                 before_commit: Callable[[Session, OrderResult], None] | None = None,
                 then: Callable[[object, str], str | None] | None = None,
                 now: datetime | None = None, atomic: bool = False,
                 game: GameRow | None = None, by_player: bool = True) -> OrderResult:
    """Apply a sequential order now, or store a simultaneous one sealed until its step resolves.

    ``before_commit(session, result)`` runs in the order's transaction just before it commits
    (the API stores the idempotent answer there); if it raises, nothing is committed.
    ``then(state, seat)``: after the listed actions, while the seat is still the only one to
    decide (the rest of what it started: Campaigning after a card played for CP, an event's
    choices), the next action to apply for it, or None to stop (deadline defaults).
    ``now``: the moment of the order (the deadline sweeper's clock), default the clock's now.
    ``atomic``: a refused line refuses the whole order (a plan made on the web page is played
    whole or not at all); otherwise the lines before it stand and the result says where it
    stopped, as a mail reply's lines do.
    ``game``: the game as the caller read it in this transaction (``game_row``), not read
    again.
    ``by_player``: the seat's player gave it (by any channel), so a channel has reached them
    (services/reach.py), for the decision it leads to; False for the deadline sweeper's
    defaults and the bots.
    """
    try:
        return _submit(session, game_id, seat, step, list(actions), before_commit, then, now,
                       atomic, game, by_player)
    except StaleStep:
        session.rollback()
        if by_player:  # a move held since this order read the game: refused as held
            holds.refuse_if_held(session, session.get(Game, game_id), seat)
        raise
    except BaseException:
        session.rollback()
        raise


# How many actions ``then`` may add to one order: more than any card's choices need.
MAX_CONTINUED = 300


# The texts of two refusals that callers read back (server/web/board.py points a refused plan
# at the field its line came from): an atomic order refused whole at its line ``n``, and an
# order whose next line came after the game had moved on.
# (Written as ``plain`` calls so that the game catalogue's extraction finds them.)
WHOLE_REFUSED = plain("Line {n} of your order, {action}, was refused, so none of it was "
                      "played: {reason}").template
STOPS_HERE = plain("The order stops here: the game moved on to another decision. "
                   "{prompt}").template


def _whole_refused(i: int, text: str, reason):
    """Why an atomic order (a plan made on the web page) was refused whole at its line ``i``."""
    return plain(WHOLE_REFUSED, n=i + 1, action=text, reason=reason)


def _submit(session, game_id, seat, step, actions, before_commit=None,
            then=None, now=None, atomic=False, game=None, by_player=True) -> OrderResult:
    game = game if game is not None else _get_game(session, game_id)
    if game.status != "active":
        raise IllegalAction(plain("The game is over.") if game.status == "finished"
                            else plain("The game has not started yet."))
    if by_player:
        # Another seat's move that may still be taken back: nothing of this order is read
        # (its step and actions would answer a decision the seat was never shown).
        holds.refuse_if_held(session, game, seat, now)
    if step != game.step:
        raise StaleStep(game.step, _prompt(game, seat))
    if not actions:
        raise MalformedAction(plain("An order needs at least one action."))
    state = _load(game, copy=False)
    active = state.active()
    if _simultaneous(active) and seat in active:
        return _seal(session, game, state, seat, actions, before_commit, by_player)
    if active != [seat]:
        state.parse(seat, actions[0])  # raises the engine's own "not your decision" reason
        raise IllegalAction(state.msg("It is not {seat}'s decision now.", seat=seat))
    old_len = state.log_length()
    result = OrderResult(step=step)
    standing = Standing(session, game.id)
    for i, text in enumerate(actions):
        if i:
            _advance(state, (seat, text), standing)
            if state.active() != [seat]:
                reason = plain(STOPS_HERE, prompt=state.prompt(seat)
                               if state.active() else plain("The game is over."))
                if atomic:
                    raise IllegalAction(_whole_refused(i, text, reason))
                result.stopped_at, result.legal, result.reason = i, [], reason
                break
        try:
            result.applied.append(str(state.apply(seat, text)))
        except ActionError as exc:
            if i == 0:
                raise
            if atomic:
                raise type(exc)(_whole_refused(i, text, exc.reason), exc.legal) from exc
            result.stopped_at, result.reason, result.legal = i, exc.reason, exc.legal
            break
    if then is not None and result.stopped_at is None:
        for _ in range(MAX_CONTINUED):
            _advance(state, standing=standing)
            text = then(state, seat) if state.active() == [seat] else None
            if text is None:
                break
            result.applied.append(str(state.apply(seat, text)))
    _advance(state, standing=standing)
    # A caller that read the game in a read-only transaction (db.reading: the API's orders)
    # has applied the rules without holding a lock; the writes take it now.
    db.end_reading(session)
    # The compare-and-set comes first: it takes the game's row lock (or raises StaleStep), so
    # of two racing orders for this step only the winner inserts its order row (inserted
    # first, the loser's row would fail on the unique (game, step, seat) with IntegrityError).
    before = holds.clock_of(game)  # the seat's decision's deadline, kept if the move is held
    result.step = _compare_and_set(session, game, step, state, now)
    now = utcnow()
    # A move that may be taken back holds the next seat's mails and webhooks (issue 27): the
    # engine judges the order's own log segment; the mover's hold is read only then.
    # The other seat's forced choices and standing orders' answers made within the move are
    # undone with it and made again after (issue 46): they do not make it final.
    hold = holds.until(session, game, state, seat, old_len, now,
                       standing.automatic_since(old_len)) if by_player else None
    _insert_order(session, game.id, step, seat, result.applied, "applied", now)
    standing.record(step)
    if by_player:   # an order of the player's own: no deadline missed, no absence (issue 46)
        absences.acted(session, game, seat)
    if by_player and seat in state.active():
        # Only a seat asked again at the step its order leads to is waited for there
        # (reach.waiting looks at the deciding seats): a reach at a step where the seat
        # decides nothing would never be read, so it is not written.
        reach.record(db.connection(session), game.id, seat, result.step, "order", now)
    held = _write_progress(session, game, state, old_len, result.step, actor=seat,
                           not_before=hold)
    if hold is not None:
        holds.remember(session, game.id, step, seat, state.active()[0], old_len, hold, held,
                       before)
        result.retract_until = hold
    result.state = state
    if before_commit is not None:
        before_commit(session, result)
    session.commit()
    return result


def _seal(session, game, state, seat, actions, before_commit=None,
          by_player=True) -> OrderResult:
    if len(actions) != 1:
        raise MalformedAction(plain("A simultaneous step takes exactly one action from each "
                                    "seat."))
    canonical = str(state.parse(seat, actions[0]))
    db.end_reading(session)
    # Touch the game row on its step first: it takes the row lock (PostgreSQL; SQLite's write
    # lock is taken at BEGIN), so sealing and resolving one step are serialized, and an order
    # for a step that has just resolved is refused rather than lost.
    touched = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                                 Game.status == "active")
                              .values(updated_at=utcnow())
                              .execution_options(synchronize_session=False))
    if touched.rowcount != 1:
        session.rollback()
        current = session.get(Game, game.id)
        raise StaleStep(current.step, _prompt(current, seat))
    order = session.exec(select(Order).where(Order.game_id == game.id, Order.step == game.step,
                                             Order.seat == seat)).first()
    resealed = order is not None     # a seat changing its sealed order
    if order is None:
        order = Order(game_id=game.id, step=game.step, seat=seat)
    elif order.status != "pending":
        raise StaleStep(game.step, state.prompt(seat))
    order.actions, order.status, order.updated_at = [canonical], "pending", utcnow()
    session.add(order)
    session.flush()
    if by_player:
        reach.record(db.connection(session), game.id, seat, game.step, "order",
                     order.updated_at)
        absences.acted(session, game, seat)
    committed = pending_seats(session, game.id, game.step)
    all_committed = set(state.active()) <= committed
    if all_committed and not resealed:
        # The resolution is a follow-up task: written in this transaction, published after it;
        # once, by the seat that completes the step (a re-sealed order finds it asked for, and
        # the resolve sweep asks again for a step left unresolved).
        outbox.write(session, "resolve_step", {"game_id": game.id, "step": game.step})
    result = OrderResult(step=game.step, sealed=True, all_committed=all_committed,
                         applied=[canonical], state=state)
    if before_commit is not None:
        before_commit(session, result)
    session.commit()
    return result


def pending_seats(session, game_id, step) -> set[str]:
    """The seats that have sealed an order at the step."""
    return {seat for seat, in _SEALED_SEATS.rows(db.connection(_flushed(session)),
                                                 {"game_id": game_id, "step": step})}


def resolve_step(session: Session, game_id: int, step: int,
                 message_id: int | None = None) -> bool:
    """Apply the sealed orders of a simultaneous step exactly once; False if nothing to do.

    ``message_id``, the outbox row that asked for it, is marked consumed either way: in the
    resolution's transaction, or on its own when there is nothing (left) to resolve.
    """
    try:
        resolved = _resolve(session, game_id, step, message_id)
    except BaseException:
        session.rollback()
        raise
    if not resolved and message_id is not None:
        outbox.mark_delivered(session, message_id)
        session.commit()
    return resolved


def _resolve(session: Session, game_id: int, step: int, message_id: int | None) -> bool:
    try:
        # Lock the game row before reading the orders (SELECT ... FOR UPDATE on PostgreSQL;
        # SQLite's write lock is taken at BEGIN): a seat replacing its sealed order meanwhile
        # waits, then finds the step resolved (StaleStep). Without it, an order accepted after
        # this read would be reported sealed and never applied.
        game = session.exec(select(Game).where(Game.id == game_id).with_for_update()
                            .execution_options(populate_existing=True)).first()
        if game is None:
            raise GameNotFound(game_id)
        if game.step != step or game.status != "active":
            session.rollback()
            return False
        state = _load(game, copy=False)
        active = state.active()
        orders = {o.seat: o for o in session.exec(
            select(Order).where(Order.game_id == game_id, Order.step == step,
                                Order.status == "pending")).all()}
        if not _simultaneous(active) or not set(active) <= set(orders):
            session.rollback()
            return False
        old_len = state.log_length()
        for seat in active:
            state.apply(seat, orders[seat].actions[0])
        standing = Standing(session, game.id)
        _advance(state, standing=standing)
        try:
            new_step = _compare_and_set(session, game, step, state)
        except StaleStep:
            return False
        standing.record(step)
        outbox.write(session, "step_resolved", {"game_id": game_id, "step": step})
        for order in orders.values():
            order.status, order.updated_at = "applied", utcnow()
            session.add(order)
        _write_progress(session, game, state, old_len, new_step)
        outbox.mark_delivered(session, message_id)
        session.commit()
        return True
    except BaseException:
        session.rollback()
        raise


def log_of(session: Session, game_id: int) -> list[LogEntry]:
    """The game's log in play: entries taken back, and those recording it, left out."""
    return list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id,
                                                    LogEntry.retraction.is_(None))
                             .order_by(LogEntry.seq)).all())


def rebuild(session: Session, game_id: int) -> bool:
    """Replay the stored log from the seed and say whether it gives exactly the cached state
    and notes."""
    game = _get_game(session, game_id)
    log = game_history.log_in_play(session, game_id)
    replayed = state_json(engine.replay(game.game_type, game.seed, log, options=game.options))
    return (engine.history.split(replayed)[0] == game.state
            and replayed["notes"] == game_history.notes(session, game_id))


def view_for(session: Session, game_id: int, seat: str | None) -> dict:
    """The game as ``seat`` may see it (None: a spectator), from the cached state."""
    return seat_view(session, _get_game(session, game_id), seat)


def seat_view(session: Session, game: Game, seat: str | None, state=None) -> dict:
    """The seat's view (``state``: the game's, when the caller has it loaded), with the one
    fact only the server knows: how many seats have sealed their order of a simultaneous step,
    in a view that counts them (Mr. President's "2 of 3 have chosen"; never which). The
    engine learns the sealed orders only when the step resolves."""
    if state is None or engine.history.is_trimmed(state.s):
        state = whole_state(session, game)
    view = state.view(seat)
    if isinstance(view.get("committed"), int) and _simultaneous(state.active()):
        view = {**view, "committed": len(pending_seats(session, game.id, game.step))}
    return view


# --- what a seat may see -------------------------------------------------------------------
_ORDER = Order.__table__
# Run on every decision shown in a simultaneous step (the order's answer, pages, mails): by a
# prebuilt statement on the driver's cursor (server/raw_sql.py), not an ORM query.
_SEALED_ACTIONS = Raw(select(_ORDER.c.actions).where(
    _ORDER.c.game_id == bindparam("game_id"), _ORDER.c.step == bindparam("step"),
    _ORDER.c.seat == bindparam("seat"), _ORDER.c.status == "pending"))
_SEALED_SEATS = Raw(select(_ORDER.c.seat).where(
    _ORDER.c.game_id == bindparam("game_id"), _ORDER.c.step == bindparam("step"),
    _ORDER.c.status == "pending"))


def _flushed(session: Session) -> Session:
    """The session with its unwritten changes written, as an ORM query's autoflush would
    (a Raw statement sees only what the connection has)."""
    if session.autoflush and (session.new or session.dirty or session.deleted):
        session.flush()
    return session


def sealed_actions(session: Session, game_id: int, step: int, seat: str) -> list[str] | None:
    """The seat's sealed order at the step (its actions), or None when it has not committed."""
    rows = _SEALED_ACTIONS.rows(db.connection(_flushed(session)),
                                {"game_id": game_id, "step": step, "seat": seat})
    return list(rows[0][0]) if rows else None


def decision_for(session: Session, game: Game, seat: str, state=None) -> dict:
    """The seat's current decision: what is asked, the legal actions, the step it answers.

    In a simultaneous step the seat's own sealed order is shown back to it (and only to it);
    the other seats' orders are never mentioned beyond how many seats have committed.
    """
    if game.status != "active":
        return {"step": game.step, "active": False, "prompt": None, "legal_actions": [],
                "simultaneous": False, "your_order": None, "committed": 0, "waiting_for": []}
    state = state if state is not None else _load(game)
    active = state.active()
    mine = seat in active
    simultaneous = _simultaneous(active)
    # Only a simultaneous step has sealed orders to show.
    order = sealed_actions(session, game.id, game.step, seat) if mine and simultaneous else None
    committed = len(pending_seats(session, game.id, game.step)) if simultaneous else 0
    return {
        "step": game.step,
        "active": mine and order is None,
        "prompt": state.prompt(seat) if mine else None,
        "legal_actions": [str(a) for a in state.legal_actions(seat)] if mine else [],
        "simultaneous": simultaneous,
        "your_order": order,
        "committed": committed,
        "waiting_for": [] if _simultaneous(active) else list(active),
    }


def your_move(session: Session, game: Game, seat: str, state=None) -> bool:
    """Whether the seat is asked something now (and has not yet sealed its order).
    ``state``: the game's state, when the caller has it loaded already."""
    if game.status != "active" or not game.state:
        return False
    active = (state or _load(game)).active()
    if seat not in active:
        return False
    return not (_simultaneous(active) and sealed_actions(session, game.id, game.step, seat))


def log_for(session: Session, game: Game, seat: str | None) -> list[dict]:
    """The log as the seat may see it: redacted during play, the full record after the end."""
    if game.status == "finished":
        return [{"seq": r.seq, "seat": r.seat, "action": r.action, "chance": r.is_chance}
                for r in log_of(session, game.id)]
    if not game.state:
        return []
    view = whole_state(session, game).view(seat)
    return [{"seq": i, "seat": entry[0], "action": entry[1], "chance": entry[0] == CHANCE}
            for i, entry in enumerate(view.get("log", []))]
