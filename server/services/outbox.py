"""The outbox: follow-ups written in the same transaction as a state change, then sent.

Every row is published right after its transaction commits, in one place for every writer (a
request, a task, the mail server, the command line): the session's commit hook below sends
exactly the rows that transaction wrote, with no read and no write of the database - just the
broker sends, by the tasks' names through the Celery app (workers/celery_app.py; the tasks
themselves, workers/tasks.py, are never imported here). A row is done when its task has
*consumed* it (``delivered_at``, set by the task in its own transaction), not when it was sent:
the relay (beat, ``publish_pending``) sends again every row not consumed ``redeliver_after``
seconds after it was written or last sent, and at once a row whose send failed
(``last_error``). So a crash between the commit and the send, a broker outage, and a message
the broker lost after taking it (a Redis without persistence that restarts) all end the same
way: the relay sends the row again. Tasks are idempotent, so a row sent twice does no harm.

A "table_talk" row (server/services/chat.py) carries the moment it may be sent
(``not_before``): its task is published with the countdown left, and a run before then leaves
the row unconsumed, so the relay's resending only brings it back.

The resolution of a committed simultaneous step is also covered from the games' side: the sweep
(``republish_unresolved``) sends resolve_step for every step whose seats have all committed and
that is still unresolved after a while, whatever the outbox says.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Callable, NamedTuple

import engine.core as game_engine
from flask import has_request_context
from sqlalchemy import bindparam, event, func, or_, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, select

from server import db
from server.light_session import TransactionHooks, on_transaction_end
from server.mail import kinds
from server.models import ORDER_UNAPPLIED, Game, Order, OutboxMessage, utcnow
from server.raw_sql import Raw
from server.services import task_messages
from workers.celery_app import celery

log = logging.getLogger("whistlestop.outbox")

# How long a sent row may go unconsumed before the relay sends it again (the default; the
# setting is OUTBOX_REDELIVER_SECONDS).
REDELIVER_AFTER = 60.0


class Written(NamedTuple):
    """What it takes to send a row: no database read needed."""
    id: int
    kind: str
    payload: dict
    not_before: object = None  # a held row (issue 27): the relay sends it when due

    @classmethod
    def of(cls, row: OutboxMessage) -> "Written":
        return cls(row.id, row.kind, dict(row.payload), row.not_before)


# --- rows written by a transaction, sent when it has committed --------------------------------
# Flushed rows wait in the session until its commit (a rollback forgets them); once the
# transaction has ended, its connection back in the pool, they are sent. Sending then, with no
# transaction of this session open, lets a task run inline (Celery's eager mode) write in turn.
# The hooks are every session's from this module's import on (the order service imports it, so
# the web app, the workers and the mail server have them); a row committed where they are not
# loaded waits for the relay.
_FLUSHED = "whistlestop.outbox.flushed"
_COMMITTED = "whistlestop.outbox.committed"


@event.listens_for(OrmSession, "after_flush")
def _collect_flushed(session, _flush_context) -> None:
    rows = [Written.of(obj) for obj in session.new if isinstance(obj, OutboxMessage)]
    if rows:
        session.info.setdefault(_FLUSHED, []).extend(rows)


def _committed(info: dict) -> None:
    rows = info.pop(_FLUSHED, None)
    if rows:
        info.setdefault(_COMMITTED, []).extend(rows)


def _rolled_back(info: dict) -> None:
    info.pop(_FLUSHED, None)


def _ended(info: dict, bind: Callable[[], Engine]) -> None:
    if _COMMITTED in info:
        # A held row (``not_before``: a retractable move's hold, issue 27) is not sent now:
        # the relay sends it once due, unless a retraction withdrew it meanwhile.
        rows = [r for r in info.pop(_COMMITTED) if r.not_before is None]
        if rows:
            send(bind(), rows)


on_transaction_end(TransactionHooks(_committed, _rolled_back, _ended))


# Built once and run on the driver's cursor (server/raw_sql.py): most orders write a row.
_OUTBOX_INSERT = Raw(OutboxMessage.__table__.insert(), returning_id=True)


def write(session: Session, kind: str, payload: dict, not_before=None) -> int:
    """Add an outbox row in the session's transaction with one INSERT (no unit of work, no
    SQLAlchemy execution) and return its id; it is sent once the transaction commits, like a
    row added with ``session.add``, or with ``not_before`` by the relay once that moment has
    come (a retractable move's hold, issue 27)."""
    values = {"kind": kind, "payload": payload, "created_at": utcnow(), "attempts": 0}
    if not_before is not None:
        values["not_before"] = not_before
    row_id = _OUTBOX_INSERT.insert_id(db.connection(session), values)
    session.info.setdefault(_FLUSHED, []).append(Written(row_id, kind, dict(payload),
                                                         not_before))
    return row_id


# --- sending ---------------------------------------------------------------------------------
# The tasks by name (workers/tasks.py): (task name, arguments, sending options) of a row.
def _task_for(row: Written) -> tuple[str, tuple, dict]:
    if row.kind == "resolve_step":
        return "whistlestop.resolve_step", (row.payload["game_id"], row.payload["step"],
                                            row.id), {}
    if row.kind == "reply":
        return "whistlestop.handle_reply", (row.payload["inbound_id"], row.id), {}
    if row.kind == "rate_game":
        return "whistlestop.rate_game", (row.payload["game_id"], row.id), {}
    if row.kind == "bot_move":
        p = row.payload
        return "whistlestop.bot_move", (p["game_id"], p["seat"], p["step"], row.id), \
            {"countdown": p.get("delay") or None}
    if row.kind == "table_talk":  # issue 27: a chat mail waits for more lines (services/chat.py)
        return "whistlestop.chat_mail", (row.id,), {"countdown": _wait(row.payload) or None}
    if kinds.informational(row.kind):  # news: on a queue of its own (workers/celery_app.py)
        return "whistlestop.news", (row.id,), {}
    return "whistlestop.notify", (row.id,), {}


def _wait(payload: dict) -> float:
    """Seconds until a row's ``not_before`` (0 when none, or past)."""
    from datetime import datetime
    at = payload.get("not_before")
    if not at:
        return 0.0
    return max(0.0, (datetime.fromisoformat(at) - utcnow()).total_seconds())


def publish(name: str, args: tuple, options: dict | None = None) -> None:
    """Publish the task ``name`` with ``args`` (options set to None are left out).

    Eager mode (the tests) goes through the task's signature, so that the task runs inline.
    On a Redis broker a task without options published by a request is written by
    ``task_messages`` (Celery's own message, in one answerless send: a tenth of an order's CPU
    through Celery). Otherwise the
    message goes by name (``send_task``: the tasks need not be imported) on this
    thread's own producer, without declaring the queue again: measured on the order path
    (bench/order_throughput.py), taking a producer from Celery's pool and declaring the queue
    at every send were half of a publish's CPU, and a publish was a sixth of an order's.
    Nothing is lost without the declaration: a message to the default exchange goes to the
    queue its routing key names, and the worker declares its queues when it starts. Nor does
    a send wait out Celery's publish retries (up to four tries 0.2 s apart, a fifth of a
    publish's CPU even when the first succeeds): a send that fails is tried once more at once
    on a new connection (the broker restarted), and then left to the relay.

    The arguments are ids (and a step): their shown form (Celery's ``argsrepr``, for its logs
    and events) is their plain ``repr``, which spares Celery its guarded one."""
    options = options or {}
    if celery.conf.task_always_eager:
        celery.signature(name, args=args).apply_async(argsrepr=repr(args), kwargsrepr="{}",
                                                      **options)
        return
    # A request does not wait for the broker's answer; a task does, so that its message is
    # acknowledged only after its follow-ups are in the broker (tests/workers/
    # test_worker_killed.py kills a worker between the two).
    queue = None if options or not has_request_context() else _written_queue(name)
    if queue is not None:
        task_messages.push(celery, name, args, queue)
        return
    for attempt in (1, 2):
        try:
            # ignore_result: no outbox task's result is read, and by name Celery cannot know
            # that the task ignores it: it would subscribe to the result's channel at every
            # send, and wait out the result backend's reconnects while Redis is away.
            celery.send_task(name, args=args, producer=_producer(), declare=[], retry=False,
                             ignore_result=True, argsrepr=repr(args), kwargsrepr="{}",
                             **options)
            return
        except Exception:
            _drop_producer()  # a connection the broker dropped: one more try on a new one
            if attempt == 2:
                raise


_queues: dict[str, str | None] = {}
_queues_of: list = [None]  # the publishing machinery the routes were read under


def _written_queue(name: str) -> str | None:
    """The queue of the task ``name`` when its message is written by ``task_messages`` (a
    Redis broker, the plain case), else None: ``send_task`` sends it. Read once per task and
    per configuration of the app's publishing machinery."""
    if _queues_of[0] is not celery.amqp:
        _queues.clear()
        _queues_of[0] = celery.amqp
    if name not in _queues:
        _queues[name] = task_messages.queue_of(celery.conf, name)
    return _queues[name]


_producers = threading.local()

# The outbox's own broker connection gives up: a send that cannot reach the broker raises within
# seconds and leaves its row to the relay (which tries again at its next run). kombu's default is
# to retry the connection without end (and Redis's socket waits without end on a broker that
# accepts and never answers), which held a task, or a request, for as long as the broker was
# away. The worker's own consumer keeps waiting out an outage (``broker_connection_max_retries``).
# ``publish`` tries once more on a new connection, so that is the retry: kombu's is none.
PUBLISH_CONNECTION = {
    "max_retries": 0, "connect_retries_timeout": 2,
    "socket_timeout": 2, "socket_connect_timeout": 2,  # Redis: a broker that never answers
}


def _producer():
    """This thread's producer, on a broker connection of its own (not one of Celery's pool,
    which a thread would then hold: a pool of ten would block the eleventh thread). Made again
    when the app's publishing machinery is (``workers.celery_app.reconfigure``)."""
    held = getattr(_producers, "held", None)
    amqp = celery.amqp
    if held is None or held[0] is not amqp:
        _drop_producer()
        connection = celery.connection_for_write(transport_options=PUBLISH_CONNECTION)
        held = _producers.held = (amqp, amqp.Producer(connection, auto_declare=False))
    return held[1]


def _drop_producer() -> None:
    held = getattr(_producers, "held", None)
    _producers.held = None
    if held is not None:
        try:
            held[1].connection.release()
        except Exception as exc:  # a connection already broken: nothing left to release
            log.debug("outbox: dropping a broken producer: %s", exc)


def send(engine: Engine, rows: list[Written]) -> int:
    """Send the rows; return how many were sent. When the broker refuses one, it and the rest
    keep the error in ``last_error`` (the relay sends them at its next run)."""
    for i, row in enumerate(rows):
        try:
            publish(*_task_for(row))
        except Exception as exc:  # the broker is down: the relay tries again later
            _failed(engine, [r.id for r in rows[i:]], f"{type(exc).__name__}: {exc}"[:2000])
            log.warning("outbox: could not send %s row(s) from #%s: %s", len(rows) - i,
                        row.id, exc)
            return i
    return len(rows)


_relaying = threading.local()


def publish_pending(engine: Engine, redeliver_after: float = REDELIVER_AFTER,
                    limit: int = 500, now=None) -> int:
    """The relay: send again every row not consumed ``redeliver_after`` seconds after it was
    written or last sent, and every row whose last send failed; return how many were sent.

    Rows are marked sent (``published_at``, ``attempts``) after their send, in one transaction
    per batch. A task run inline (Celery's eager mode) that relays in turn does not start a
    second, nested relay in the same thread. ``now``: the clock (tests; the time now when
    None).
    """
    if getattr(_relaying, "active", False):
        return 0
    _relaying.active = True
    try:
        return _relay(engine, redeliver_after, limit, now)
    finally:
        _relaying.active = False


def _due(redeliver_after: float, now=None):
    """The condition of a row the relay sends: not consumed, not held (``not_before`` still to
    come), and failed, overdue, or a held row never sent whose hold is over."""
    now = now or utcnow()
    cutoff = now - timedelta(seconds=redeliver_after)
    return (OutboxMessage.delivered_at.is_(None)
            & or_(OutboxMessage.not_before.is_(None), OutboxMessage.not_before <= now)
            & or_(OutboxMessage.last_error.is_not(None),
                  OutboxMessage.published_at.is_(None) & OutboxMessage.not_before.is_not(None),
                  func.coalesce(OutboxMessage.published_at, OutboxMessage.created_at) <= cutoff))


def _relay(engine: Engine, redeliver_after: float, limit: int, now=None) -> int:
    sent_total, last_id = 0, 0
    while sent_total < limit:
        with Session(engine) as session:
            db.reading(session)
            rows = [Written.of(r) for r in session.exec(
                select(OutboxMessage).where(_due(redeliver_after, now), OutboxMessage.id > last_id)
                .order_by(OutboxMessage.id).limit(min(500, limit - sent_total))).all()]
        if not rows:
            break
        last_id = rows[-1].id
        sent = send(engine, rows)
        mark_sent(engine, [r.id for r in rows[:sent]])
        sent_total += sent
        if sent < len(rows):
            break
    return sent_total


def mark_sent(engine: Engine, ids: list[int]) -> None:
    if not ids:
        return
    with Session(engine) as session:
        session.execute(update(OutboxMessage).where(OutboxMessage.id.in_(ids))
                        .values(attempts=OutboxMessage.attempts + 1, last_error=None,
                                published_at=utcnow()))
        session.commit()


def _failed(engine: Engine, ids: list[int], error: str) -> None:
    with Session(engine) as session:
        session.execute(update(OutboxMessage).where(OutboxMessage.id.in_(ids))
                        .values(attempts=OutboxMessage.attempts + 1, last_error=error))
        session.commit()


_OUTBOX = OutboxMessage.__table__
_CONSUMED = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("row"),
                                   _OUTBOX.c.delivered_at.is_(None))
             .values(delivered_at=bindparam("at")))  # built once: every task runs it


