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
        # The game page opens its live stream on its own server: the browser tests' server
        # (tests/web/browser.py LiveServer) is threaded and serves streams. Unset, the pages
        # would try a `live` process on BASE_URL's host at LIVE_PORT, which no test runs.
        "LIVE_URL": "same-origin",
        **overrides,
    }
    return create_app(config)


@contextmanager
def running_app(tmp_path, db_url: str, live_streams: bool = False):
    """The app on ``db_url``; its live watcher stopped and its database engine disposed of
    afterwards. ``live_streams``: the game pages' live streams are served (the pages reload
    themselves within a second of a move); else the stream route declines them (204), as a
    process without a thread to spare does, and an open page only checks the game's version
    every 30 s: a test that drives pages step by step in browsers is not raced by their
    reloads."""
    app = make_app(tmp_path, db_url, **({} if live_streams else {"LIVE_STREAMS_MAX": 0}))
    try:
        yield app
    finally:
        watcher = app.extensions.get("whistlestop.live")  # started by a stream, if one opened
        if watcher is not None:
            watcher.stop()
        app.extensions["whistlestop.db"].dispose()


@pytest.fixture
def app(tmp_path, api_db_url):
    """The app, its game pages' live streams served (tests/web/test_live_updates.py)."""
    with running_app(tmp_path, api_db_url, live_streams=True) as app:
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
