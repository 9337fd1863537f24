"""A real SQLite database per test, created by the Alembic migration (not create_all)."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from server import db


@pytest.fixture
def db_url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'whistlestop.db'}"
    db.migrate(url)
    return url


@pytest.fixture
def db_engine(db_url):
    engine = db.make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(db_engine):
    with Session(db_engine) as s:
        yield s
