"""The API through Flask's test client, against a real migrated SQLite file per test.

Celery runs eagerly here, so the follow-up tasks the API publishes after a commit (the
resolution of a simultaneous step, the mails) run inline, inside the request's app context;
the mails go to a real SMTP server of the test's own.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager

import pytest

from server import db
from server.app import create_app
from tests.server.api.helpers import Client, Store


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory) -> str:
    """A database file migrated once (alembic upgrade head); each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "whistlestop.db"
    db.migrate(f"sqlite:///{path}")
    return str(path)


@pytest.fixture
def api_db_url(tmp_path, migrated_template) -> str:
    path = tmp_path / "whistlestop.db"
    shutil.copy(migrated_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def both_databases(request, tmp_path, migrated_template) -> str:
    """A migrated database on SQLite, then on a real PostgreSQL (for tests of concurrency)."""
    if request.param == "sqlite":
        return request.getfixturevalue("api_db_url")
    url = request.getfixturevalue("postgres_url")
    db.migrate(url)
    return url


@pytest.fixture(autouse=True)
def mail_server(smtp_catcher, monkeypatch):
    """A real SMTP server the inline notify tasks send to (the apps read the environment)."""
    monkeypatch.setenv("WHISTLESTOP_MAIL_SMTP_PORT", str(smtp_catcher.port))
    return smtp_catcher


@pytest.fixture(autouse=True)
def eager_celery():
    from workers import tasks  # noqa: F401  (the tasks the outbox names, run inline)
    from workers.celery_app import celery

    saved = celery.conf.task_always_eager
    celery.conf.task_always_eager = True
    yield celery
    celery.conf.task_always_eager = saved


def make_app(tmp_path, url, **overrides):
    config = {
        "DATABASE_URL": url,
        "VAR_DIR": str(tmp_path / "var"),
        "BROKER_URL": "filesystem://",
        "BROKER_DIR": str(tmp_path / "broker"),
        **overrides,
    }
    return create_app(config)


@contextmanager
def running_app(tmp_path, db_url: str):
    """The app on ``db_url``; its database engine disposed of afterwards."""
    app = make_app(tmp_path, db_url)
    try:
        yield app
    finally:
        app.extensions["whistlestop.db"].dispose()


@pytest.fixture
def app(tmp_path, api_db_url):
    with running_app(tmp_path, api_db_url) as app:
        yield app


@pytest.fixture
def client(app) -> Client:
    return Client(app.test_client())


@pytest.fixture
def store(app) -> Store:
    """Direct reads and set-ups on the app's database (short transactions only)."""
    return Store(app.extensions["whistlestop.db"])


@pytest.fixture
def players(client):
    """Two signed-up users, by the seat each will play."""
    return {"kennedy": client.signup("ann@example.org", "Ann"),
            "nixon": client.signup("bob@example.org", "Bob")}
