"""Order submissions per second through gunicorn, against the same request with the raw driver.

Run from the repository root:
    python bench/order_throughput.py [--games N] [--clients K] [--rounds R] [--broker B]

The servers are gunicorn with the same settings (2 sync workers and the production settings'
worker hook, bench/gunicorn_bench.py) on a SQLite file migrated by Alembic, with the same games.
The real one is ``server.app:create_app()``: token check, engine validation (``legal_actions``),
apply, forced choices and chance, state cache, log, outbox, publish (to a redis-server of the
bench's own, the production broker, when one is installed; ``--broker filesystem`` for the
embedded transport). The limit is ``bench/raw_orders_app.py``: the same reads and writes with
``sqlite3`` and no engine or framework, and, on Redis, the same live news sent after the commit
(one PUBLISH an order, on a bare socket); "bare" is that limit sending nothing, the limit of
stops 21-41, measured beside it so that the two ratios can be compared. The orders are worked
out beforehand with the engine (chance is a function of the seed and the log position, so the
server will draw the same), so the timed loop is nothing but order POSTs, K client threads each
playing its own games from the start to the first simultaneous step, after one untimed game per
thread to warm the servers up.

This machine's speed drifts from minute to minute, so the servers are measured in R rounds,
each on a fresh copy of the same database, each server going first in turn; every round prints
the rates and the ratios, and the last lines the median ratios (goal: the real app at least 0.5
of the limit). No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, free_port, start_redis  # noqa: E402  (puts the repository on sys.path)

import engine.core as engine  # noqa: E402
from sqlmodel import Session  # noqa: E402

from server import db  # noqa: E402
from server.services import games as service  # noqa: E402
from server.services.users import create_user, issue_token  # noqa: E402

GOAL = 0.5


def planned_orders(seed: str, rng: random.Random) -> list[tuple[str, int, str]]:
    """(seat, step, action) for every decision up to the first simultaneous step, computed with
    the same rules the server applies (forced choices and chance are not orders)."""
    state = engine.new_game("tmotp", seed=seed)
    service._advance(state)
    plan, step = [], 1
    while len(state.active()) == 1:
        seat = state.active()[0]
        action = rng.choice(state.legal_actions(seat))
        plan.append((seat, step, str(action)))
        state.apply(seat, action)
        service._advance(state)
        step += 1
    return plan


def setup(folder: Path, games: int) -> tuple[str, list[dict]]:
    url = f"sqlite:///{folder / 'bench.db'}"
    db.migrate(url)
    eng = db.make_engine(url)
    out = []
    with Session(eng) as session:
        for i in range(games):
            users = {seat: create_user(session, f"{seat}{i}@bench.invalid") for seat in
                     ("kennedy", "nixon")}
            tokens = {seat: issue_token(session, u.id) for seat, u in users.items()}
            seed = f"bench-{i}"
            game = service.create_game(session, "tmotp", {}, {s: u.id for s, u in users.items()},
                                       seed=seed)
            out.append({"id": game.id, "tokens": tokens,
                        "plan": planned_orders(seed, random.Random(i))})
    eng.dispose()
    return url, out


def serve(app: str, port: int, env: dict, log: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}",
         "--control-socket", str(log.with_suffix(".ctl")),
         "-c", "python:bench.gunicorn_bench", app],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                time.sleep(1.0)  # let both workers boot
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{app} did not start; see {log}")


def post(port: int, game: dict, seat: str, step: int, action: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = json.dumps({"step": step, "actions": [action]})
    conn.request("POST", f"/api/v1/games/{game['id']}/orders", body=body,
                 headers={"Content-Type": "application/json",
                          "Authorization": f"Bearer {game['tokens'][seat]}"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def workers_cpu(master: int) -> float:
    """Seconds of CPU used so far by the gunicorn ``master``'s worker processes (user and
    system, from /proc; 0 where there is no /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == master:  # ppid
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def run_clients(port: int, games: list[dict], clients: int,
                on_start=lambda: None) -> tuple[int, float, list[str]]:
    """Play every game's plan with `clients` threads; return (orders, seconds, errors) of the
    timed part. Each thread first plays one game untimed (warm-up: a fresh gunicorn worker
    compiles its SQL statements and imports lazily at its first requests; a server that has
    run a while has done that long ago)."""
    errors: list[str] = []
    counts = [0] * clients
    start = threading.Barrier(clients + 1)

    def play(game: dict) -> int:
        for n, (seat, step, action) in enumerate(game["plan"]):
            status, data = post(port, game, seat, step, action)
            if status != 200 or data.get("step") != step + 1:
                errors.append(f"game {game['id']} step {step}: {status} {data}")
                return n + 1
        return len(game["plan"])

    def client(k: int) -> None:
        mine = games[k::clients]
        play(mine[0])
        start.wait()
        for game in mine[1:]:
            counts[k] += play(game)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    on_start()
    for t in threads:
        t.join()
    return sum(counts), time.perf_counter() - began, errors


