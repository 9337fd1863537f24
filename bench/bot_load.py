"""Bot games as the load: many bot-against-bot games at once through the real API and workers.

Run from the repository root:  python bench/bot_load.py [--games N] [--game mrpresident|tmotp]
                                   [--level random|greedy|strong] [--db-url URL | --postgres]
                                   [--mix mrpresident=10000,tmotp=2000] [--minutes M]

Starts a redis-server of its own (the production broker; the embedded filesystem broker with
``--broker filesystem``), gunicorn serving the app (2 workers) and a Celery worker (concurrency
2, with beat: the outbox relay) on a fresh SQLite database (``--db-url`` for PostgreSQL). One
user (its token made in the database, as the sign-up's mailed link makes one) opens N games
whose every seat is a bot, by POST /api/v1/games and /start: all N games are in play at once. Mr. President (chalkboard, two
candidates; the default): every round a sealed step of both bots resolved by the worker. 1960
(``--game tmotp``, GMT edition): about 260 decisions a game, most of them sequential (each
answered by the bot's task in its own transaction), the Campaign Strategy and Debate steps
sealed. It waits until all are
finished (or ``--minutes`` run out) and prints:

- throughput: games finished and orders applied per second;
- resolution latency: from a round's last sealed order to its resolution (the orders' rows:
  the last one's created_at to the step's applied updated_at), p50/p95, against the worker's
  no-op round trip measured in the same run (whistlestop.ping, p50/p95) - their ratio;
- worker memory over time: the RSS of the worker and its children, every 10 s;
- database size per finished game (the SQLite file, or pg_database_size);
- mails needing an answer per player per game: the decisions a player in each seat would have
  been asked (the bot_move rows: the server asks a bot exactly where it would mail a person;
  forced choices and the sealed ones answered for the seat are not asked);
- an order's game load (the game's row and its engine state, as the order service loads it)
  every 20 s (``--probe-every``): of a few games in play against their log's length, and of one finished game of
  each kind against the games in play (``LoadProbe``; ratio of the medians of the two ends'
  fifths, goal <= 1.5).

``--mix`` plays several games at once (``mrpresident=10000,tmotp=2000``: issue 28's 12,000);
``--postgres`` runs on a PostgreSQL 15 cluster of the bench's own (``tests/services.py``: no
fsync, 256 MB of shared buffers).

No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

from common import ROOT, free_port, percentile  # noqa: E402  (puts the repository on sys.path)
from resolution_latency import configure, noop_round_trips  # noqa: E402

GAMES = {"mrpresident": ("Mr. President (chalkboard, 2 candidates)",
                          {"edition": "chalkboard", "players": 2}, ("p1", "p2")),
         "tmotp": ("1960 (GMT edition)", {"edition": "gmt"}, ("kennedy", "nixon"))}


def start_worker(env: dict, folder: Path, beat: bool = True) -> subprocess.Popen:
    """A Celery worker of concurrency 2, with beat inside unless ``beat`` is False."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--concurrency",
         "2", "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
         "--without-mingle",
         *(["--beat", "--schedule", str(folder / "beat-schedule")] if beat else [])],
        cwd=ROOT, env=env, stdout=(folder / "worker.log").open("wb"), stderr=subprocess.STDOUT)


def start_beat(env: dict, folder: Path) -> subprocess.Popen:
    """Celery beat in a process of its own, as the Procfile runs it."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "--loglevel",
         "WARNING", "--schedule", str(folder / "beat-schedule")],
        cwd=ROOT, env=env, stdout=(folder / "beat.log").open("wb"), stderr=subprocess.STDOUT)


def rss_kib(pid: int) -> int:
    """The resident memory of a process and its descendants, in KiB (0 when gone)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
            todo += [int(k) for k in kids]
        except OSError:
            continue
    return total


def api_token(eng) -> str:
    """The bench player's API token, made as the sign-up's mailed link leads to one."""
    from sqlmodel import Session

    from server.services import users
    with Session(eng) as session:
        user = users.create_user(session, "load@bench.invalid")
        users.prove_address(session, user)
        session.commit()
        return users.issue_token(session, user.id)


