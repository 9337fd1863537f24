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

import subprocess
import sys
import threading

import pytest
import requests

from server import db
from tests.conftest import stop_process
from tests.e2e.api_players import DEADLINE_S, Player, proven_players, serve
from tests.workers.conftest import Worker

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)

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
    web = serve(env, free_port, tmp_path)
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
