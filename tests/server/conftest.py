"""A real database per test, created by the Alembic migration (not create_all): every test that
uses it runs twice, on a SQLite file and on a fresh database of a real PostgreSQL cluster."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from server import db


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request, tmp_path) -> str:
    """The URL of a new, empty database (no tables yet)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'whistlestop.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def db_url(empty_db_url) -> str:
    db.migrate(empty_db_url)
    return empty_db_url


@pytest.fixture
def db_engine(db_url):
    engine = db.make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(db_engine):
    with Session(db_engine) as s:
        yield s
