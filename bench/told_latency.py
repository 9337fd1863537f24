"""Move-to-told latency: from the commit of a seat's order to the next seat's decision mail taken
by a real SMTP server, and to the next seat's open game page hearing of it.

Run from the repository root:
    python bench/told_latency.py                               # embedded default, idle
    python bench/told_latency.py --broker redis --db postgresql
    python bench/told_latency.py --load 1000                   # with 1,000 bot games running
    python bench/told_latency.py --hold 3 --samples 10         # movers who hold their moves

The Procfile's processes, started with its own commands on a fresh database: `worker` (its Celery
app with a note of each task's start and end: bench/told_probe.py), `beat`, `live` (the game
pages' streams) and, with ``--load``, `web`. The embedded default (``--broker filesystem --db
sqlite``, the defaults) or production's stores (``--broker redis``: a redis-server of the
bench's own; ``--db postgresql``: a throwaway PostgreSQL cluster, tests/services.py, or
``--db-url``). Outbound mail goes to a real aiosmtpd server in a process of its own
(bench/mail_throughput.py), which notes when it takes each message (its Message-ID names the
outbox row).

Two kinds of move, played through the order service in this process (the commit noted by the
session's after_commit), each with the game's page open on the live process (a raw socket,
as bench/live_streams.py listens), after a random pause (no fixed phase of the pollers):
- **hand-off**: a sequential order of 1960 that leaves the decision to the other seat: to the
  other seat's decision mail, and to the page hearing the new step;
- **sealed step**: the last sealed order of a step (Mr. President's rounds, 1960's Campaign
  Strategy and Debates): the resolution by the worker, then every seat asked is mailed (the
  last of their mails) and the page hears the new step.
The players hold nothing (``retract_hold_seconds`` 0: no take-back); with ``--hold S`` they
hold their moves S seconds and only the hand-offs' mails are measured, less the hold.

Measured in the same run: the limit, a no-op task's round trip (whistlestop.ping; before the
load), and one SMTP send of a decision mail to the same server over a kept session (as the
worker sends). Prints p50/p95 of each latency, its ratios to those, where the time goes (from
the worker's notes: waiting for the worker, the task's own time), the worker's time by task
with ``--load``, and the goals: on Redis, idle, p95 within 100 ms of the no-op's p95 plus an
SMTP send's; on the embedded default, p95 under 1 s. No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import email
import json
import os
import platform
import random
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from common import ROOT, free_port, percentile, procfile, stop, wait_for_port  # noqa: E402
from live_streams import Stream, pump  # noqa: E402
from mail_throughput import SmtpSink  # noqa: E402
from resolution_latency import configure, noop_round_trips  # noqa: E402

REDIS_GAP_MS = 100.0  # Redis, idle: p95 within this of the no-op's p95 plus an SMTP send's
EMBEDDED_MS = 1000.0  # the embedded default, idle: p95 under this
SETTLED = 10  # with --load, sampling starts once a tenth of the first games have ended
SETTLE_MAX = 900.0  # or after this many seconds
WARM_UP = 3  # moves of each kind measured first and left out
TIMEOUT = 180.0  # seconds a sample may wait for its mail or its page
MESSAGE_ID = re.compile(rb"^Message-ID: <wso\.(\d+)\.", re.M)
TABLES = {"sequential": ("tmotp", {}, ("kennedy", "nixon")),
          "sealed": ("mrpresident", {"edition": "chalkboard", "players": 2}, ("p1", "p2"))}


@dataclass
class Sample:
    kind: str  # "sequential" | "sealed"
    game_id: int
    step: int
    committed: float  # time.monotonic() of the commit
    page: float | None = None  # when the page heard the new step
    rows: dict = field(default_factory=dict)  # decision mails: outbox row id -> seat
    mailed: dict = field(default_factory=dict)  # outbox row id -> when the server took it
    hold: float = 0.0  # the mover's hold (seconds), if the move was held

    @property
    def mail_ms(self) -> float:
        return (max(self.mailed.values()) - self.committed - self.hold) * 1000

    @property
    def page_ms(self) -> float:
        return (self.page - self.committed) * 1000


class Bench:
    """The running set-up: this process's engine, the SMTP server's notes, the live port."""

    def __init__(self, url: str, sink: SmtpSink, live_port: int, hold: int, rng):
        from sqlalchemy import event
        from sqlmodel import Session

        from server import config, db

        self.engine = db.make_engine(url)
        self.sink, self.live_port, self.hold, self.rng = sink, live_port, hold, rng
        # The pause before a move: a random phase of the pollers (the live watcher's reads
        # every 0.5 s, an idle worker's looks), or with a hold of beat's relay, which sends the
        # held mails once due.
        self.pause = 0.55 if not hold else \
            float(config.from_env()["OUTBOX_RELAY_SECONDS"]) + 0.05
        self.arrivals: dict[int, float] = {}  # outbox row id -> first taken
        self.last_mail: bytes = b""
        self.selector = selectors.DefaultSelector()
        self.committed = [0.0]
        self.tables: dict[str, int] = {}
        self.made = 0

        @event.listens_for(Session, "after_commit")
        def _committed(_session) -> None:
            self.committed[0] = time.monotonic()

    def drain_mail(self) -> None:
        from queue import Empty

        while True:
            try:
                at, data = self.sink.arrivals.get_nowait()
            except Empty:
                return
            found = MESSAGE_ID.search(data)
            if found:
                self.arrivals.setdefault(int(found.group(1)), at)
                self.last_mail = data

    # --- games ------------------------------------------------------------------------------
    def new_game(self, kind: str) -> int:
        from sqlmodel import Session

        from server.services import games, users

        game_type, options, seats = TABLES[kind]
        self.made += 1
        with Session(self.engine) as s:
            ids = {}
            for seat in seats:
                user = users.create_user(s, f"{seat}-{self.made}@bench.invalid")
                users.prove_address(s, user)
                user.retract_hold_seconds = self.hold
                s.add(user)
                s.commit()
                ids[seat] = user.id
            gid = games.create_game(s, game_type, options, ids, seed=f"told-{self.made}",
                                    public=True).id
        self.tables[kind] = gid
        return gid

    def position(self, gid: int):
        """(step, engine state, seats with a sealed order) of the game now."""
        import engine.core as engine
        from sqlmodel import Session

        from server.models import Game
        from server.services import games

        with Session(self.engine) as s:
            game = s.get(Game, gid)
            state = engine.from_dict(game.state)
            sealed = games.pending_seats(s, gid, game.step) if len(state.active()) > 1 \
                else set()
            return game.step, state, sealed

    def order(self, gid: int, seat: str, step: int, state):
        from sqlmodel import Session

        from server.services import games

        with Session(self.engine) as s:
            return games.submit_order(s, gid, seat, step,
                                      [str(self.rng.choice(state.legal_actions(seat)))])

    def decision_rows(self, gid: int, after: int) -> dict[int, str]:
        """The decision mails written for the game after outbox row ``after``: row -> seat."""
        from sqlmodel import Session, select

        from server.models import OutboxMessage

        with Session(self.engine) as s:
            rows = s.exec(select(OutboxMessage.id, OutboxMessage.payload).where(
                OutboxMessage.id > after, OutboxMessage.kind == "your_decision")).all()
        return {i: p["seat"] for i, p in rows if p.get("game_id") == gid}

    def last_row(self) -> int:
        from sqlalchemy import func
        from sqlmodel import Session, select

        from server.models import OutboxMessage

        with Session(self.engine) as s:
            return s.exec(select(func.max(OutboxMessage.id))).one() or 0

    # --- one move, measured ---------------------------------------------------------------------
    def measure(self, kind: str, gid: int, seat: str, step: int, state) -> Sample | None:
        """Commit ``seat``'s random order with the page open; the sample, or None when nobody
        else was asked (the mover decides again, or the game ended)."""
        stream = Stream(self.live_port, gid, step, self.selector)
        pump(self.selector, lambda: stream.ready or stream.closed, 30)
        if not stream.ready:
            raise RuntimeError(f"the live stream of game {gid} did not open ({stream.status})")
        pump(self.selector, lambda: False, self.rng.uniform(0.05, self.pause))
        mark = self.last_row()
        result = self.order(gid, seat, step, state)
        sample = Sample(kind, gid, step, self.committed[0])
        if result.retract_until is not None:
            sample.hold = float(self.hold)
        heard = lambda: any(s > step for s in stream.seen)  # noqa: E731
        if kind == "sequential":
            sample.rows = {r: s for r, s in self.decision_rows(gid, mark).items() if s != seat}
            if not sample.rows:
                stream.close(self.selector)
                return None
        pump(self.selector, lambda: heard() or stream.closed, TIMEOUT)
        if heard():
            sample.page = min(t for s, t in stream.seen.items() if s > step)
        if kind == "sealed":
            sample.rows = self.decision_rows(gid, mark)
        stream.close(self.selector)
        deadline = time.monotonic() + TIMEOUT + sample.hold
        while time.monotonic() < deadline:
            self.drain_mail()
            if all(r in self.arrivals for r in sample.rows):
                break
            time.sleep(0.005)
        sample.mailed = {r: self.arrivals[r] for r in sample.rows if r in self.arrivals}
        if not sample.rows or len(sample.mailed) < len(sample.rows) or sample.page is None:
            print(f"    (game {gid} step {step}: {len(sample.mailed)}/{len(sample.rows)} "
                  f"mails, page {'heard' if sample.page else 'not heard'}; left out)",
                  flush=True)
            return None
        return sample

    def next_sample(self, kind: str) -> Sample:
        """Play the kind's game to its next move of that kind and measure it (moves of the other
        kind on the way are played without a measure)."""
        for _ in range(5000):
            gid = self.tables.get(kind) or self.new_game(kind)
            step, state, sealed = self.position(gid)
            active = state.active()
            if not active:
                self.new_game(kind)
                continue
            if len(active) == 1:
                if kind == "sequential":
                    found = self.measure(kind, gid, active[0], step, state)
                    if found is not None:
                        return found
                else:
                    self.order(gid, active[0], step, state)
                continue
            left = [s for s in active if s not in sealed]
            for seat in left[:-1]:
                self.order(gid, seat, step, state)
            if kind == "sealed":
                found = self.measure(kind, gid, left[-1], step, state)
                if found is not None:
                    return found
            else:  # a sealed step in the hand-offs' game: resolved, then on
                self.order(gid, left[-1], step, state)
                self.wait_past(gid, step)
        raise RuntimeError(f"no {kind} move found")

    def wait_past(self, gid: int, step: int) -> None:
        for _ in range(int(TIMEOUT / 0.01)):
            if self.position(gid)[0] > step:
                return
            time.sleep(0.01)
        raise RuntimeError(f"game {gid} never got past step {step}")

    def smtp_sends(self, n: int) -> list[float]:
        """One decision mail sent ``n`` times over a kept session (the session opened and
        greeted untimed, as a worker keeps it), in ms."""
        from server.mail import smtp

        message = email.message_from_bytes(self.last_mail)
        times = []
        with smtp.Connection(smtp.SmtpSettings("127.0.0.1", self.sink.port)) as connection:
            eight_bit = connection.eight_bit()
            connection.send(message, eight_bit)
            for _ in range(n):
                t0 = time.perf_counter()
                connection.send(message, eight_bit)
                times.append((time.perf_counter() - t0) * 1000)
        return times


# --- the load --------------------------------------------------------------------------------
class Load(threading.Thread):
    """Keeps ``n`` bot games of Mr. President in play through the API (bench/bot_load.py's
    games: two random bots), opening and starting a new one as one ends."""

    def __init__(self, base: str, n: int, engine):
        import bot_load

        super().__init__(daemon=True)
        self.base, self.n, self.engine = base, n, engine
        self.token = bot_load.api_token(engine)
        self.stopping = threading.Event()
        self.started = 0

    def in_play(self) -> int:
        from sqlalchemy import func
        from sqlmodel import Session, select

        from server.models import Game, User

        with Session(self.engine) as s:
            return s.exec(select(func.count()).select_from(Game).join(
                User, User.id == Game.created_by).where(
                User.email == "load@bench.invalid", Game.status != "finished")).one()

    def top_up(self) -> None:
        import bot_load

        wanted = self.n - self.in_play()
        if wanted > 0:
            auth, ids = bot_load.open_games(self.base, wanted, "random", "mrpresident",
                                            self.token)
            bot_load.start_games(self.base, auth, ids)
            self.started += len(ids)

    def run(self) -> None:
        while not self.stopping.wait(1.0):
            self.top_up()


# --- the worker's notes ---------------------------------------------------------------------
def read_probe(path: Path) -> list[tuple[str, float, str, list]]:
    found = []
    if path.exists():
        for line in path.read_text().splitlines():
            event, at, name, args = line.split(" ", 3)
            found.append((event, float(at), name, json.loads(args)))
    return found


def breakdown(samples: list[Sample], notes) -> dict[str, list[float]]:
    """Where each sample's time went, in ms, from the worker's notes."""
    notify, resolve = {}, {}
    for event, at, name, args in notes:
        if name == "whistlestop.notify":
            notify.setdefault((event, args[0]), at)
        elif name == "whistlestop.resolve_step":
            resolve.setdefault((event, args[0], args[1]), at)
    parts: dict[str, list[float]] = {}

    def add(label: str, seconds: float) -> None:
        parts.setdefault(label, []).append(seconds * 1000)

    for s in samples:
        last = max(s.mailed, key=s.mailed.get)
        began = notify.get(("start", last))
        if began is None:
            continue
        if s.kind == "sequential":
            add("commit -> its mail's task starts", began - s.committed - s.hold)
        else:
            r0, r1 = resolve.get(("start", s.game_id, s.step)), resolve.get(("end", s.game_id,
                                                                                 s.step))
            if r0 is None or r1 is None:
                continue
            add("commit -> resolution starts", r0 - s.committed)
            add("resolution (the task)", r1 - r0)
            add("resolved -> last mail's task starts", began - r1)
        add("mail's task start -> SMTP server has it", s.mailed[last] - began)
    return parts


def worker_time(notes, since: float, until: float) -> dict[str, tuple[int, float]]:
    """Per task: (runs, seconds of the worker) between two moments."""
    started: dict = {}
    spent: dict[str, tuple[int, float]] = {}
    for event, at, name, args in notes:
        key = (name, json.dumps(args))
        if event == "start":
            started[key] = at
        elif key in started:
            began = started.pop(key)
            if since <= began <= until:
                runs, seconds = spent.get(name, (0, 0.0))
                spent[name] = (runs + 1, seconds + at - began)
    return spent


# --- printing --------------------------------------------------------------------------------
def stats(xs) -> str:
    return f"p50 {percentile(xs, 50):7.1f} ms  p95 {percentile(xs, 95):7.1f} ms"


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} CPUs ({model}), {platform.system()}; load average {load}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broker", choices=("filesystem", "redis"), default="filesystem")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--db-url", default=None, help="an existing database instead of --db")
    parser.add_argument("--samples", type=int, default=40, help="of each kind (default 40)")
    parser.add_argument("--load", type=int, default=0, help="bot games running (default 0)")
    parser.add_argument("--hold", type=int, default=0,
                        help="the movers' retract_hold_seconds (default 0: no hold)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ws-told-"))
    procs: list[subprocess.Popen] = []
    postgres = None
    db_url = args.db_url
    if db_url is None and args.db == "postgresql":
        sys.path.insert(0, str(ROOT))
        from tests.services import PostgresServer

        postgres = PostgresServer().start()
        db_url = postgres.url(postgres.create_database())
    sink = SmtpSink(in_thread=False, record=True)
    try:
        env, procs = configure(folder, args.broker, db_url)
        extra = {"WHISTLESTOP_MAIL_SMTP_PORT": str(sink.port),
                 "WHISTLESTOP_MAIL_CATCHER": "false",
                 "WHISTLESTOP_LIVE_PORT": str(free_port()), "PORT": str(free_port()),
                 "BENCH_PROBE_FILE": str(folder / "probe.log"),
                 # One user opens every bot game: the per-user limits are lifted here.
                 "WHISTLESTOP_ALL_BOT_GAMES_PER_USER": str(max(20, args.load)),
                 "WHISTLESTOP_RATE_GAMES_PER_USER": "1000000/day"}
        env.update(extra)
        os.environ.update(extra)
        from server import config, db
        from workers.celery_app import reconfigure

        reconfigure(config.from_env())  # this process publishes to the broker just made
        url = env["WHISTLESTOP_DATABASE_URL"]
        db.migrate(url)

        def start(name: str, command: list[str]) -> subprocess.Popen:
            proc = subprocess.Popen(command, cwd=ROOT, env=env,
                                    stdout=(folder / f"{name}.log").open("wb"),
                                    stderr=subprocess.STDOUT)
            procs.append(proc)
            return proc

        worker = procfile("worker")
        worker[worker.index("workers.celery_app")] = "bench.told_probe"
        start("worker", worker)
        start("beat", procfile("beat"))
        start("live", procfile("live"))
        wait_for_port(int(env["WHISTLESTOP_LIVE_PORT"]), "the live process")
        noop = noop_round_trips(40)  # the limit, idle (the first ping waits for the worker)
        bench = Bench(url, sink, int(env["WHISTLESTOP_LIVE_PORT"]), args.hold,
                      random.Random(28))
        kinds = ["sequential"] if args.hold else ["sequential", "sealed"]
        for _ in range(WARM_UP):  # untimed: the worker compiles its templates and statements
            for kind in kinds:
                bench.next_sample(kind)
        load_note, load = "idle", None
        if args.load:
            start("web", procfile("web"))
            wait_for_port(int(env["PORT"]), "the web process")
            load = Load(f"http://127.0.0.1:{env['PORT']}", args.load, bench.engine)
            load.top_up()
            load.start()
            print(f"{args.load} bot games of Mr. President in play; waiting for the first "
                  f"{args.load // SETTLED} to end", flush=True)
            settled = time.monotonic()
            while load.started - args.load < args.load // SETTLED and \
                    time.monotonic() - settled < SETTLE_MAX:
                time.sleep(2)  # all started at once: their rounds mixed once some have ended
            load_note = (f"{args.load} bot games in play throughout, sampled after "
                         f"{load.started - args.load} had ended ({time.monotonic() - settled:.0f} "
                         f"s)")
        began = time.monotonic()
        samples: dict[str, list[Sample]] = {k: [] for k in kinds}
        pings: list[float] = []
        from workers.tasks import ping

        while any(len(v) < args.samples for v in samples.values()):
            for kind in kinds:
                if len(samples[kind]) < args.samples:
                    samples[kind].append(bench.next_sample(kind))
            if args.load:
                t0 = time.perf_counter()
                ping.apply_async().get(timeout=600, interval=0.005)
                pings.append((time.perf_counter() - t0) * 1000)
        ended = time.monotonic()
        done = None
        if load is not None:
            load.stopping.set()
            load.join(120)
            done = (load.started - args.load, load.in_play())
        sends = bench.smtp_sends(40)
        notes = read_probe(folder / "probe.log")
    finally:
        stop(procs)
        sink.close()
        if postgres is not None:
            postgres.stop()
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(folder, ignore_errors=True)
    report(args, samples, noop, sends, pings, notes, load_note, began, ended, done)
    return 0


def report(args, samples, noop, sends, pings, notes, load_note, began, ended, done) -> None:
    from workers.celery_app import celery

    poll = celery.conf.broker_transport_options.get("polling_interval", 1.0)  # kombu's default
    stores = ("embedded default: SQLite, filesystem broker polled every "
              f"{poll:g} s" if args.broker == "filesystem"
              and not args.db_url and args.db == "sqlite"
              else f"{'PostgreSQL 15' if args.db == 'postgresql' else 'SQLite'}"
              f"{' (--db-url)' if args.db_url else ''}, broker {args.broker}")
    worker = " ".join(procfile("worker")[3:])
    print(f"Move-to-told latency: {stores}; {load_note}; the Procfile's worker ({worker})")
    print(f"  machine: {machine()}")
    print(f"  movers hold their moves {args.hold} s" + (" (no take-back)" if not args.hold
                                                       else ": the mails are measured less "
                                                            "the hold"))
    print(f"  no-op task round trip (idle)   {stats(noop)}  ({len(noop)})")
    if pings:
        print(f"  no-op round trip under load    {stats(pings)}  ({len(pings)})")
    print(f"  one SMTP send (kept session)   {stats(sends)}  ({len(sends)})")
    limit = percentile(noop, 95) + percentile(sends, 95)
    for kind, label in (("sequential", "hand-off"), ("sealed", "sealed step")):
        got = samples.get(kind) or []
        if not got:
            continue
        measures = [("mail", [s.mail_ms for s in got])]
        if not args.hold:
            measures.append(("page", [s.page_ms for s in got]))
        for what, xs in measures:
            p95 = percentile(xs, 95)
            line = (f"  {label + ', ' + what:30} {stats(xs)}  ({len(xs)}); p95 / no-op p95 "
                    f"{p95 / percentile(noop, 95):.1f}, / SMTP send p95 "
                    f"{p95 / percentile(sends, 95):.1f}")
            if args.load or args.hold:
                pass
            elif args.broker == "redis":
                gap = p95 - limit
                line += (f"; p95 - (no-op + SMTP) = {gap:.1f} ms (goal <= {REDIS_GAP_MS:.0f}; "
                         f"ratio {gap / REDIS_GAP_MS:.2f})")
            else:
                line += f"; goal p95 < {EMBEDDED_MS:.0f} ms: ratio {p95 / EMBEDDED_MS:.2f}"
            print(line)
        for part, xs in breakdown(got, notes).items():
            print(f"      {part:42} {stats(xs)}")
    if args.load:
        spent = worker_time(notes, began, ended)
        total = sum(seconds for _runs, seconds in spent.values()) or 1.0
        print(f"  the worker while sampling ({ended - began:.0f} s; {done[0]} bot games ended "
              f"and were replaced, {done[1]} in play at the end): busy "
              f"{total / (ended - began) * 100:.0f} % (its tasks' own time)")
        for name, (runs, seconds) in sorted(spent.items(), key=lambda kv: -kv[1][1]):
            print(f"      {name:32} {runs:6} runs  {seconds:7.1f} s  "
                  f"({seconds / total * 100:4.1f} %, {seconds / runs * 1000:.1f} ms each)")


if __name__ == "__main__":
    sys.exit(main())
