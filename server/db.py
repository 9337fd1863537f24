"""Database engine: one SQLModel/SQLAlchemy engine per Flask app."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import text
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, SQLModel, create_engine

_EXTENSION_KEY = "whistlestop.db"


def make_engine(url: str) -> Engine:
    """Return an engine for the URL, creating the parent folder of a SQLite file."""
    parsed = make_url(url)
    connect_args: dict = {}
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # Gunicorn and Celery use threads too; each session is still confined to one thread.
        connect_args["check_same_thread"] = False
    return create_engine(url, connect_args=connect_args, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    """Bind an engine built from DATABASE_URL to the app."""
    app.extensions[_EXTENSION_KEY] = make_engine(app.config["DATABASE_URL"])


def get_engine() -> Engine:
    """Return the current app's engine."""
    return current_app.extensions[_EXTENSION_KEY]


def session() -> Session:
    """Return a new session on the current app's engine (use as a context manager)."""
    return Session(get_engine())


def create_all(engine: Engine) -> None:
    """Create every table SQLModel knows about (Alembic migrations replace this later)."""
    # Import models here once they exist so that their tables are registered.
    SQLModel.metadata.create_all(engine)


def ping(engine: Engine) -> None:
    """Raise if the database cannot answer a trivial query."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))
