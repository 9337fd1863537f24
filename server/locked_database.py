"""A database that stays locked longer than a request may wait for it (another process's long
transaction, a backup, a migration) is answered 503 with Retry-After, on every route: a
problem+json (``database-busy``) under /api/, a short page elsewhere. Never a 500, and never a
worker killed by gunicorn for running past its timeout: the wait ends first (server/db.py,
``BUSY_TIMEOUT_MS``: a third of ``WORKER_TIMEOUT_SECONDS``; on PostgreSQL its lock_timeout)."""

from __future__ import annotations

import sqlite3

from flask import Flask
from sqlalchemy.exc import OperationalError

RETRY_AFTER_SECONDS = 5
# PostgreSQL's SQLSTATE for a lock not granted within lock_timeout (lock_not_available).
_PG_LOCK_NOT_AVAILABLE = "55P03"


def init_app(app: Flask) -> None:
    app.register_error_handler(OperationalError, _answer)
    # SQLite's BEGIN IMMEDIATE runs on the driver (server/db.py): its error is not wrapped.
    app.register_error_handler(sqlite3.OperationalError, _answer)


def is_locked(exc: BaseException) -> bool:
    """Whether the error says the database was locked past the time a request waits."""
    error = getattr(exc, "orig", None) or exc
    if isinstance(error, sqlite3.OperationalError):
        code = getattr(error, "sqlite_errorcode", None)
        if code is not None:
            return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
        return "database is locked" in str(error)
    return getattr(error, "sqlstate", None) == _PG_LOCK_NOT_AVAILABLE


def _answer(exc: Exception):
    if not is_locked(exc):
        raise exc  # any other database error: a 500, logged, as before
    from server.api import problems

    if problems.is_api_request():
        return problems.Problem(
            "database-busy", "The server is too busy to answer right now; nothing was "
            f"changed. Try again in {RETRY_AFTER_SECONDS} seconds.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)}).response()
    from server.web import busy

    return busy.page(RETRY_AFTER_SECONDS)
