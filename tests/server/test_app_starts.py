"""The web app starts: in-process, and as a real gunicorn server."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest

from server import __version__
from server.app import create_app
from tests.conftest import stop_process

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)


def test_healthz_answers_ok_with_version(tmp_path):
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}", "VAR_DIR": str(tmp_path / "var")}
    )
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.is_json
    assert response.get_json() == {"status": "ok", "version": __version__, "database": "ok",
                                   "disk": "ok"}
    assert (tmp_path / "app.db").exists()


def test_healthz_reports_unreachable_database(tmp_path):
    # A directory is not a database file: SQLite cannot open it.
    (tmp_path / "not-a-file").mkdir()
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'not-a-file'}", "VAR_DIR": str(tmp_path)}
    )
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["status"] == "error"


def test_gunicorn_serves_healthz(tmp_path, free_port, whistlestop_env):
    """Starts gunicorn as the Procfile's `web` process does, with the same settings module."""
    url = f"http://127.0.0.1:{free_port}/healthz"
    log = (tmp_path / "gunicorn.log").open("wb")
    env = dict(whistlestop_env, PORT=str(free_port), WHISTLESTOP_WEB_WORKERS="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_conf",
         "server.app:create_app()"],
        env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        body = None
        # gunicorn listens before its worker has loaded the app, so the first request may wait
        # in the socket's queue for the whole start-up: seconds on a busy CI machine (a 2 s
        # read timeout failed there once). Not listening yet, or slow: ask again.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "gunicorn.log").read_text()
            try:
                with urllib.request.urlopen(url, timeout=15) as response:
                    assert response.status == 200
                    body = json.loads(response.read())
                    break
            except OSError:  # URLError, a refused connection, or a read timeout
                time.sleep(0.2)
        assert body == {"status": "ok", "version": __version__, "database": "ok", "disk": "ok"}, (
            (tmp_path / "gunicorn.log").read_text()
        )
    finally:
        stop_process(proc)
        log.close()
