"""A locked or full database (issue 45, L10), each test written as the attack:

- a long write transaction (a migration, a backup, a stuck process) holds SQLite's write lock:
  /healthz took the write lock itself, waited for it as long as gunicorn lets a request run,
  and every web worker polled by the health check was killed with no answer. The health check
  only reads: it answers while another connection holds the write lock;
- the same lock under any request that writes: the request waited the whole busy timeout (as
  long as the worker timeout) and was killed, or answered 500. It answers 503 with
  Retry-After (problem+json on the API, a short page on the web), well before the worker
  timeout, and the next request after the lock is released is served as usual. PostgreSQL
  the same: a lock held longer than its lock_timeout answers 503, where the request used to
  wait forever;
- a full disk still answered "ok"; an unreachable database answered its error's text (paths,
  SQL) to anybody.
"""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import psycopg
import pytest
from sqlalchemy.engine import make_url

from server import db
from server.app import create_app
from tests.conftest import stop_process
from tests.server.api.conftest import both_databases, running_app  # noqa: F401  (fixture)
from tests.server.api.helpers import API, PROBLEM, Client
from tests.services import free_port
from tests.web.pages_helpers import Reader, csrf


@pytest.fixture
def quick_busy_timeout(monkeypatch):
    """A busy timeout of a fraction of a second (the real one is WORKER_TIMEOUT_SECONDS / 3), so
    that a request waiting for the lock gives up at once; set before the app's engine is made."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr(db, "FINE_WAIT_SECONDS", 0.05)


@contextmanager
def write_lock(url: str):
    """Another connection holding the database's write lock (SQLite), or an exclusive lock on
    the tables a request reads and writes (PostgreSQL), until the block ends."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        holder = sqlite3.connect(parsed.database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("UPDATE user SET email = email")  # a real write, not only the lock
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as holder:
        holder.execute('LOCK TABLE "user", apitoken IN ACCESS EXCLUSIVE MODE')
        try:
            yield
        finally:
            holder.rollback()


def test_healthz_only_reads_it_answers_while_another_connection_holds_the_write_lock(
        tmp_path, api_db_url, quick_busy_timeout):
    with running_app(tmp_path, api_db_url) as app:
        client = app.test_client()
        assert client.get("/healthz").status_code == 200
        with write_lock(api_db_url):
            r = client.get("/healthz")
            assert r.status_code == 200, r.get_json()
            assert r.get_json()["status"] == "ok"


def test_a_locked_database_answers_503_with_retry_after_on_the_api(
        tmp_path, both_databases, quick_busy_timeout):  # noqa: F811
    with running_app(tmp_path, both_databases) as app:
        client = Client(app.test_client())
        ann = client.signup("ann@example.org", "Ann")
        with write_lock(both_databases):
            r = client.post("/users/me/tokens", ann, json={})
            assert r.status_code == 503, r.data[:300]
            assert r.mimetype == PROBLEM
            assert int(r.headers["Retry-After"]) > 0
            body = r.get_json()
            assert body["status"] == 503 and body["type"].endswith("/problems/database-busy")
            assert "locked" not in body["detail"] and "sqlite" not in body["detail"].lower()
            assert r.headers["Cache-Control"] == "no-store"
        # The same worker goes on: released, the lock is not in the way any more.
        r = client.post("/users/me/tokens", ann, json={})
        assert r.status_code == 201, r.data[:300]
        assert client.get("/users/me/tokens", ann).status_code == 200


def test_a_locked_database_answers_503_with_retry_after_on_the_pages(
        tmp_path, both_databases, smtp_catcher, quick_busy_timeout):  # noqa: F811
    with running_app(tmp_path, both_databases) as app:
        jack = Reader(app, smtp_catcher, "jack@example.org")
        jack.sign_in()
        token = csrf(jack.get("/me/tokens").data)
        with write_lock(both_databases):
            r = jack.client.post("/me/tokens", data={"csrf_token": token, "action": "new"})
            assert r.status_code == 503, r.data[:300]
            assert r.mimetype == "text/html"
            assert int(r.headers["Retry-After"]) > 0
            text = r.get_data(as_text=True)
            assert "busy" in text and "Traceback" not in text and "locked" not in text
            assert len(text) < 2000
        r = jack.client.post("/me/tokens", data={"csrf_token": token, "action": "new"})
        assert r.status_code == 201, r.data[:300]


def test_the_busy_page_is_in_the_readers_language(tmp_path, api_db_url, smtp_catcher,
                                                  quick_busy_timeout):
    with running_app(tmp_path, api_db_url) as app:
        stranger = app.test_client()
        token = csrf(stranger.get("/sign-in").data)
        with write_lock(api_db_url):
            r = stranger.post("/sign-in", data={"csrf_token": token, "next": "/",
                                                "email": "juan@example.org"},
                              headers={"Accept-Language": "es"})
            assert r.status_code == 503, r.data[:300]
            text = r.get_data(as_text=True)
            assert 'lang="es"' in text and "busy" not in text


