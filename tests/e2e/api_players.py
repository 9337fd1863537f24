"""What the end-to-end tests over HTTP share: gunicorn serving the app as the Procfile's `web`
does, proven players with API tokens, and one seat's scripted client playing random legal
orders through the API (tests/e2e/test_http_game.py, tests/e2e/test_multi_host.py)."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Sequence

import requests

from tests.conftest import stop_process

DEADLINE_S = 600


def serve(env: dict, port: int, folder: Path, workers: int = 2) -> subprocess.Popen:
    """gunicorn on ``port``, run in ``folder`` (its log there), once /healthz answers."""
    log = (folder / "gunicorn.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_conf",
         "server.app:create_app()"],
        env={**env, "PORT": str(port), "WHISTLESTOP_WEB_WORKERS": str(workers)}, cwd=folder,
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
    """One seat's scripted client: it only ever sees what the API shows this seat. With
    several base URLs (web processes) it sends each request to the next one in turn."""

    def __init__(self, base: str | Sequence[str], token: str, gid: int, seed: int, seat: str,
                 failed: threading.Event):
        super().__init__(daemon=True, name=seat)
        self.failed = failed  # set by the first seat that fails: the others stop waiting
        self.gid, self.rng = gid, random.Random(seed)
        self.bases = itertools.cycle([base] if isinstance(base, str) else list(base))
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.orders = self.sealed = self.stale = 0
        self.error: str | None = None
        self.final: dict | None = None
        self.last: dict | None = None   # the last decision seen, for a failure's report
        self.history: list[str] = []    # what it saw and sent, for a failure's report
        self.answered: set[int] = set()  # the steps it has had an order accepted for

    def url(self, path: str = "") -> str:
        """The game's API address (plus ``path``) on the next web process."""
        return f"{next(self.bases)}/api/v1/games/{self.gid}{path}"

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test, with what the server said
            self.error = f"{type(exc).__name__}: {exc}"
            self.failed.set()

    def _play(self) -> None:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and not self.failed.is_set():
            r = self.http.get(self.url("/decision"), timeout=30)
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
                    r = self.http.post(self.url("/show-move"), timeout=30)
                    assert r.status_code == 200, r.text
                    continue
                game = self.http.get(self.url(), timeout=30).json()
                if game["status"] == "finished":
                    self.final = game
                    return
                time.sleep(0.02)  # the other seat, or the worker, is on it
                continue
            action = self.rng.choice(decision["legal_actions"])
            r = self.http.post(self.url("/orders"), json={"step": decision["step"],
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