def measure(label: str, app: str, template: Path, plans: list[dict], clients: int,
            broker: str, extra_env: dict) -> tuple[float, float]:
    """Serve a fresh copy of the ``template`` database with ``app`` and play ``plans``; return
    its orders a second and its workers' CPU milliseconds an order."""
    folder = Path(tempfile.mkdtemp(prefix=f"ws-bench-{label}-"))
    try:
        shutil.copy(template, folder / "bench.db")
        url = f"sqlite:///{folder / 'bench.db'}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("WHISTLESTOP_")}
        env.update(WHISTLESTOP_VAR_DIR=str(folder / "var"), WHISTLESTOP_DATABASE_URL=url,
                   WHISTLESTOP_BROKER_URL=broker, BENCH_SQLITE_PATH=str(folder / "bench.db"),
                   WHISTLESTOP_RESULT_BACKEND="", PYTHONPATH=str(ROOT), **extra_env)
        port = free_port()
        server = serve(app, port, env, folder / "gunicorn.log")
        cpu = []
        try:
            orders, seconds, errors = run_clients(port, plans, clients,
                                                  lambda: cpu.append(workers_cpu(server.pid)))
            cpu.append(workers_cpu(server.pid))
        finally:
            server.terminate()
            server.wait(30)
        rate, per_order = orders / seconds, (cpu[1] - cpu[0]) / orders * 1000
        print(f"    {label:5} {orders} orders in {seconds:.2f} s: {rate:.1f} orders/s, "
              f"workers' CPU {per_order:.2f} ms an order"
              + (f"  ({len(errors)} errors, first: {errors[0][:300]})" if errors else ""))
        return rate, per_order
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# label: (app, environment). The limit sends the order's live news to a Redis broker as the
# real request does; "bare" is the same limit sending nothing (the limit of stops 21-41),
# measured beside it with a Redis broker so that the two ratios can be compared.
APPS = {"limit": ("bench.raw_orders_app:app", {"BENCH_LIMIT_SENDS": "1"}),
        "real": ("server.app:create_app()", {}),
        "bare": ("bench.raw_orders_app:app", {})}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per server (default 40)")
    parser.add_argument("--clients", type=int, default=4, help="client threads (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--broker", choices=("redis", "filesystem"),
                        default="redis" if shutil.which("redis-server") else "filesystem",
                        help="where the real app publishes: a redis-server of the bench's own "
                             "(the production broker; the default when installed) or the "
                             "embedded filesystem:// transport")
    args = parser.parse_args(argv)
    if args.games < 2 * args.clients:
        parser.error("--games must be at least twice --clients (one warm-up game per client)")
    print(f"Order submissions through gunicorn (2 workers), SQLite, broker {args.broker}, "
          f"{args.games} games to their first simultaneous step, {args.clients} client threads, "
          f"{args.rounds} rounds")
    folder = Path(tempfile.mkdtemp(prefix="ws-bench-template-"))
    redis = None
    try:
        broker = "filesystem://"
        if args.broker == "redis":
            redis, port = start_redis(folder)
            broker = f"redis://127.0.0.1:{port}/0"
        url, plans = setup(folder, args.games)
        template = Path(url.removeprefix("sqlite:///"))
        labels = ("limit", "real", "bare") if args.broker == "redis" else ("limit", "real")
        rates: dict[str, list[float]] = {label: [] for label in labels}
        cpus: dict[str, list[float]] = {label: [] for label in labels}
        ratios: dict[str, list[float]] = {label: [] for label in labels if label != "real"}
        for r in range(1, args.rounds + 1):
            print(f"  round {r}")
            turn = (r - 1) % len(labels)  # each server goes first in turn
            got = {label: measure(label, APPS[label][0], template, plans, args.clients, broker,
                                  APPS[label][1])
                   for label in labels[turn:] + labels[:turn]}
            for label, (rate, cpu) in got.items():
                rates[label].append(rate)
                cpus[label].append(cpu)
            for label in ratios:
                ratios[label].append(got["real"][0] / got[label][0])
            print("    ratio " + ", ".join(f"{got['real'][0] / got[label][0]:.2f} ({label})"
                                           for label in ratios))
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(30)
        shutil.rmtree(folder, ignore_errors=True)
    median = {label: statistics.median(values) for label, values in rates.items()}
    cpu = {label: statistics.median(values) for label, values in cpus.items()}
    print(f"orders/s, median of {args.rounds} rounds: real {median['real']:.1f} vs raw-driver "
          f"limit {median['limit']:.1f}; ratio median {statistics.median(ratios['limit']):.2f}, "
          f"range {min(ratios['limit']):.2f}-{max(ratios['limit']):.2f} (goal >= {GOAL})")
    if "bare" in ratios:
        print(f"  against the limit sending nothing (stops 21-41): {median['bare']:.1f} "
              f"orders/s, ratio median {statistics.median(ratios['bare']):.2f}, range "
              f"{min(ratios['bare']):.2f}-{max(ratios['bare']):.2f}")
    if cpu["real"] > 0:  # 0 without /proc: not measured
        print("  the server's workers' CPU an order, medians: " + ", ".join(
            f"{label} {cpu[label]:.2f} ms" for label in labels)
              + f"; the limit's over the real app's {cpu['limit'] / cpu['real']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
