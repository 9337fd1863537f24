"""The `live` process's stream slots and what it serves (issue 45, L11 and L13's second half).

The attacks: anonymous clients open streams until the process holds all it may, and every
player's page falls back to its version check; a slot whose client went away comes back only
at the stream's next heartbeat (15 s), so a client that connects and drops over and over holds
slots it does not use; and the `live` process, meant for the streams, answers the whole app
(sign-in, the API, /mail) on a port of its own.

Each reader holds at most LIVE_STREAMS_PER_CLIENT streams (a signed-in reader per account,
another per address), readers not signed in together at most LIVE_ANONYMOUS_SHARE of the
process's, a slot is given back as soon as its client's connection closes, and the `live`
process answers only the streams and /healthz."""
from __future__ import annotations

import http.client
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest
from sqlmodel import Session

from server import db
from server.services import games
from server.services.users import create_user
from tests.conftest import stop_process
from tests.services import free_port
from tests.web.conftest import dick, jack  # noqa: F401  (fixtures: two signed-in readers)
from tests.web.pages_helpers import new_game

pytestmark = pytest.mark.processes  # starts `live` processes of its own


@pytest.fixture
def app(app):
    app.config["LIVE_URL"] = "same-origin"
    yield app
    watcher = app.extensions.get("whistlestop.live")
    if watcher is not None:
        watcher.stop()


@contextmanager
def held_streams():
    """Streams opened in the test, all closed at its end (their slots given back)."""
    answers: list = []
    try:
        yield answers
    finally:
        for answer in answers:
            answer.close()


def _open(answers, client, gid: int, address: str | None = None) -> int:
    env = {"REMOTE_ADDR": address} if address else {}
    answer = client.get(f"/games/{gid}/events", buffered=False, environ_base=env)
    answers.append(answer)
    return answer.status_code


def test_one_anonymous_client_cannot_take_every_stream(app, jack, dick):
    app.config.update(LIVE_STREAMS_MAX=6, LIVE_STREAMS_PER_CLIENT=2)
    gid = new_game(jack, dick, public="on")
    stranger = app.test_client()
    with held_streams() as answers:
        got = [_open(answers, stranger, gid, "198.51.100.7") for _ in range(6)]
        assert got == [200, 200, 204, 204, 204, 204]
        assert _open(answers, jack.client, gid) == 200  # the players' pages still get theirs
        assert _open(answers, dick.client, gid) == 200


def test_anonymous_clients_from_many_addresses_leave_the_players_their_streams(app, jack, dick):
    app.config.update(LIVE_STREAMS_MAX=6, LIVE_STREAMS_PER_CLIENT=2, LIVE_ANONYMOUS_SHARE=0.5)
    gid = new_game(jack, dick, public="on")
    with held_streams() as answers:
        got = [_open(answers, app.test_client(), gid, f"198.51.100.{n}") for n in range(6)]
        assert got == [200, 200, 200, 204, 204, 204]  # half the process's streams at most
        assert [_open(answers, jack.client, gid) for _ in range(2)] == [200, 200]
        assert _open(answers, dick.client, gid) == 200


def test_one_account_holds_its_share_only(app, jack, dick):
    app.config.update(LIVE_STREAMS_MAX=6, LIVE_STREAMS_PER_CLIENT=2)
    gid = new_game(jack, dick, public="on")
    with held_streams() as answers:
        assert [_open(answers, jack.client, gid, f"192.0.2.{n}") for n in range(3)] == \
            [200, 200, 204]  # however many addresses it comes from
        assert _open(answers, dick.client, gid) == 200
    with held_streams() as answers:  # given back when they closed
        assert [_open(answers, jack.client, gid) for _ in range(2)] == [200, 200]


# --- the `live` process, as the Procfile runs it -------------------------------------------------
@contextmanager
def live_process(tmp_path, whistlestop_env, db_url: str, threads: int, factory_args: str = ""):
    """gunicorn with server/gunicorn_live.py (a gthread worker of ``threads`` threads, that
    many less 8 streams); its port once it answers."""
    port = free_port()
    env = dict(whistlestop_env, WHISTLESTOP_LIVE_PORT=str(port),
               WHISTLESTOP_LIVE_THREADS=str(threads), WHISTLESTOP_DATABASE_URL=db_url,
               WHISTLESTOP_BASE_URL="http://127.0.0.1:5000")
    log = (tmp_path / "gunicorn-live.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_live",
                             f"server.app:create_app({factory_args})"], env=env, cwd=tmp_path,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "gunicorn-live.log").read_text()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
                conn.request("GET", "/healthz")
                assert conn.getresponse().status == 200
                conn.close()
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "gunicorn-live.log").read_text()
                time.sleep(0.2)
        yield port
    finally:
        stop_process(proc)
        log.close()


def _public_game(db_url: str) -> int:
    engine = db.make_engine(db_url)
    try:
        with Session(engine) as s:
            seats = {seat: create_user(s, f"{seat}@example.org").id
                     for seat in ("kennedy", "nixon")}
            return games.create_game(s, "tmotp", {}, seats, public=True).id
    finally:
        engine.dispose()


def _get(port: int, path: str):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    conn.request("GET", path)
    return conn, conn.getresponse()


def test_the_live_process_serves_only_the_streams(tmp_path, whistlestop_env, api_db_url):
    gid = _public_game(api_db_url)
    with live_process(tmp_path, whistlestop_env, api_db_url, threads=12) as port:
        for path in ("/", "/sign-in", "/mail", "/metrics", "/api/v1/games",
                     f"/games/{gid}", f"/games/{gid}/version", "/no-such-page"):
            conn, answer = _get(port, path)
            body = answer.read().decode()
            conn.close()
            assert answer.status == 404, (path, answer.status)
            assert "only" in body and "/events" in body, body  # why, in words
        conn, answer = _get(port, "/healthz")
        assert answer.status == 200
        conn.close()
        conn, answer = _get(port, f"/games/{gid}/events")
        assert answer.status == 200 and answer.readline() == b"retry: 1000\n"
        conn.close()


def test_a_stream_slot_comes_back_as_soon_as_its_client_goes_away(tmp_path, whistlestop_env,
                                                                   api_db_url):
    """Two slots (10 threads less 8); heartbeats and lifetimes an hour long, so only the
    closed connection itself can give its slot back."""
    gid = _public_game(api_db_url)
    args = "{'LIVE_HEARTBEAT_SECONDS': 3600, 'LIVE_LIFETIME_SECONDS': 3600, " \
           "'LIVE_ANONYMOUS_SHARE': 1.0}"
    with live_process(tmp_path, whistlestop_env, api_db_url, threads=10,
                      factory_args=args) as port:
        streams = [_get(port, f"/games/{gid}/events") for _ in range(2)]
        try:
            assert [answer.status for _c, answer in streams] == [200, 200]
            for _conn, answer in streams:
                assert answer.readline() == b"retry: 1000\n"
            conn, answer = _get(port, f"/games/{gid}/events")
            assert answer.status == 204  # both slots held
            conn.close()
            gone_conn, gone = streams.pop(0)  # the first page is closed
            gone.close()
            gone_conn.close()
            deadline = time.monotonic() + 60  # far less than a heartbeat, and far more than needed
            while True:
                conn, answer = _get(port, f"/games/{gid}/events")
                if answer.status == 200:
                    streams.append((conn, answer))
                    break
                conn.close()
                assert time.monotonic() < deadline, "the closed stream's slot never came back"
                time.sleep(0.1)
        finally:
            for conn, _answer in streams:
                conn.close()
