"""How many open game pages (live news streams, GET /games/<id>/events) one web process holds,
and how soon the news of a move reaches every one of them.

Run from the repository root:
    python bench/live_streams.py [--streams 100,300,600] [--broker filesystem|redis]
                                 [--threads 1024] [--samples 20]

The Procfile's `live` process with its production settings (server/gunicorn_live.py: one
gthread worker of ``--threads`` threads, at most threads - 8 streams) serves
``server.app:create_app()`` on a SQLite file migrated by Alembic. ``--broker filesystem`` (the
embedded default: the process's watcher reads the watched games' rows every 0.5 s) or
``redis`` (a redis-server of the bench's own: news by pub/sub). A writer process plays moves
through the order service (as a mail reply, the API or a bot does) and notes the moment each
committed (the session's after_commit); one client thread holds every stream on raw sockets
and notes when each hears the move (two streams per public game: its two seats' pages).

- **limit**: one stream alone, one move at a time (``--samples`` moves), measured first in the
  same run: the delay of the path itself (on the embedded default, mostly the wait for the next
  read of the rows: 0 to 0.5 s).
- for each number of streams: every stream opened (how many got 204, the answer past the
  process's limit that sends a page back to its version check; any 5xx is reported), the
  worker's CPU per second and memory while they wait, then ``--samples`` single moves (quiet)
  and a burst (one move in every game at once): p50/p95 latency of every stream's news, and
  any stream that missed it.
Goal: p95 under 1 s.

``--order-path R``: instead, what the change costs the order path: bench/order_throughput.py's
real app and games (broker Redis), served by turns in R rounds (each arm first in turn) by 2
workers of each arm: ``no-news`` (sync, the news not published: the order path before the
change), ``sync`` (the `web` process now: each order's news published to Redis after its
commit) and ``gthread`` (256 threads: had the `web` process served the streams itself); each
round prints the rates and their ratios, the last line the medians. No assertions: it always
exits 0.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, free_port, percentile, start_redis, stop, wait_for_port  # noqa: E402  (repository on sys.path)

GOAL_S = 1.0
EVENT = re.compile(rb"id: (\d+)\nevent: step\n")


# --- the writer: moves through the order service, in a process of its own ---------------------
def writer(url: str, env: dict, pipe) -> None:
    os.environ.update(env)
    import engine.core as engine
    from sqlalchemy import event
    from sqlmodel import Session

    from server import db
    from server.models import Game
    from server.services import games

    eng = db.make_engine(url)
    committed = [0.0]

    @event.listens_for(Session, "after_commit")
    def _committed(_session) -> None:  # the moment the move is committed: its news may go
        committed[0] = time.monotonic()

    while True:
        ids = pipe.recv()
        if ids is None:
            return
        done = []
        for gid in ids:
            with Session(eng) as s:
                game = s.get(Game, gid)
                state = engine.from_dict(game.state)
                active = state.active()
                if len(active) != 1:  # a sealed step: an order there moves nothing on
                    done.append((gid, None, None))
                    continue
                seat = active[0]
                result = games.submit_order(s, gid, seat, game.step,
                                            [str(state.legal_actions(seat)[0])])
            done.append((gid, result.step, committed[0]))
        pipe.send(done)


def setup(url: str, games_count: int) -> list[int]:
    from sqlmodel import Session

    from server import db
    from server.services import games
    from server.services.users import create_user

    db.migrate(url)
    eng = db.make_engine(url)
    ids = []
    with Session(eng) as session:
        for i in range(games_count):
            users = {seat: create_user(session, f"{seat}{i}@bench.invalid").id
                     for seat in ("kennedy", "nixon")}
            ids.append(games.create_game(session, "tmotp", {}, users, seed=f"live-{i}",
                                         public=True).id)
    eng.dispose()
    return ids


def step_of(url: str, gid: int) -> int:
    import sqlite3

    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        return conn.execute("SELECT step FROM game WHERE id = ?", (gid,)).fetchone()[0]


# --- the client: every stream on raw sockets, one thread ----------------------------------------
class Stream:
    def __init__(self, port: int, gid: int, step: int, selector):
        self.gid, self.status, self.ready, self.closed = gid, None, False, False
        self.buf, self.seen = b"", {}
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /games/{gid}/events?step={step} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        selector.register(self.sock, selectors.EVENT_READ, self)

    def readable(self, selector) -> None:
        now = time.monotonic()
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close(selector)
            return
        start = max(0, len(self.buf) - 40)
        self.buf += data
        if self.status is None and b"\r\n" in self.buf:
            self.status = int(self.buf.split(b" ", 2)[1])
            if self.status != 200:
                self.close(selector)
        if b"retry:" in self.buf:
            self.ready = True
        for found in EVENT.finditer(self.buf, start):
            self.seen.setdefault(int(found.group(1)), now)
        if len(self.buf) > 4096:
            self.buf = self.buf[-200:]

    def close(self, selector) -> None:
        if not self.closed:
            self.closed = True
            selector.unregister(self.sock)
            self.sock.close()


def pump(selector, until, timeout: float) -> None:
    """Read what arrives until ``until()`` or ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not until() and time.monotonic() < deadline:
        for key, _ in selector.select(0.05):
            key.data.readable(selector)


