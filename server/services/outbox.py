"""The outbox relay: publish rows written in the same transaction as a state change.

Rows are published after their transaction commits (by the request or task that wrote them) and
again by the periodic relay (beat), so a crash or a broker outage between the commit and the
publish only delays a message; it never loses one. Tasks are idempotent, so a row published twice
does no harm.

A row marked published can still be lost by the broker (a Redis without persistence that
restarts). For the one message whose loss would stall a game, the resolution of a committed
simultaneous step, the sweep (``republish_unresolved``) goes by the games themselves: every step
whose seats have all committed and that is still unresolved after a while gets its task again.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

import engine.core as game_engine
from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server import db
from server.models import Game, Order, OutboxMessage, utcnow

# Which task each kind of row becomes. Notifications go to one task; issue 5 makes it send mail.
FOLLOW_UP_TASKS = {"resolve_step": "whistlestop.resolve_step"}
NOTIFY_TASK = "whistlestop.notify"

log = logging.getLogger("whistlestop.outbox")


def _task_for(message: OutboxMessage):
    """The task object and its arguments for a row (registered tasks, so eager mode works)."""
    from workers import tasks

    if message.kind == "resolve_step":
        return tasks.resolve_step, (message.payload["game_id"], message.payload["step"])
    return tasks.notify, (message.id,)


_publishing = threading.local()


def publish_pending(engine: Engine, limit: int = 500) -> int:
    """Publish unpublished rows, oldest first; return how many were published.

    No transaction is open while a task is sent (an eager task may write itself); a row is
    marked published after its send, so a crash in between publishes it again, harmlessly.
    When the broker refuses a send, the row keeps the error in ``last_error`` and the rest wait
    for the next call (the relay's).

    A task run inline (Celery's eager mode) that publishes in turn does not start a second,
    nested relay in the same thread: the outer call goes on until no new row is left.
    """
    if getattr(_publishing, "active", False):
        return 0
    _publishing.active = True
    try:
        return _publish(engine, limit)
    finally:
        _publishing.active = False


def _publish(engine: Engine, limit: int) -> int:
    published, last_id = 0, 0
    while published < limit:
        with Session(engine) as session:
            db.reading(session)
            rows = session.exec(select(OutboxMessage)
                                .where(OutboxMessage.published_at.is_(None),
                                       OutboxMessage.id > last_id)
                                .order_by(OutboxMessage.id).limit(limit - published)).all()
            session.expunge_all()
        if not rows:
            return published
        sent = []
        try:
            for row in rows:
                last_id = row.id
                task, args = _task_for(row)
                try:
                    task.apply_async(args=args)
                except Exception as exc:  # the broker is down: the relay tries again later
                    _mark(engine, row.id, error=f"{type(exc).__name__}: {exc}"[:2000])
                    return published
                sent.append(row.id)
                published += 1
        finally:
            _mark_published(engine, sent)  # one transaction for the batch
    return published


def _mark_published(engine: Engine, ids: list[int]) -> None:
    if not ids:
        return
    with Session(engine) as session:
        session.execute(update(OutboxMessage).where(OutboxMessage.id.in_(ids))
                        .values(attempts=OutboxMessage.attempts + 1, last_error=None,
                                published_at=utcnow()))
        session.commit()


def _mark(engine: Engine, message_id: int, error: str | None = None) -> None:
    with Session(engine) as session:
        values = {"attempts": OutboxMessage.attempts + 1, "last_error": error}
        if error is None:
            values["published_at"] = utcnow()
        session.execute(update(OutboxMessage).where(OutboxMessage.id == message_id)
                        .values(**values))
        session.commit()


def unresolved_steps(session: Session, older_than: float) -> list[tuple[int, int]]:
    """(game id, step) of every active game whose current step is simultaneous, has a sealed
    order from every active seat, and saw no commit for ``older_than`` seconds."""
    cutoff = utcnow() - timedelta(seconds=older_than)
    candidates = session.exec(
        select(Game.id, Game.step)
        .join(Order, (Order.game_id == Game.id) & (Order.step == Game.step))
        .where(Game.status == "active", Order.status == "pending", Game.updated_at < cutoff)
        .group_by(Game.id, Game.step).having(func.count(Order.id) >= 2)
        .order_by(Game.id)).all()
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
    from workers import tasks

    with Session(engine) as session:
        steps = unresolved_steps(session, older_than)
    published = 0
    for game_id, step in steps:
        try:
            tasks.resolve_step.apply_async(args=(game_id, step))
        except Exception as exc:  # the broker is down: the next sweep finds the step again
            log.warning("sweep: could not publish resolve_step(%s, %s): %s", game_id, step, exc)
            break
        published += 1
    if published:
        log.warning("sweep: published resolve_step again for %s unresolved step(s): %s",
                    published, steps[:published])
    return published
