"""Complete games through the HTTP API, as production runs it: 1960 by two players,
Mr. President by three, and Mr. President by one player against the strong bot.

gunicorn serves the app, a real Celery worker (with beat) consumes from a real Redis, and one
scripted client per seat - each in its own thread with its own token and no knowledge of the
others - sign up, open, join and start a game, then poll their decision and answer it with a
random legal order until the game ends. Simultaneous steps (every round of Mr. President) are
resolved by the worker. Then the operator's `whistlestop replay` must match the cached state and
`whistlestop verify` must confirm every draw against the revealed seed.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from server import db
from tests.conftest import stop_process
from tests.workers.conftest import Worker

DEADLINE_S = 600


def _serve(env: dict, port: int, folder: Path) -> subprocess.Popen:
    log = (folder / "gunicorn.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_conf",
         "server.app:create_app()"],
        env={**env, "PORT": str(port), "WHISTLESTOP_WEB_WORKERS": "2"}, cwd=folder,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=10).ok:
                return proc
        except requests.RequestException:  # not listening yet, or slow to answer under load
            time.sleep(0.2)
    stop_process(proc)
    raise AssertionError("gunicorn did not start:\n" + (folder / "gunicorn.log").read_text())


class Player(threading.Thread):
    """One seat's scripted client: it only ever sees what the API shows this seat."""

    def __init__(self, base: str, token: str, gid: int, seed: int, seat: str,
                 failed: threading.Event):
        super().__init__(daemon=True, name=seat)
        self.failed = failed  # set by the first seat that fails: the others stop waiting
        self.base, self.gid, self.rng = base, gid, random.Random(seed)
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.orders = self.sealed = self.stale = 0
        self.error: str | None = None
        self.final: dict | None = None
        self.last: dict | None = None   # the last decision seen, for a failure's report
        self.history: list[str] = []    # what it saw and sent, for a failure's report
        self.answered: set[int] = set()  # the steps it has had an order accepted for

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test, with what the server said
            self.error = f"{type(exc).__name__}: {exc}"
            self.failed.set()

    def _play(self) -> None:
        url = f"{self.base}/api/v1/games/{self.gid}"
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and not self.failed.is_set():
            r = self.http.get(f"{url}/decision", timeout=30)
            assert r.status_code == 200, r.text
            decision = self.last = r.json()
            self.history.append(f"{time.monotonic():.3f} GET step {decision['step']} active "
                                f"{decision['active']} committed {decision['committed']}")
            # Never asked again what it has answered (a decision read half before and half
            # after its step resolved did: the game row's step, the orders' resolution).
            assert not (decision["active"] and decision["step"] in self.answered), \
                f"step {decision['step']} asked again after its order was accepted"
            if not decision["active"]:
                if decision.get("held_until"):  # the other's move may be taken back: see it
                    r = self.http.post(f"{url}/show-move", timeout=30)
                    assert r.status_code == 200, r.text
                    continue
                game = self.http.get(url, timeout=30).json()
                if game["status"] == "finished":
                    self.final = game
                    return
                time.sleep(0.02)  # the other seat, or the worker, is on it
                continue
            action = self.rng.choice(decision["legal_actions"])
            r = self.http.post(f"{url}/orders", json={"step": decision["step"],
                                                      "actions": [action]}, timeout=30)
            self.history.append(f"{time.monotonic():.3f} POST {decision['step']} {action!r}: "
                                f"{r.status_code}")
            if r.status_code == 409:  # the step moved on meanwhile: ask again
                self.stale += 1
                continue
            assert r.status_code in (200, 202), f"{action!r}: {r.status_code} {r.text}"
            self.orders += 1
            self.answered.add(decision["step"])
            self.sealed += r.status_code == 202
        if not self.failed.is_set():
            raise AssertionError("the game did not end in time")


GAMES = {
    "tmotp": {"options": {"edition": "gmt"},
              "seats": {"kennedy": "jack@example.org", "nixon": "dick@example.org"},
              # Campaign Strategy is sealed by both seats, unless one has a single legal
              # choice: the server commits that one for it (the fresh-clone run met it)
              "min_orders": 50, "min_sealed": 1},
    # Every round is sealed: each of the three commits, the worker resolves the round.
    "mrpresident": {"options": {"edition": "dial", "players": 3, "version": "short"},
                    "seats": {"p1": "barry@example.org", "p2": "lyndon@example.org",
                              "p3": "george@example.org"},
                    "min_orders": 8, "min_sealed": 2 * 12},
    # A solo game: the strong bot's seat is answered by the worker's bot_move tasks.
    "mrpresident-solo": {"game_type": "mrpresident",
                         "options": {"edition": "chalkboard", "players": 2},
                         "seats": {"p1": "barry@example.org"}, "bots": {"p2": "strong"},
                         # after the first round the scorer leads alone: few steps are sealed
                         "min_orders": 5, "min_sealed": 1},
    # 1960 against the strong bot: every Nixon decision is a worker's bot_move task.
    "tmotp-solo": {"game_type": "tmotp", "options": {"edition": "gmt"},
                   "seats": {"kennedy": "jack@example.org"}, "bots": {"nixon": "strong"},
                   "min_orders": 50, "min_sealed": 1},
}


