"""The `web` process's access log keeps no link's secret (issue 48): a sign-in, decision,
settings, calendar, answer, absence, seat or club invitation link's token, and an invitation or
rematch code, in the path, the query, a ``next`` path or the Referer, are written as a fixed
mark."""

from __future__ import annotations

import datetime
import http.client
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from server.access_log import MARK, SECRET_ARGS, AccessLogger, redact_referer, redact_target
from server.app import create_app
from tests.conftest import stop_process

TOKEN = "eyJ1IjoxLCJnIjo0Mn0.Z3x9aB.Qm9ndXMtc2lnbmF0dXJlLXRleHQ"
CODE = "k3Jd9sQp2LmX8vTz"

# Every variable of a route, secret or not: a new route's variable must be named here or in
# SECRET_ARGS, so that nobody adds a link's secret under a name the log does not know.
PUBLIC_ARGS = {"game_id", "seat", "name", "filename", "game_type", "token_id", "message_id",
               "vacation_id", "slug", "user_id", "step", "lang", "webhook_id", "n", "number",
               "kind", "id", "hook_id", "absence_id"}


@pytest.fixture(scope="module")
def url_map(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("access_log")
    return create_app({"DATABASE_URL": f"sqlite:///{tmp / 'app.db'}",
                       "VAR_DIR": str(tmp / "var")}).url_map


@pytest.mark.parametrize("target", [
    f"/sign-in/{TOKEN}",
    f"/games/42/decide/{TOKEN}",
    f"/games/42/answer/{TOKEN}",
    f"/games/42/absence/{TOKEN}",
    f"/me/mail/{TOKEN}",
    f"/calendar/{TOKEN}.ics",
    f"/club/{TOKEN}",  # a member's invitation to the club
    f"/games/42/take-seat/{CODE}",
    f"/games/42/rematch?t={TOKEN}",
    f"/games/42/join?code={CODE}",
    f"/sign-in?next=/games/42/take-seat/{CODE}",
    f"/sign-in?next=/games/42/join?code={CODE}",
    f"/sign-in/{TOKEN}/extra",  # no route: a token's shape is enough
    f"/club/{TOKEN}",   # issue 48: a member's invitation to the club
])
def test_a_links_secret_is_marked(url_map, target):
    shown = redact_target(target, url_map)
    assert TOKEN not in shown and CODE not in shown
    assert MARK in shown


@pytest.mark.parametrize("target", [
    "/games/42?chat=sent", "/games/42/decide", "/static/web/page.css", "/healthz",
    "/api/v1/games/42/state", "/help/1960",
])
def test_a_path_with_no_secret_is_written_as_it_came(url_map, target):
    assert redact_target(target, url_map) == target


def test_the_referer_of_a_tokens_page_is_marked(url_map):
    shown = redact_referer(f"https://club.example/games/42/decide/{TOKEN}", url_map)
    assert shown == f"https://club.example/games/42/decide/{MARK}"


def test_the_logged_line_has_no_secret(url_map):
    logger = AccessLogger.__new__(AccessLogger)
    logger.url_map = url_map
    environ = {"REQUEST_METHOD": "POST", "RAW_URI": f"/games/42/decide/{TOKEN}",
               "PATH_INFO": f"/games/42/decide/{TOKEN}", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "192.0.2.1",
               "HTTP_REFERER": f"http://club.example/sign-in/{TOKEN}"}

    class Resp:
        status, sent, headers = "303 See Other", 0, []
    headers = [("REFERER", environ["HTTP_REFERER"]), ("HOST", "club.example")]
    atoms = logger.atoms(Resp(), headers, environ, datetime.timedelta(seconds=0))
    assert TOKEN not in repr(atoms)
    assert atoms["r"] == f"POST /games/42/decide/{MARK} HTTP/1.1"


def test_every_route_variable_is_known_secret_or_public(url_map):
    unknown = {(rule.rule, arg) for rule in url_map.iter_rules()
               for arg in rule.arguments - SECRET_ARGS - PUBLIC_ARGS}
    assert not unknown, "name each new route variable in SECRET_ARGS or PUBLIC_ARGS"


@pytest.mark.processes
def test_gunicorns_access_log_has_no_token(tmp_path, whistlestop_env):
    """The `web` process as the Procfile starts it: its log lines name the paths, not the
    tokens."""
    with socket.socket() as sock:  # not free_port: this folder's mail_server listens there
        sock.bind(("127.0.0.1", 0))
        free_port = sock.getsockname()[1]
    logfile = tmp_path / "gunicorn.log"
    log = logfile.open("wb")
    env = dict(whistlestop_env, PORT=str(free_port), WHISTLESTOP_WEB_WORKERS="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_conf",
         "server.app:create_app()"],
        env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{free_port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, logfile.read_text()
            try:
                urllib.request.urlopen(base + "/healthz", timeout=15).close()
                break
            except (OSError, http.client.HTTPException):  # not listening yet
                time.sleep(0.2)
        for path in (f"/sign-in/{TOKEN}", f"/games/1/decide/{TOKEN}",
                     f"/games/1/join?code={CODE}"):
            request = urllib.request.Request(base + path,
                                             headers={"Referer": f"{base}/me/mail/{TOKEN}"})
            try:
                urllib.request.urlopen(request, timeout=15).close()
            except urllib.error.HTTPError:
                pass  # a made-up token is refused; the line is written all the same
        deadline = time.monotonic() + 10
        while "/games/1/join" not in logfile.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop_process(proc)
        log.close()
    text = logfile.read_text()
    assert f'"GET /sign-in/{MARK} HTTP/1.1"' in text, text
    assert f"/games/1/decide/{MARK}" in text and f"/me/mail/{MARK}" in text, text
    assert TOKEN not in text and CODE not in text, text


def test_a_target_that_cannot_be_read_is_logged_as_the_mark(url_map, monkeypatch):
    from server import access_log

    def broken(*_args, **_kwargs):
        raise ValueError("unforeseen")
    monkeypatch.setattr(access_log, "redact_target", broken)
    logger = AccessLogger.__new__(AccessLogger)
    logger.url_map = url_map
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/sign-in/{TOKEN}",
               "PATH_INFO": f"/sign-in/{TOKEN}", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1"}

    class Resp:
        status, sent, headers = "200 OK", 0, []
    atoms = logger.atoms(Resp(), [], environ, datetime.timedelta(seconds=0))
    assert TOKEN not in repr(atoms) and atoms["r"] == f"GET {MARK} HTTP/1.1"