def open_streams(port: int, url: str, ids: list[int], per_game: int, selector) -> list[Stream]:
    streams = [Stream(port, gid, step_of(url, gid), selector) for gid in ids
               for _ in range(per_game)]
    pump(selector, lambda: all(s.ready or s.status not in (None, 200) for s in streams), 60)
    return streams


def move_and_hear(pipe, selector, streams: list[Stream], ids: list[int]) -> tuple[list, int]:
    """Move each game once (one writer call); return (every listening stream's latency in s,
    how many listening streams missed the news within 10 s)."""
    pipe.send(ids)
    while not pipe.poll(0):
        pump(selector, lambda: pipe.poll(0), 0.05)
    moved = {gid: (step, at) for gid, step, at in pipe.recv() if step is not None}
    listening = [s for s in streams if s.gid in moved and s.ready and not s.closed]
    pump(selector, lambda: all(moved[s.gid][0] in s.seen for s in listening), 10)
    got = [s.seen[moved[s.gid][0]] - moved[s.gid][1] for s in listening
           if moved[s.gid][0] in s.seen]
    return got, len(listening) - len(got)


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def ms(values, q) -> str:
    return f"{percentile(values, q) * 1000:.0f} ms"


def post_worker_init(worker) -> None:
    """The gunicorn hook of ``--order-path``'s servers (-c python:bench.live_streams): the
    production one, and with BENCH_LIVE_NEWS=off no news published (the order path as it was
    before the live news)."""
    from server.gunicorn_conf import post_worker_init as production

    production(worker)
    if os.environ.get("BENCH_LIVE_NEWS") == "off":
        from server.services import live

        live.publish = lambda news, url=None: 0


ARMS = {  # label: (GUNICORN_CMD_ARGS, extra environment)
    "no-news": ("", {"BENCH_LIVE_NEWS": "off"}),
    "sync": ("", {}),
    "gthread": ("--worker-class gthread --threads 256", {}),
}


