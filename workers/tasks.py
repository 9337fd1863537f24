"""Celery tasks: thin, named, id-only and idempotent."""

from __future__ import annotations

from workers.celery_app import celery


@celery.task(name="whistlestop.ping")
def ping() -> str:
    """Return "pong": a health check that a worker is consuming."""
    return "pong"
