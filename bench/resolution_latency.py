"""From the last commit of a simultaneous step to "resolved and outbox written", against a no-op task.

Run from the repository root:  python bench/resolution_latency.py [--samples N] [--broker redis|filesystem]

Starts a real Celery worker (concurrency 1) on a real broker: a redis-server of its own on a free
port when `redis-server` is installed (the production broker), otherwise the embedded
``filesystem://`` transport. The database is a fresh SQLite file (``--db-url`` for another).

- **No-op round trip** (the limit): ``whistlestop.ping`` sent and its result received, N times.
- **Resolution**: games are played (through the order service) to a simultaneous step and one
  seat commits; then the last seat's order commits (t0: just before its commit), its outbox rows
  are sent at the commit (server/services/outbox.py), and the game row is polled until its step
  moved on (t1): the resolution, the chance it ran, the new log rows and the outbox rows commit
  in one transaction, so the step moving is "resolved and outbox written".

Prints p50/p95 of both and the difference of the p95s (goal: within 20 ms). Exits 0.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, percentile, start_redis, stop  # noqa: E402  (puts the repository on sys.path)

GOAL_MS = 20.0


def configure(folder: Path, broker: str, db_url: str | None) -> tuple[dict, list]:
    """Set the WHISTLESTOP_* environment for this process and the worker; return (env, procs)."""
    procs = []
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHISTLESTOP_")}
    env.update(WHISTLESTOP_VAR_DIR=str(folder / "var"),
               WHISTLESTOP_DATABASE_URL=db_url or f"sqlite:///{folder / 'bench.db'}",
               PYTHONPATH=str(ROOT))
    if broker == "redis":
        redis, port = start_redis(folder)
        procs.append(redis)
        env.update(WHISTLESTOP_BROKER_URL=f"redis://127.0.0.1:{port}/0",
                   WHISTLESTOP_RESULT_BACKEND=f"redis://127.0.0.1:{port}/1")
    else:
        env.update(WHISTLESTOP_BROKER_URL="filesystem://",
                   WHISTLESTOP_BROKER_DIR=str(folder / "var" / "broker"),
                   WHISTLESTOP_RESULT_BACKEND=f"db+sqlite:///{folder / 'results.db'}")
    os.environ.clear()
    os.environ.update(env)
    return env, procs


def start_worker(env: dict, folder: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--concurrency",
         "1", "--loglevel", os.environ.get("BENCH_WORKER_LOGLEVEL", "WARNING"), "--without-heartbeat", "--without-gossip",
         "--without-mingle"],
        cwd=ROOT, env=env, stdout=(folder / "worker.log").open("wb"), stderr=subprocess.STDOUT)


def noop_round_trips(n: int) -> list[float]:
    from workers.tasks import ping

    ping.apply_async().get(timeout=120)  # the worker is up and warm
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        ping.apply_async().get(timeout=30, interval=0.001)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def resolutions(n: int, db_url: str) -> list[float]:
    import engine.core as engine
    from sqlmodel import Session

    from server import db
    from server.models import Game
    from server.services import games as service
    from workers.tasks import ping

    eng = db.make_engine(db_url)
    sqlite_path = db_url.removeprefix("sqlite:///") if db_url.startswith("sqlite") else None
    times: list[float] = []
    rng = random.Random(1)
    game_no = 0
    with Session(eng) as session:
        while len(times) < n:
            game_no += 1
            gid = service.create_game(session, "tmotp", {}, {"kennedy": None, "nixon": None},
                                      seed=f"latency-{game_no}").id
            for _ in range(3):  # three simultaneous steps per game
                while True:
                    session.expire_all()
                    game = session.get(Game, gid)
                    state = engine.from_dict(game.state)
                    active = state.active()
                    if not active or len(active) > 1:
                        break
                    service.submit_order(session, gid, active[0], game.step,
                                         [rng.choice(state.legal_actions(active[0]))])
                if not active:
                    break
                step = game.step
                pending = {o.seat for o in session.exec(service.select(service.Order).where(
                    service.Order.game_id == gid, service.Order.step == step))}
                session.rollback()  # end the read: on SQLite every transaction takes the lock
                seats = [s for s in active if s not in pending]
                for seat in seats[:-1]:
                    service.submit_order(session, gid, seat, step,
                                         [rng.choice(state.legal_actions(seat))])
                # Older rows (sent at their commits) out of the way before timing.
                ping.apply_async().get(timeout=120)  # FIFO: the worker has done them all
                last = seats[-1]
                action = rng.choice(state.legal_actions(last))
                committing: list[float] = []
                result = service.submit_order(
                    session, gid, last, step, [action],
                    before_commit=lambda _s, _r: committing.append(time.perf_counter()))
                t0 = committing[-1]
                assert result.all_committed
                times.append(wait_for_step(sqlite_path, eng, gid, step) - t0)
                if len(times) >= n:
                    break
    eng.dispose()
    return [t * 1000 for t in times]


def wait_for_step(sqlite_path, eng, gid: int, step: int) -> float:
    """Poll the game row until its step is past ``step``; return the time it was seen."""
    deadline = time.perf_counter() + 60
    if sqlite_path:
        conn = sqlite3.connect(sqlite_path, timeout=30)
        try:
            while time.perf_counter() < deadline:
                (current,) = conn.execute("SELECT step FROM game WHERE id = ?", (gid,)).fetchone()
                if current > step:
                    return time.perf_counter()
                time.sleep(0.0005)
        finally:
            conn.close()
    else:
        from sqlalchemy import text

        with eng.connect() as conn:
            while time.perf_counter() < deadline:
                current = conn.execute(text("SELECT step FROM game WHERE id = :g"),
                                       {"g": gid}).scalar()
                conn.rollback()
                if current > step:
                    return time.perf_counter()
                time.sleep(0.0005)
    raise RuntimeError(f"game {gid} step {step} never resolved (is the worker running?)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--broker", choices=("redis", "filesystem"),
                        default="redis" if shutil.which("redis-server") else "filesystem")
    parser.add_argument("--db-url", default=None, help="database (default: a fresh SQLite file)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ws-latency-"))
    env, procs = configure(folder, args.broker, args.db_url)
    from server import db

    db.migrate(env["WHISTLESTOP_DATABASE_URL"])
    worker = start_worker(env, folder)
    procs.append(worker)
    try:
        noop = noop_round_trips(args.samples)
        resolved = resolutions(args.samples, env["WHISTLESTOP_DATABASE_URL"])
    finally:
        stop(procs)
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(folder, ignore_errors=True)
    db_name = "SQLite" if not args.db_url else args.db_url.split(":")[0]
    print(f"Simultaneous-step resolution, broker {args.broker}, database {db_name}, "
          f"one worker, {args.samples} samples each")
    for label, xs in (("no-op task round trip", noop), ("last commit -> resolved", resolved)):
        print(f"  {label:24} p50 {percentile(xs, 50):7.1f} ms   p95 {percentile(xs, 95):7.1f} ms")
    gap = percentile(resolved, 95) - percentile(noop, 95)
    print(f"resolution p95 - no-op p95 = {gap:.1f} ms (goal <= {GOAL_MS:.0f} ms; "
          f"ratio {gap / GOAL_MS:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