def test_the_busy_timeout_ends_well_before_gunicorn_kills_the_worker():
    from server import gunicorn_conf

    waited = db.BUSY_TIMEOUT_MS / 1000 + db.FINE_WAIT_SECONDS
    assert gunicorn_conf.timeout == db.WORKER_TIMEOUT_SECONDS
    assert waited * 2 <= gunicorn_conf.timeout  # room for the rest of the request


def _ask(url: str, data: dict | None = None):
    """(status, headers, body) of a GET, or of a POST of ``data`` as JSON; HTTP errors too."""
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.headers, _body(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, _body(error.read())


def _body(data: bytes):
    try:
        return json.loads(data or b"null")
    except ValueError:
        return data.decode(errors="replace")  # a page (Flask's 500) is shown as it is


@pytest.mark.processes
def test_gunicorn_answers_a_locked_database_503_and_keeps_its_worker(tmp_path, whistlestop_env):
    """As the Procfile's `web` process runs: one sync worker, gunicorn's timeout from
    WHISTLESTOP_WORKER_TIMEOUT_SECONDS (short here: the lock waits a third of it). The health
    check answers while the lock is held, a sign-up answers 503 with Retry-After, gunicorn
    kills no worker, and the same worker signs up once the lock is gone."""
    url = whistlestop_env["WHISTLESTOP_DATABASE_URL"]
    db.migrate(url)
    port = free_port()  # after the fixtures' servers (the SMTP catcher) took theirs
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "gunicorn.log"
    env = dict(whistlestop_env, PORT=str(port), WHISTLESTOP_WEB_WORKERS="1",
               WHISTLESTOP_WORKER_TIMEOUT_SECONDS="6")
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_conf",
             "server.app:create_app()"],
            env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            deadline, status = time.monotonic() + 60, None
            while status != 200 and time.monotonic() < deadline:  # until the worker serves
                assert proc.poll() is None, log_path.read_text()
                try:
                    status = _ask(base + "/healthz")[0]
                except OSError:
                    time.sleep(0.2)
            assert status == 200, log_path.read_text()
            with write_lock(url):
                assert _ask(base + "/healthz")[0] == 200, log_path.read_text()
                status, headers, body = _ask(base + "/api/v1/users",
                                             {"email": "ann@example.org"})
                assert status == 503, (body, log_path.read_text())
                assert int(headers["Retry-After"]) > 0 and body["status"] == 503
            status, _headers, body = _ask(base + "/api/v1/users", {"email": "ann@example.org"})
            assert status == 202, (body, log_path.read_text())
            assert proc.poll() is None
        finally:
            stop_process(proc)
    text = log_path.read_text()
    assert "WORKER TIMEOUT" not in text and text.count("Booting worker") == 1, text


def test_postgresql_waits_for_a_lock_no_longer_than_the_busy_timeout(postgres_url):
    engine = db.make_engine(postgres_url)
    try:
        with engine.connect() as conn:
            shown = conn.exec_driver_sql("SHOW lock_timeout").scalar()
        assert shown == f"{db.BUSY_TIMEOUT_MS}ms" or shown == f"{db.BUSY_TIMEOUT_MS // 1000}s"
    finally:
        engine.dispose()


def test_healthz_reports_a_full_disk(tmp_path, api_db_url):
    with running_app(tmp_path, api_db_url) as app:
        app.config["DISK_MIN_FREE_MB"] = 10 ** 12  # more than any disk has free: "full"
        r = app.test_client().get("/healthz")
        assert r.status_code == 503
        assert r.get_json()["status"] == "error" and r.get_json()["disk"] == "low"
        app.config["DISK_MIN_FREE_MB"] = 1
        r = app.test_client().get("/healthz")
        assert r.status_code == 200 and r.get_json()["disk"] == "ok"


def test_healthz_tells_nobody_the_database_error(tmp_path):
    folder = tmp_path / "not-a-database.db"
    folder.mkdir()  # SQLite cannot open a folder: "unable to open database file"
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}", "VAR_DIR": str(tmp_path / "var")})
    try:
        r = app.test_client().get("/healthz")
    finally:
        app.extensions["whistlestop.db"].dispose()
    assert r.status_code == 503
    body = r.get_json()
    assert body["status"] == "error" and body["database"] == "error"
    assert set(body) <= {"status", "version", "database", "disk"}
    text = r.get_data(as_text=True)
    assert str(tmp_path) not in text and "sqlite" not in text.lower() and "SELECT" not in text
    assert API not in text