@pytest.mark.parametrize("game_type", sorted(GAMES))
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_scripted_clients_play_a_whole_game_over_http(
        database, game_type, request, tmp_path, whistlestop_env, redis_url, free_port):
    spec = GAMES[game_type]
    db_url = (request.getfixturevalue("postgres_url") if database == "postgresql"
              else f"sqlite:///{tmp_path / 'game.db'}")
    db.migrate(db_url)
    env = {**whistlestop_env, "WHISTLESTOP_DATABASE_URL": db_url,
           "WHISTLESTOP_BROKER_URL": redis_url, "WHISTLESTOP_RESULT_BACKEND": "",
           "WHISTLESTOP_OUTBOX_RELAY_SECONDS": "1"}
    worker = Worker(env, tmp_path, "e2e", beat=True).start()
    web = _serve(env, free_port, tmp_path)
    base = f"http://127.0.0.1:{free_port}"
    try:
        tokens = proven_players(db_url, spec["seats"])
        auth = {seat: {"Authorization": f"Bearer {t}"} for seat, t in tokens.items()}
        creator, *others = spec["seats"]
        r = requests.post(f"{base}/api/v1/games", headers=auth[creator], timeout=30, json={
            "game_type": spec.get("game_type", game_type), "options": spec["options"],
            "seats": spec["seats"], "bots": spec.get("bots", {})})
        assert r.status_code == 201, r.text
        gid = r.json()["game"]["id"]
        seed_hash = r.json()["game"]["seed_hash"]
        for seat in others:
            assert requests.post(f"{base}/api/v1/games/{gid}/join", headers=auth[seat],
                                 json={}, timeout=30).status_code == 200
        assert requests.post(f"{base}/api/v1/games/{gid}/start", headers=auth[creator],
                             timeout=30).status_code == 200

        failed = threading.Event()
        players = [Player(base, tokens[seat], gid, seed, seat, failed) for seed, seat in
                   enumerate(spec["seats"])]
        for p in players:
            p.start()
        for p in players:
            p.join(DEADLINE_S + 60)
        for p in players:  # shown by pytest if the test fails
            print(f"seat {p.name}:", *p.history[-15:], sep="\n")
        assert [p.error for p in players] == [None] * len(players), (
            [p.last for p in players], worker.text()[-3000:])

        final = players[0].final
        assert final["status"] == "finished"
        assert final["result"]["winner"] in {*spec["seats"], *spec.get("bots", {})}, \
            final["result"]
        assert final["seed_hash"] == seed_hash and final["seed"]
        assert all(p.orders >= spec["min_orders"] for p in players), [p.orders for p in players]
        # Sealed steps are resolved by the worker (1960: at least one Campaign Strategy; how
        # many more depends on its draws).
        assert sum(p.sealed for p in players) >= spec["min_sealed"]
        if spec.get("bots"):    # the bot's seat was answered by the worker, every round
            log = requests.get(f"{base}/api/v1/games/{gid}/log", headers=auth[creator],
                               timeout=30).json()
            by_bot = [e for e in log["entries"] if e["seat"] in spec["bots"]]
            assert len(by_bot) >= spec["min_orders"], log["entries"][-10:]

        for command in (["replay", str(gid)], ["verify", str(gid)]):
            done = subprocess.run([sys.executable, "-m", "server.cli", *command], env=env,
                                  cwd=tmp_path, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stdout + done.stderr
    finally:
        stop_process(web)
        worker.stop()


def proven_players(db_url: str, seats: dict) -> dict:
    """An API token for each seat's player, as the sign-up page makes it after the mailed
    link proved the address (that round trip: tests/server/api/test_users.py)."""
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from server.services import users
    engine = create_engine(db_url)
    try:
        tokens = {}
        with Session(engine) as session:
            for seat, email in seats.items():
                user = users.create_user(session, email)
                users.prove_address(session, user)
                session.commit()
                tokens[seat] = users.issue_token(session, user.id)
        return tokens
    finally:
        engine.dispose()
