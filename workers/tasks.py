"""Celery tasks: thin, named, id-only and idempotent."""

from __future__ import annotations

from sqlmodel import Session

from server import db
from server.models import OutboxMessage
from server.services import games, outbox
from workers.celery_app import celery


@celery.task(name="whistlestop.ping")
def ping() -> str:
    """Return "pong": a health check that a worker is consuming."""
    return "pong"


@celery.task(name="whistlestop.resolve_step")
def resolve_step(game_id: int, step: int) -> bool:
    """Resolve a simultaneous step once every seat has committed; a repeat does nothing."""
    with Session(db.get_engine()) as session:
        resolved = games.resolve_step(session, game_id, step)
    outbox.publish_pending(db.get_engine())
    return resolved


@celery.task(name="whistlestop.notify")
def notify(message_id: int) -> str | None:
    """Deliver one notification row (issue 5 renders and sends the email)."""
    with Session(db.get_engine()) as session:
        message = session.get(OutboxMessage, message_id)
        return message.kind if message else None


@celery.task(name="whistlestop.relay_outbox")
def relay_outbox() -> int:
    """Publish whatever the outbox still holds (run periodically by beat)."""
    return outbox.publish_pending(db.get_engine())