def mark_delivered(session: Session | Connection, message_id: int | None) -> None:
    """Record, in the consuming task's transaction, that the row's work is done: the relay
    leaves it alone from now on. Does nothing for None (a task sent by the sweep)."""
    if message_id is not None:
        session.execute(_CONSUMED, {"row": message_id, "at": utcnow()})


def unresolved_steps(session: Session, older_than: float) -> list[tuple[int, int]]:
    """(game id, step) of every active game whose current step is simultaneous, has a sealed
    order from every active seat, and saw no commit for ``older_than`` seconds."""
    cutoff = utcnow() - timedelta(seconds=older_than)
    # From the sealed orders (their partial index, ix_order_unapplied), not from the active
    # games: the steps where two or more seats have committed (few), then their games by id.
    # With 10,000 games at once the sweep reads what is sealed, not every game
    # (bench/sweep_scale.py).
    committed = set(session.exec(
        select(Order.game_id, Order.step).where(ORDER_UNAPPLIED, Order.status == "pending")
        .group_by(Order.game_id, Order.step).having(func.count() >= 2)).all())
    candidates = sorted(row for row in session.exec(
        select(Game.id, Game.step).where(Game.id.in_({game_id for game_id, _ in committed}),
                                         Game.status == "active", Game.updated_at < cutoff))
        if tuple(row) in committed) if committed else []
    found = []
    for game_id, step in candidates:
        game = session.get(Game, game_id)
        if game is None or game.step != step or not game.state:
            continue
        active = game_engine.from_dict(game.state).active()
        sealed = set(session.exec(select(Order.seat).where(
            Order.game_id == game_id, Order.step == step, Order.status == "pending")).all())
        if len(active) > 1 and set(active) <= sealed:
            found.append((game_id, step))
    return found


def republish_unresolved(engine: Engine, older_than: float) -> int:
    """Publish resolve_step for every step ``unresolved_steps`` finds; return how many.

    The game rows decide, not the outbox: a resolution lost after its row was published (by the
    broker, or by a task that gave up) is found here. A step resolved meanwhile makes the task a
    no-op. If the broker is down nothing is lost either: the next sweep finds the step again.
    """
    with Session(engine) as session:
        steps = unresolved_steps(session, older_than)
    published = 0
    for game_id, step in steps:
        try:
            publish("whistlestop.resolve_step", (game_id, step))
        except Exception as exc:  # the broker is down: the next sweep finds the step again
            log.warning("sweep: could not publish resolve_step(%s, %s): %s", game_id, step, exc)
            break
        published += 1
    if published:
        log.warning("sweep: published resolve_step again for %s unresolved step(s): %s",
                    published, steps[:published])
    return published