def open_games(base: str, n: int, level: str, game: str, token: str) -> tuple[dict, list[int]]:
    auth = {"Authorization": f"Bearer {token}"}
    ids = []
    session = requests.Session()  # one kept connection (12,000 games: no port left per game)
    for _ in range(n):
        r = session.post(f"{base}/api/v1/games", headers=auth, timeout=60, json={
            "game_type": game, "options": GAMES[game][1], "seats": {},
            "bots": {seat: level for seat in GAMES[game][2]}})
        r.raise_for_status()
        ids.append(r.json()["game"]["id"])
    return auth, ids


def start_games(base: str, auth: dict, ids: list[int]) -> None:
    session = requests.Session()
    for gid in ids:
        session.post(f"{base}/api/v1/games/{gid}/start", headers=auth, timeout=60) \
            .raise_for_status()


def play_reference_games(base: str, token: str, level: str, kinds, eng,
                         minutes: float = 15) -> dict[str, int]:
    """One game of each kind, played to its end on the idle system before the load starts:
    the probe's fixed point, so that its samples span the whole run."""
    from sqlmodel import Session

    from server.models import Game
    reference = {}
    for kind in kinds:
        auth, (gid,) = open_games(base, 1, level, kind, token)
        start_games(base, auth, [gid])
        reference[kind] = gid
    deadline = time.perf_counter() + minutes * 60
    while time.perf_counter() < deadline:
        with Session(eng) as s:
            if all(s.get(Game, gid).status == "finished" for gid in reference.values()):
                return reference
        time.sleep(1)
    raise SystemExit(f"the reference games {reference} did not finish in {minutes} minutes")


def finished_count(eng, leave_out=()) -> tuple[int, int]:
    """Finished games and non-chance orders, leaving out the reference games."""
    from sqlalchemy import func
    from sqlmodel import Session, select

    from server.models import Game, LogEntry
    with Session(eng) as s:
        done = s.exec(select(func.count()).select_from(Game)
                      .where(Game.status == "finished", Game.id.not_in(leave_out))).one()
        logged = s.exec(select(func.count()).select_from(LogEntry)
                        .where(LogEntry.is_chance.is_(False),
                               LogEntry.game_id.not_in(leave_out))).one()
    return done, logged


def resolution_latencies(eng) -> list[float]:
    """Per resolved sealed step (two orders or more: a sequential one is applied in its own
    request): its last order's commit to its resolution, in ms."""
    from sqlalchemy import func
    from sqlmodel import Session, select

    from server.models import Order
    with Session(eng) as s:
        steps = s.exec(select(func.max(Order.created_at), func.min(Order.updated_at))
                       .where(Order.status == "applied")
                       .group_by(Order.game_id, Order.step)
                       .having(func.count() >= 2)).all()
    return [max(0.0, (resolved - last).total_seconds() * 1000) for last, resolved in steps]


