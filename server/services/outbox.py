"""The outbox relay: publish rows written in the same transaction as a state change.

Rows are published after their transaction commits (by the request or task that wrote them) and
again by the periodic relay (beat), so a crash or a broker outage between the commit and the
publish only delays a message; it never loses one. Tasks are idempotent, so a row published twice
does no harm.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server.models import OutboxMessage, utcnow

# Which task each kind of row becomes. Notifications go to one task; issue 5 makes it send mail.
FOLLOW_UP_TASKS = {"resolve_step": "whistlestop.resolve_step"}
NOTIFY_TASK = "whistlestop.notify"


def _task_for(message: OutboxMessage):
    """The task object and its arguments for a row (registered tasks, so eager mode works)."""
    from workers import tasks

    if message.kind == "resolve_step":
        return tasks.resolve_step, (message.payload["game_id"], message.payload["step"])
    return tasks.notify, (message.id,)


def publish_pending(engine: Engine, limit: int = 500) -> int:
    """Publish unpublished rows, oldest first; return how many were published.

    No transaction is open while a task is sent (an eager task may write itself); a row is
    marked published after its send, so a crash in between publishes it again, harmlessly.
    """
    with Session(engine) as session:
        rows = session.exec(select(OutboxMessage).where(OutboxMessage.published_at.is_(None))
                            .order_by(OutboxMessage.id).limit(limit)).all()
        session.expunge_all()
    published = 0
    for row in rows:
        task, args = _task_for(row)
        try:
            task.apply_async(args=args)
        except Exception as exc:  # the broker is down: the relay tries again later
            _mark(engine, row.id, error=f"{type(exc).__name__}: {exc}"[:2000])
            break
        _mark(engine, row.id)
        published += 1
    return published


def _mark(engine: Engine, message_id: int, error: str | None = None) -> None:
    with Session(engine) as session:
        values = {"attempts": OutboxMessage.attempts + 1, "last_error": error}
        if error is None:
            values["published_at"] = utcnow()
        session.execute(update(OutboxMessage).where(OutboxMessage.id == message_id)
                        .values(**values))
        session.commit()