def serve_and_play(label: str, template: Path, plans: list, clients: int, broker: str) -> float:
    """bench/order_throughput.py's real app on a fresh copy of ``template``, 2 workers of the
    arm ``label``; return its orders per second."""
    import order_throughput as ot

    folder = Path(tempfile.mkdtemp(prefix=f"ws-bench-{label}-"))
    try:
        shutil.copy(template, folder / "bench.db")
        env = {k: v for k, v in os.environ.items() if not k.startswith("WHISTLESTOP_")}
        env.update(WHISTLESTOP_VAR_DIR=str(folder / "var"),
                   WHISTLESTOP_DATABASE_URL=f"sqlite:///{folder / 'bench.db'}",
                   WHISTLESTOP_BROKER_URL=broker, WHISTLESTOP_RESULT_BACKEND="",
                   PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'bench'}",
                   GUNICORN_CMD_ARGS=ARMS[label][0], **ARMS[label][1])
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}",
             "--control-socket", str(folder / "g.ctl"), "-c", "python:bench.live_streams",
             "server.app:create_app()"],
            cwd=ROOT, env=env, stdout=(folder / "gunicorn.log").open("wb"),
            stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, label)
            time.sleep(1.0)  # let both workers boot
            orders, seconds, errors = ot.run_clients(port, plans, clients)
        finally:
            server.terminate()
            server.wait(30)
        rate = orders / seconds
        print(f"    {label:8} {orders} orders in {seconds:.2f} s: {rate:.1f} orders/s"
              + (f"  ({len(errors)} errors, first: {errors[0][:300]})" if errors else ""))
        return rate
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def order_path(rounds: int, games: int = 40, clients: int = 4) -> None:
    """Orders per second of the three arms, by turns, in the same minutes."""
    import order_throughput as ot

    print(f"Order submissions through gunicorn (2 workers): no-news (sync, no live news "
          f"published: before the change), sync (the web process now), gthread (256 threads); "
          f"SQLite, broker Redis, {games} games, {clients} clients, {rounds} rounds")
    folder = Path(tempfile.mkdtemp(prefix="ws-bench-order-path-"))
    redis, port = start_redis(folder)
    try:
        url, plans = ot.setup(folder, games)
        template = Path(url.removeprefix("sqlite:///"))
        labels = list(ARMS)
        rates: dict = {label: [] for label in labels}
        for r in range(1, rounds + 1):
            print(f"  round {r}")
            for label in labels[r % 3:] + labels[:r % 3]:  # each arm first in turn
                rates[label].append(serve_and_play(label, template, plans, clients,
                                                   f"redis://127.0.0.1:{port}/0"))
            print(f"    ratios to no-news: sync {rates['sync'][-1] / rates['no-news'][-1]:.3f}"
                  f", gthread {rates['gthread'][-1] / rates['no-news'][-1]:.3f}")
    finally:
        redis.terminate()
        redis.wait(30)
        shutil.rmtree(folder, ignore_errors=True)
    ratio = {label: statistics.median(a / b for a, b in zip(rates[label], rates["no-news"]))
             for label in ("sync", "gthread")}
    print(f"orders/s, medians of {rounds} rounds: "
          + ", ".join(f"{label} {statistics.median(rates[label]):.1f}" for label in labels)
          + f"; median ratio to no-news: sync {ratio['sync']:.3f}, gthread {ratio['gthread']:.3f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="100,300,600",
                        help="numbers of streams to hold, comma-separated (default 100,300,600)")
    parser.add_argument("--threads", type=int, default=1024,
                        help="the worker's threads (WHISTLESTOP_LIVE_THREADS; default 1024)")
    parser.add_argument("--broker", choices=("filesystem", "redis"), default="filesystem")
    parser.add_argument("--samples", type=int, default=20, help="quiet moves per level")
    parser.add_argument("--order-path", type=int, metavar="ROUNDS", default=0,
                        help="measure the order path instead (see above)")
    args = parser.parse_args(argv)
    if args.order_path:
        order_path(args.order_path)
        return 0
    levels = [int(n) for n in args.streams.split(",")]
    per_game = 2
    games_count = max(levels) // per_game + args.samples + 2
    folder = Path(tempfile.mkdtemp(prefix="ws-bench-live-"))
    procs: list[subprocess.Popen] = []
    try:
        url = f"sqlite:///{folder / 'bench.db'}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("WHISTLESTOP_")}
        env.update(WHISTLESTOP_VAR_DIR=str(folder / "var"), WHISTLESTOP_DATABASE_URL=url,
                   WHISTLESTOP_BROKER_DIR=str(folder / "broker"), WHISTLESTOP_RESULT_BACKEND="",
                   WHISTLESTOP_LIVE_THREADS=str(args.threads), PYTHONPATH=str(ROOT),
                   # every stream here is one anonymous client's: let it hold them all
                   WHISTLESTOP_LIVE_STREAMS_PER_CLIENT=str(args.threads),
                   WHISTLESTOP_LIVE_ANONYMOUS_SHARE="1")
        if args.broker == "redis":
            redis, rport = start_redis(folder)
            procs.append(redis)
            env["WHISTLESTOP_BROKER_URL"] = f"redis://127.0.0.1:{rport}/0"
        else:
            env["WHISTLESTOP_BROKER_URL"] = "filesystem://"
        os.environ.update(env)
        print(f"Live news streams: the live process, one gthread worker ({args.threads} threads, "
              f"at most "
              f"{args.threads - 8} streams), SQLite, news by "
              f"{'Redis pub/sub' if args.broker == 'redis' else 'reading the rows every 0.5 s'}"
              f", {per_game} streams per game, {os.cpu_count()} CPUs (shared, noisy)")
        ids = setup(url, games_count)
        port = free_port()
        env["WHISTLESTOP_LIVE_PORT"] = str(port)
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_live",
             "server.app:create_app()"],
            cwd=ROOT, env=env, stdout=(folder / "gunicorn.log").open("wb"),
            stderr=subprocess.STDOUT)
        procs.append(server)
        wait_for_port(port, f"gunicorn (see {folder / 'gunicorn.log'})")
        time.sleep(1.0)
        worker = worker_pid(server.pid)
        ours, theirs = multiprocessing.Pipe()
        child = multiprocessing.get_context("spawn").Process(target=writer,
                                                             args=(url, env, theirs))
        child.start()

        selector = selectors.DefaultSelector()
        pool = iter(ids[max(levels) // per_game:])
        # The limit: one stream, one move at a time.
        gid = next(pool)
        alone = open_streams(port, url, [gid], 1, selector)
        limit = []
        for _ in range(args.samples):
            got, _missed = move_and_hear(ours, selector, alone, [gid])
            limit += got
            time.sleep(random.uniform(0.05, 0.55))  # at no fixed phase of the reads
        for s in alone:
            s.close(selector)
        print(f"  limit (1 stream, {len(limit)} moves): p50 {ms(limit, 50)}, "
              f"p95 {ms(limit, 95)}")

        for n in levels:
            games = ids[:n // per_game]
            began = time.monotonic()
            streams = open_streams(port, url, games, per_game, selector)
            opened = time.monotonic() - began
            statuses: dict = {}
            for s in streams:
                statuses[s.status] = statuses.get(s.status, 0) + 1
            held = [s for s in streams if s.ready]
            cpu0, t0 = cpu_seconds(worker), time.monotonic()
            pump(selector, lambda: False, 5)
            cpu = (cpu_seconds(worker) - cpu0) / (time.monotonic() - t0)
            quiet, missed = [], 0
            for i in range(args.samples):
                got, miss = move_and_hear(ours, selector, held, [games[i % len(games)]])
                quiet += got
                missed += miss
                time.sleep(random.uniform(0.05, 0.55))
            burst, burst_missed = move_and_hear(ours, selector, held, games)
            print(f"  {n} streams: {len(held)} held (opened in {opened:.1f} s; answers "
                  f"{dict(sorted(statuses.items(), key=str))}), worker idle CPU "
                  f"{cpu * 100:.1f} % of a core, RSS {rss_mb(worker):.0f} MB")
            print(f"    quiet moves: p50 {ms(quiet, 50)}, p95 {ms(quiet, 95)} "
                  f"({len(quiet)} news heard, {missed} missed)")
            print(f"    burst of {len(games)} moves: p50 {ms(burst, 50)}, p95 {ms(burst, 95)} "
                  f"({len(burst)} news heard, {burst_missed} missed); p95 ratio to the limit "
                  f"{percentile(burst, 95) / percentile(limit, 95):.1f}, to the goal "
                  f"{percentile(burst, 95) / GOAL_S:.2f}")
            for s in streams:
                s.close(selector)
            # The server notices a closed stream when a heartbeat (every 15 s) fails, the second
            # after the close at the latest, and frees its thread then.
            time.sleep(31.0)
        ours.send(None)
        child.join(10)
    finally:
        stop(procs)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