class LoadProbe:
    """An order's game load, timed every ``every`` seconds (median of three loads):

    - of ``per`` random games in play, with their log's length: the load against the log;
    - of one reference game of each kind, played to its end before the load starts (its state
      no longer changes): the load against the games in play, which fall from all of them to
      none during the run. (Stop 40's probe took the first game to finish, so 1960's samples
      all fell in the run's last minutes.)"""

    def __init__(self, eng, reference: dict[str, int], every: float = 20, per: int = 6):
        import random
        self.eng, self.every, self.per = eng, every, per
        self.rng = random.Random(28)
        self.in_play: list[tuple[int, float, str]] = []  # (log entries, ms, kind)
        self.reference = dict(reference)  # kind -> a finished game's id
        self.fixed: list[tuple[int, float, str]] = []  # (games in play, ms, kind)

    def run(self, stop: threading.Event) -> None:
        while not stop.wait(self.every):
            try:
                self.probe()
            except Exception as exc:  # a probe is a reading; the run goes on without it
                print(f"load probe: {type(exc).__name__}: {exc}", flush=True)

    def _load_ms(self, gid: int) -> float:
        from sqlmodel import Session

        from server.services import games
        times = []
        for _ in range(3):
            with Session(self.eng) as s:
                t0 = time.perf_counter()
                games._load(games.game_row(s, gid), copy=False)
                times.append((time.perf_counter() - t0) * 1000)
        return sorted(times)[1]

    def probe(self) -> None:
        from sqlalchemy import func
        from sqlmodel import Session, select

        from server.models import Game, LogEntry
        with Session(self.eng) as s:
            active = s.exec(select(Game.id, Game.game_type)
                            .where(Game.status == "active")).all()
        for kind, gid in self.reference.items():
            self.fixed.append((len(active), self._load_ms(gid), kind))
        for gid, kind in self.rng.sample(active, min(self.per, len(active))):
            ms = self._load_ms(gid)
            with Session(self.eng) as s:
                entries = s.exec(select(func.count()).select_from(LogEntry)
                                 .where(LogEntry.game_id == gid)).one()
            self.in_play.append((entries, ms, kind))

    def report(self) -> None:
        """Each kind of game on its own (their states differ in size by far more than 1.5);
        each comparison between its fifth of the samples at one end and at the other."""
        for kind in sorted({r[2] for r in self.in_play + self.fixed}):
            self._compare(f"an order's game load, {kind}, against the game's log entries",
                          [r[:2] for r in self.in_play if r[2] == kind], "entries")
            self._compare(f"a finished {kind} game's load against the games in play",
                          [r[:2] for r in self.fixed if r[2] == kind], "games in play")

    @staticmethod
    def _compare(what: str, samples: list[tuple[int, float]], unit: str) -> None:
        if len(samples) < 10:
            print(f"{what}: {len(samples)} samples, too few to compare")
            return
        samples = sorted(samples)
        fifth = len(samples) // 5
        low, high = samples[:fifth], samples[-fifth:]
        low_ms = percentile([ms for _, ms in low], 50)
        high_ms = percentile([ms for _, ms in high], 50)
        print(f"{what} ({len(samples)} samples): {low_ms:.2f} ms at {low[-1][0]} {unit} or "
              f"fewer, {high_ms:.2f} ms at {high[0][0]} or more: ratio {high_ms / low_ms:.2f} "
              f"(goal <= 1.5)")


def asked_per_seat(eng, games: int, seats: int) -> float:
    from sqlalchemy import func
    from sqlmodel import Session, select

    from server.models import OutboxMessage
    with Session(eng) as s:
        asked = s.exec(select(func.count()).select_from(OutboxMessage)
                       .where(OutboxMessage.kind == "bot_move")).one()
    return asked / max(1, games * seats)


def database_bytes(db_url: str, folder: Path, eng) -> int:
    if db_url.startswith("sqlite"):
        return sum(p.stat().st_size for p in folder.glob("bench.db*"))
    from sqlalchemy import text
    with eng.connect() as c:
        return c.execute(text("select pg_database_size(current_database())")).scalar()


