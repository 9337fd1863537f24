"""Rate limits counted once for the whole server (issue 45, L13). The attack: the embedded
default counted the limits in each process's memory (``memory://``), so two gunicorn workers,
or a `web` process and a second one, each let a client through its whole limit: 48 sign-in
mails went out under a limit of 30 an hour. The default store is now the server's own database
(PostgreSQL, or on SQLite a file beside it, shared by every process of the machine); Redis when
WHISTLESTOP_RATELIMIT_STORAGE_URI says so. Addresses are counted by digest: the store never
holds one."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import requests
from sqlalchemy import text

from server import db
from tests.conftest import stop_process
from tests.e2e.api_players import serve
from tests.server.api.conftest import both_databases, make_app  # noqa: F401  (fixture)
from tests.services import free_port


def _sign_up(app, email: str):
    return app.test_client().post("/api/v1/users", json={"email": email},
                                  environ_base={"REMOTE_ADDR": "198.51.100.7"})


@pytest.fixture
def two_apps(tmp_path, both_databases):
    """Two instances of the app on one database, with the default limit store (as two
    gunicorn workers are)."""
    apps = [make_app(tmp_path / name, both_databases, RATE_SIGN_UP_PER_CLIENT="3/hour")
            for name in ("one", "two")]
    yield apps
    for app in apps:
        app.extensions["whistlestop.db"].dispose()


def test_two_instances_of_the_app_count_one_limit(two_apps):
    one, two = two_apps
    statuses = [_sign_up(app, f"u{n}@example.org").status_code
                for n, app in enumerate([one, two, one, two, one, two])]
    assert statuses == [202, 202, 202, 429, 429, 429]
    assert one.config["RATELIMIT_STORAGE_URI"] == "database://"  # the default


def test_the_store_keeps_no_address(two_apps, both_databases, tmp_path):
    one, _two = two_apps
    one.config["RATE_SIGN_IN_PER_ADDRESS"] = "2/hour"
    for _ in range(2):
        assert _sign_up(one, "victim@example.org").status_code == 202
    assert _sign_up(one, "Victim@Example.org").status_code == 429  # counted, by digest
    stores = [both_databases]
    if both_databases.startswith("sqlite"):
        stores = [f"{both_databases}-limits"]  # the file beside the database
    for url in stores:
        engine = db.make_engine(url)
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT * FROM ratelimithit")).all()
        engine.dispose()
        assert rows and "victim" not in repr(rows).lower()
        assert "198.51.100.7" not in repr(rows)


def test_redis_when_configured(tmp_path, api_db_url, redis_url):
    apps = [make_app(tmp_path / name, api_db_url, RATE_SIGN_UP_PER_CLIENT="2/hour",
                     RATELIMIT_STORAGE_URI=redis_url) for name in ("one", "two")]
    try:
        from limits.storage import RedisStorage

        assert isinstance(apps[0].extensions["whistlestop.rate_limits"].storage, RedisStorage)
        assert [_sign_up(app, f"r{n}@example.org").status_code
                for n, app in enumerate(apps + apps)] == [202, 202, 429, 429]
    finally:
        for app in apps:
            app.extensions["whistlestop.db"].dispose()


def test_two_web_processes_count_one_limit(tmp_path, whistlestop_env, migrated_template):
    """Two gunicorn `web` processes on one machine and one SQLite database, as scripts/run or
    a second `web` behind the proxy runs them: sign-ups sent to each in turn."""
    database = tmp_path / "whistlestop.db"
    shutil.copy(migrated_template, database)
    env = dict(whistlestop_env, WHISTLESTOP_DATABASE_URL=f"sqlite:///{database}",
               WHISTLESTOP_RATE_SIGN_UP_PER_CLIENT="3/hour", WHISTLESTOP_RESULT_BACKEND="")
    processes, bases = [], []
    try:
        for name in ("one", "two"):
            folder = Path(tmp_path / name)
            folder.mkdir()
            port = free_port()
            processes.append(serve(env, port, folder, workers=1))
            bases.append(f"http://127.0.0.1:{port}")
        statuses = [requests.post(f"{bases[n % 2]}/api/v1/users",
                                  json={"email": f"p{n}@example.org"}, timeout=30).status_code
                    for n in range(6)]
        assert statuses == [202, 202, 202, 429, 429, 429]
    finally:
        for proc in processes:
            stop_process(proc)