def parse_mix(text: str) -> dict[str, int]:
    """``mrpresident=10000,tmotp=2000`` -> {"mrpresident": 10000, "tmotp": 2000}."""
    mix = {}
    for part in text.split(","):
        game, _, n = part.partition("=")
        if game.strip() not in GAMES or not n.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"{part!r}: write GAME=N with GAME one of {', '.join(sorted(GAMES))}")
        mix[game.strip()] = int(n)
    return mix


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games at once (default 1000)")
    parser.add_argument("--level", default="random", help="the bots' level (default random)")
    parser.add_argument("--game", default="mrpresident", choices=sorted(GAMES),
                        help="the game (default mrpresident)")
    parser.add_argument("--mix", type=parse_mix, default=None,
                        help="several games at once, e.g. mrpresident=10000,tmotp=2000 "
                             "(instead of --game and --games)")
    parser.add_argument("--broker", default="redis", choices=("redis", "filesystem"))
    parser.add_argument("--db-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--postgres", action="store_true",
                        help="a PostgreSQL 15 cluster of the bench's own")
    parser.add_argument("--minutes", type=float, default=60, help="give up after (default 60)")
    parser.add_argument("--probe-every", type=float, default=20,
                        help="seconds between two probes of the game load (default 20)")
    args = parser.parse_args(argv)
    mix = args.mix or {args.game: args.games}
    total = sum(mix.values())
    postgres = None
    if args.postgres:
        from tests.services import PostgresServer
        postgres = PostgresServer({"shared_buffers": "256MB"}).start()
        args.db_url = postgres.url(postgres.create_database())
    folder = Path(tempfile.mkdtemp(prefix="ws-bot-load-"))
    env, procs = configure(folder, args.broker if shutil.which("redis-server") else
                           "filesystem", args.db_url)
    # One user opens every game: the per-user limits (server/rate_limits.py) are lifted here.
    lifted = {"WHISTLESTOP_ALL_BOT_GAMES_PER_USER": str(total + len(mix)),
              "WHISTLESTOP_RATE_GAMES_PER_USER": f"{total + len(mix)}/day"}
    env.update(lifted)
    os.environ.update(lifted)
    db_url = os.environ["WHISTLESTOP_DATABASE_URL"]
    # Imported once the environment names the broker: importing the server configures this
    # process's Celery app (the pings and publishes), which would else take the embedded default.
    from order_throughput import serve
    from server import db
    db.migrate(db_url)
    eng = db.make_engine(db_url)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    web = serve("server.app:create_app()", port, env, folder / "gunicorn.log")
    worker = start_worker(env, folder)
    procs += [web, worker]
    memory: list[tuple[float, int]] = []
    stop = threading.Event()
    try:
        pings = noop_round_trips(50)
        token = api_token(eng)
        t0 = time.perf_counter()
        reference = play_reference_games(base, token, args.level, mix, eng)
        print(f"reference games {reference} played to their end in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
        opened = {game: open_games(base, n, args.level, game, token) for game, n in mix.items()}
        began = time.perf_counter()
        probe = LoadProbe(eng, reference, args.probe_every)

        def sample() -> None:
            while not stop.is_set():
                memory.append((time.perf_counter() - began, rss_kib(worker.pid)))
                stop.wait(10)
        threading.Thread(target=sample, daemon=True).start()
        threading.Thread(target=probe.run, args=(stop,), daemon=True).start()
        # Started in turns of each game, so that every kind is in play from the start.
        order = sorted(((i / len(ids), gid) for auth, ids in opened.values()
                        for i, gid in enumerate(ids)))
        start_games(base, next(iter(opened.values()))[0], [gid for _, gid in order])
        what = " and ".join(f"{n} games of {GAMES[game][0]}" for game, n in mix.items())
        print(f"{what}, {args.level} bots, started in {time.perf_counter() - began:.1f} s "
              f"through the API; waiting", flush=True)
        deadline = began + args.minutes * 60
        done, logged = 0, 0
        while time.perf_counter() < deadline:
            done, logged = finished_count(eng, list(reference.values()))
            if done >= total:
                break
            time.sleep(5)
        seconds = time.perf_counter() - began
        stop.set()
        latencies = resolution_latencies(eng)
        size = database_bytes(db_url, folder, eng)
        print(f"finished {done}/{total} games in {seconds:.0f} s: "
              f"{done / seconds:.2f} games/s, {logged / seconds:.1f} orders/s "
              f"({logged} orders)")
        print(f"resolution of a sealed step: p50 {percentile(latencies, 50):.0f} ms, p95 "
              f"{percentile(latencies, 95):.0f} ms ({len(latencies)} steps); no-op task round "
              f"trip p50 {percentile(pings, 50):.1f} ms, p95 {percentile(pings, 95):.1f} ms; "
              f"ratio of the p95s {percentile(latencies, 95) / percentile(pings, 95):.1f}")
        print("worker memory (RSS of the worker and its children), MiB: " + ", ".join(
            f"{t:.0f}s {kib / 1024:.0f}" for t, kib in memory))
        probe.report()
        print(f"database: {size / 1e6:.1f} MB, {size / max(1, done) / 1e3:.1f} kB per finished "
              f"game")
        if len(mix) == 1:  # the bot_move rows do not say their game's kind
            (game, n), = mix.items()
            print(f"decisions a player would be asked (mails needing an answer) per seat per "
                  f"game: {asked_per_seat(eng, n, len(GAMES[game][2])):.1f}")
    finally:
        stop.set()
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        eng.dispose()
        shutil.rmtree(folder, ignore_errors=True)
        if postgres is not None:
            postgres.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
