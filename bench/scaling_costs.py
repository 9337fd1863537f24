"""What an order and a game cost on PostgreSQL and Redis, by process type, and how many active
games one PostgreSQL primary and one Redis carry at a move per seat per hour (docs/scaling.md).

Run from the repository root:
    python bench/scaling_costs.py [--load players|bots] [--game mrpresident|tmotp]
                                  [--games N] [--rounds R] [--idle SECONDS] [--top N]

Starts the production shape on this machine: a PostgreSQL cluster of its own with durable
writes (fsync, synchronous commit, full-page writes on; pg_stat_statements loaded), a
redis-server (broker, results, rate limits), gunicorn (2 sync workers), a Celery worker
(concurrency 2), beat in a process of its own, and an SMTP server in this process that takes
the workers' mail. Then R rounds of N games, each after an untimed warm-up game:

- ``--load players`` (the default): two people a game, each a client of the API that acts when
  a mail reaches its address, as a person who reads the decision mail and answers it: GET the
  decision, POST a random legal order (a move is held for nobody). The web, the worker (mail,
  resolutions) and the database all work as for people.
- ``--load bots``: games whose every seat is a random bot (bench/bot_load.py's games): every
  move is the worker's bot_move task; the web only starts the games, and no mail is sent.

Each round runs from the start of its games to the moment all are finished, the outbox is
consumed and the broker is empty. For each it prints, per order (a player's or bot's accepted
order: the log's entries that are not chance) and per game: CPU seconds of each process type
(utime+stime of its process tree from /proc, reaped children included), database statements
(pg_stat_statements, the server's role only: the bench's own reads run as another role) and
transactions (COMMIT and ROLLBACK statements), WAL and database bytes, Redis commands and
bytes, and mails. Then: the database at rest per game (after VACUUM FULL, every game
finished) and its largest tables; CPU a second of each process type while nothing moves, with
no game in play and with N games waiting for players who never answer (``--idle`` seconds
each); the server's database connections, what Redis holds, the resident memory of each
process type. Last, the medians over the rounds, what they give at the pace of one move per
seat per hour (active games per core of PostgreSQL, web and worker, per Redis: one thread),
and with ``--top N`` the statements run most often an order. No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests

from common import free_port, tree_cpu_seconds  # noqa: E402  (the repository on sys.path)
from bot_load import (GAMES, api_token, finished_count, open_games, rss_kib,  # noqa: E402
                      start_beat, start_games, start_worker)
from order_throughput import serve  # noqa: E402
from resolution_latency import configure, noop_round_trips  # noqa: E402

# A production server's durability (the tests' throwaway cluster turns it off), and the
# statement counter.
DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on",
           "shared_buffers": "128MB", "shared_preload_libraries": "pg_stat_statements",
           "pg_stat_statements.track_utility": "on"}
MONITOR = "bench_monitor"  # the role of the bench's own reads, left out of the counts
PROCESSES = ("web", "worker", "beat", "postgres", "redis")


@dataclass
class Snapshot:
    cpu: dict[str, float]
    statements: Counter
    wal: int
    db_bytes: int
    redis: dict[str, int]
    orders: int
    finished: int
    mails: int
    mail_bytes: int
    at: float = field(default_factory=time.perf_counter)


class MailSink:
    """The SMTP server the workers send to: counts the bytes of mail, and wakes the player
    each mail is addressed to."""

    def __init__(self):
        from aiosmtpd.controller import Controller

        self.port = free_port()
        self.wake: dict[str, threading.Event] = {}
        self.bytes = 0
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    async def handle_DATA(self, server, session, envelope) -> str:
        self.bytes += len(envelope.original_content)
        for rcpt in envelope.rcpt_tos:
            if rcpt in self.wake:
                self.wake[rcpt].set()
        return "250 OK"

    def stop(self) -> None:
        self._controller.stop()


class MailPlayer(threading.Thread):
    """A person's client: when a mail reaches its address, it reads its decision and, when
    asked, answers it with a random legal order; done when its game is over."""

    def __init__(self, base: str, token: str, gid: int, wake: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.base, self.gid, self.wake = base, gid, wake
        self.rng = random.Random(seed)
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.requests = self.orders = self.idle_wakes = 0
        self.error: str | None = None

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the bench
            self.error = f"{type(exc).__name__}: {exc}"

    def _get(self, path: str) -> dict:
        self.requests += 1
        r = self.http.get(f"{self.base}/api/v1/games/{self.gid}{path}", timeout=60)
        r.raise_for_status()
        return r.json()

    def _play(self) -> None:
        url = f"{self.base}/api/v1/games/{self.gid}"
        decision, again = None, False
        while True:
            if decision is None:
                if not again and not self.wake.wait(300):
                    self.idle_wakes += 1  # no mail for five minutes: look anyway
                self.wake.clear()  # before reading: a mail sent after this read wakes it again
                decision, again = self._get("/decision"), False
            if not decision["active"]:
                if self._get("")["status"] == "finished":
                    return
                decision = None
                continue
            self.requests += 1
            r = self.http.post(f"{url}/orders", timeout=60, json={
                "step": decision["step"],
                "actions": [self.rng.choice(decision["legal_actions"])]})
            if r.status_code == 409:  # the step moved on meanwhile: read it again
                decision, again = None, True
                continue
            r.raise_for_status()
            self.orders += 1
            # The answer holds the seat's next decision (no mail comes for one asked of
            # the player who has just moved); a sealed order's, until the step resolves, none.
            decision = r.json().get("decision")


class Costs:
    """The processes, the database's and Redis's counters, and the rounds' snapshots."""

    def __init__(self, args):
        from tests.services import PostgresServer

        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="ws-scaling-"))
        self.pg = PostgresServer(DURABLE).start()
        self.procs: list = []
        self.sink = self.monitor = self.admin = None
        try:
            self._start()
        except BaseException:  # nothing started is left running
            self.close()
            raise

    def _start(self) -> None:
        name = self.pg.create_database()
        self.db_name = name
        self.env, self.procs = configure(self.folder, "redis", self.pg.url(name))
        self.redis_port = int(self.env["WHISTLESTOP_BROKER_URL"].rsplit(":", 1)[1].split("/")[0])
        self.sink = MailSink()
        lifted = {"WHISTLESTOP_ALL_BOT_GAMES_PER_USER": "100000",
                  "WHISTLESTOP_RATE_GAMES_PER_USER": "100000/day",
                  "WHISTLESTOP_RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{self.redis_port}/2",
                  "WHISTLESTOP_MAIL_SMTP_PORT": str(self.sink.port),
                  "WHISTLESTOP_MAIL_CATCHER": "false"}
        self.env.update(lifted)
        os.environ.update(lifted)
        from server import config, db
        from workers.celery_app import reconfigure

        reconfigure(config.from_env())  # this process's Celery app, made at its import

        db.migrate(self.pg.url(name))
        self.admin = self.pg.connect("postgres")
        self.admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        self.admin.execute(f"CREATE ROLE {MONITOR} LOGIN")
        with self.pg.connect(name) as conn:
            conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {MONITOR}")
        self.monitor = db.make_engine(self.pg.url(name).replace(
            f"{self.pg.SUPERUSER}@", f"{MONITOR}@"))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.web = serve("server.app:create_app()", self.port, self.env,
                         self.folder / "gunicorn.log")
        self.worker = start_worker(self.env, self.folder, beat=False)
        self.beat = start_beat(self.env, self.folder)
        self.procs += [self.web, self.worker, self.beat]
        noop_round_trips(3)  # the worker is up
        self.players, self.owner = 0, None

    def pids(self) -> dict[str, int]:
        return {"web": self.web.pid, "worker": self.worker.pid, "beat": self.beat.pid,
                "postgres": self.pg.proc.pid, "redis": self.procs[0].pid}

    def snapshot(self) -> Snapshot:
        import redis
        from sqlalchemy import func
        from sqlmodel import Session, select

        from server.models import MailSent

        # The bench's own backends (this admin connection, the monitor's) are not the server's.
        mine = frozenset(pid for (pid,) in self.admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE usename = %s OR pid = pg_backend_pid()",
            (MONITOR,)).fetchall())
        cpu = {name: tree_cpu_seconds(pid, mine) for name, pid in self.pids().items()}
        statements = Counter()
        for query, calls in self.admin.execute(
                "SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d "
                "ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid "
                "WHERE d.datname = %s AND r.rolname = %s",
                (self.db_name, self.pg.SUPERUSER)).fetchall():
            statements[" ".join(query.split())] += calls
        wal, size = self.admin.execute(
            "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, pg_database_size(%s)",
            (self.db_name,)).fetchone()
        info = redis.Redis(port=self.redis_port).info("stats")
        finished, orders = finished_count(self.monitor)
        with Session(self.monitor) as s:
            mails = s.exec(select(func.count()).select_from(MailSent)
                           .where(MailSent.status == "sent")).one()
        return Snapshot(cpu, statements, int(wal), int(size),
                        {k: info[k] for k in ("total_commands_processed",
                                              "total_net_input_bytes",
                                              "total_net_output_bytes")},
                        orders, finished, mails, self.sink.bytes)

    def settled(self) -> bool:
        """No outbox row left to consume and nothing in the broker, queued or taken."""
        import redis
        from sqlalchemy import func
        from sqlmodel import Session, select

        from server.models import OutboxMessage
        client = redis.Redis(port=self.redis_port)
        with Session(self.monitor) as s:
            waiting = s.exec(select(func.count()).select_from(OutboxMessage)
                             .where(OutboxMessage.delivered_at.is_(None))).one()
        return waiting == 0 and client.llen("celery") == 0 and client.hlen("unacked") == 0

    def play(self, n: int) -> tuple[Snapshot, Snapshot, dict]:
        """N games from their start to the end of their last task: (before, after, notes)."""
        if self.args.load == "players":
            clients, games = self._players(n)
        else:
            clients, games = [], [self._bots(n)]
        before = self.snapshot()
        for client in clients:
            client.start()
        for auth, ids in games:
            start_games(self.base, auth, ids)
        self._wait(lambda: finished_count(self.monitor)[0] - before.finished >= n)
        after = self.snapshot()
        for client in clients:
            client.join(60)
        errors = [c.error for c in clients if c.error]
        return before, after, {"requests": sum(c.requests for c in clients),
                               "idle wakes": sum(c.idle_wakes for c in clients),
                               "errors": errors[:3]} if clients else {}

    def idle(self, waiting: int, seconds: float) -> dict[str, float]:
        """CPU seconds a second of each process type while nothing moves, with ``waiting``
        games started and waiting for their players (who never answer), and Redis commands a
        second."""
        if waiting:
            _clients, games = self._players(waiting)
            for auth, ids in games:
                start_games(self.base, auth, ids)
            self._wait(lambda: True)
        before = self.snapshot()
        time.sleep(seconds)
        after = self.snapshot()
        out = {name: (after.cpu[name] - before.cpu[name]) / seconds for name in PROCESSES}
        out["redis commands"] = (after.redis["total_commands_processed"]
                                 - before.redis["total_commands_processed"]) / seconds
        return out

    def _wait(self, done) -> None:
        """Until ``done()`` and the outbox and the broker are empty (or --minutes pass)."""
        deadline = time.perf_counter() + self.args.minutes * 60
        while time.perf_counter() < deadline:
            if done() and self.settled():
                return
            time.sleep(0.5)
        print("  (gave up waiting: the figures cover what finished)", flush=True)

    def _bots(self, n: int) -> tuple[dict, list[int]]:
        """N games of bots, open: (the owner's header, their ids)."""
        return open_games(self.base, n, "random", self.args.game, self._owner())

    def _owner(self) -> str:
        """The bots' games' owner's API token: one user, made once."""
        if self.owner is None:
            from server import db

            eng = db.make_engine(self.pg.url(self.db_name))
            self.owner = api_token(eng)
            eng.dispose()
        return self.owner

    def _players(self, n: int) -> tuple[list[MailPlayer], list[tuple[dict, list[int]]]]:
        """N open games of two people each: a client for each seat (not started), and each
        game's creator's header with its id."""
        from tests.e2e.api_players import proven_players

        _title, options, seats = GAMES[self.args.game]
        first = self.players
        self.players += n
        emails = {f"{seat}-{i}": f"{seat}-{i}@bench.invalid" for i in range(first, first + n)
                  for seat in seats}
        tokens = proven_players(self.pg.url(self.db_name), emails)
        auth = {key: {"Authorization": f"Bearer {token}"} for key, token in tokens.items()}
        clients, games = [], []
        for i in range(first, first + n):
            names = {seat: f"{seat}-{i}" for seat in seats}
            for name in names.values():  # nobody's move is held back: the next mail goes at once
                requests.patch(f"{self.base}/api/v1/me", headers=auth[name], timeout=60,
                               json={"retract_hold_seconds": 0}).raise_for_status()
            creator = auth[names[seats[0]]]
            r = requests.post(f"{self.base}/api/v1/games", headers=creator, timeout=60, json={
                "game_type": self.args.game, "options": options,
                "seats": {seat: emails[name] for seat, name in names.items()}})
            r.raise_for_status()
            gid = r.json()["game"]["id"]
            games.append((creator, [gid]))
            for name in list(names.values())[1:]:
                requests.post(f"{self.base}/api/v1/games/{gid}/join", headers=auth[name],
                              json={}, timeout=60).raise_for_status()
            for name in names.values():
                wake = self.sink.wake.setdefault(emails[name], threading.Event())
                clients.append(MailPlayer(self.base, tokens[name], gid, wake,
                                          seed=len(clients)))
        return clients, games

    def compacted(self) -> tuple[int, int, dict[str, int]]:
        """The database once compacted (VACUUM FULL: no dead rows of the state's updates): its
        bytes, its finished games, and each table's bytes."""
        with self.pg.connect(self.db_name) as conn:
            conn.execute("VACUUM FULL")
            (size,) = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            (finished,) = conn.execute(
                "SELECT count(*) FROM game WHERE status = 'finished'").fetchone()
            tables = dict(conn.execute(
                "SELECT relname, pg_total_relation_size(relid) FROM pg_stat_user_tables"
            ).fetchall())
        return size, finished, tables

    @staticmethod
    def at_rest(before: tuple, after: tuple) -> str:
        """What the games finished between two ``compacted`` readings keep, per game, in the
        tables with their indexes and in which (the difference: the tables' first pages are in
        both), and the whole database's growth (its catalogs too)."""
        games = max(1, after[1] - before[1])
        grown = {name: size - before[2].get(name, 0) for name, size in after[2].items()}
        largest = sorted(grown.items(), key=lambda item: -item[1])[:5]
        return (f"at rest (VACUUM FULL): {sum(grown.values()) / games / 1e3:.1f} kB a "
                f"finished game in the tables ({games} games; the whole database "
                f"{(after[0] - before[0]) / games / 1e3:.1f}); the largest, kB a game: "
                + ", ".join(f"{name} {b / games / 1e3:.1f}" for name, b in largest))

    def footprint(self) -> str:
        """The server's database connections, and what Redis holds, at the end."""
        import redis

        (backends,) = self.admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND "
            "backend_type = 'client backend' AND pid <> pg_backend_pid()",
            (self.pg.SUPERUSER,)).fetchone()
        client = redis.Redis(port=self.redis_port)
        keys = {n: redis.Redis(port=self.redis_port, db=n).dbsize() for n in (0, 1, 2)}
        memory = ", ".join(f"{name} {rss_kib(pid) / 1024:.0f}"
                           for name, pid in self.pids().items())
        return (f"database connections of the server's processes: {backends}; Redis "
                f"{client.info('memory')['used_memory'] / 1e6:.1f} MB used, keys by database "
                f"(broker, results, rate limits): {keys}; resident memory of each process "
                f"type with its children, MiB: {memory}")

    def close(self) -> None:
        from common import stop

        stop(self.procs)
        for done in (self.sink and self.sink.stop, self.monitor and self.monitor.dispose,
                     self.admin and self.admin.close):
            if done:
                done()
        self.pg.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def figures(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """One round's costs, per order and per game."""
    orders = max(1, after.orders - before.orders)
    games = max(1, after.finished - before.finished)
    out = {"games": games, "orders": orders, "seconds": after.at - before.at}
    for name in PROCESSES:
        out[f"cpu ms/order {name}"] = (after.cpu[name] - before.cpu[name]) * 1000 / orders
    kinds = Counter()
    for query, calls in (after.statements - before.statements).items():
        kinds[query.split(None, 1)[0].upper() if query else "?"] += calls
    out["statements/order"] = sum(kinds.values()) / orders
    for kind in ("SELECT", "INSERT", "UPDATE", "DELETE"):
        out[f"  {kind}/order"] = kinds[kind] / orders
    out["transactions/order"] = (kinds["COMMIT"] + kinds["ROLLBACK"]) / orders
    out["WAL kB/order"] = (after.wal - before.wal) / orders / 1e3
    out["database kB/game"] = (after.db_bytes - before.db_bytes) / games / 1e3
    for key, label in (("total_commands_processed", "redis commands/order"),
                       ("total_net_input_bytes", "redis bytes in/order"),
                       ("total_net_output_bytes", "redis bytes out/order")):
        out[label] = (after.redis[key] - before.redis[key]) / orders
    out["mails/order"] = (after.mails - before.mails) / orders
    out["mail kB/order"] = (after.mail_bytes - before.mail_bytes) / orders / 1e3
    out["orders/game"] = orders / games
    return out


def capacity(median: dict[str, float], seats: int, quiet: dict, waiting: dict,
             count: int) -> list[str]:
    """Active games one core of each process type carries at one move per seat per hour: its
    core less what it spends with no game in play, over each game's orders. (What games
    waiting for their players cost is printed beside the idle figures; on this machine no
    process type used more with them than without.)"""
    rate = seats / 3600  # orders a second of one active game
    lines = ["idle, CPU % of a core: " + ", ".join(
        f"{name} {quiet[name] * 100:.2f} (with {count} games waiting "
        f"{waiting[name] * 100:.2f})" for name in PROCESSES)
        + f"; Redis commands/s {quiet['redis commands']:.1f} (with the games waiting "
          f"{waiting['redis commands']:.1f})",
        f"at one move per seat per hour ({seats} seats: {rate * 3600:.0f} orders an hour a "
        f"game), one core of each carries:"]
    for name in PROCESSES:
        per_game = median[f"cpu ms/order {name}"] / 1000 * rate
        if per_game > 0:
            lines.append(f"  {name:9} {(1 - quiet[name]) / per_game:12,.0f} active games")
    lines.append("  (Redis runs on one thread; PostgreSQL, web and worker on as many cores as "
                 "they are given. Plan for half of these figures: peaks, and the rest of the "
                 "machine.)")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", default="players", choices=("players", "bots"))
    parser.add_argument("--game", default="mrpresident", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=50, help="games a round (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--idle", type=float, default=65,
                        help="seconds of each idle window (default 65: one deadline sweep)")
    parser.add_argument("--minutes", type=float, default=15,
                        help="a round gives up after (default 15)")
    parser.add_argument("--top", type=int, default=0,
                        help="also list the N statements run most often an order")
    args = parser.parse_args(argv)
    title, _, seats = GAMES[args.game]
    costs = Costs(args)
    rounds: list[dict] = []
    top = Counter()
    try:
        costs.play(1)  # warm-up: imports, templates, statements prepared
        compacted = costs.compacted()
        print(f"{title}, {args.load}: {args.rounds} rounds of {args.games} games at once; "
              f"PostgreSQL {costs.admin.info.server_version // 10000} (durable writes), "
              f"Redis, gunicorn 2 workers, Celery worker concurrency 2, beat; "
              f"{os.cpu_count()} cores", flush=True)
        for number in range(args.rounds):
            before, after, notes = costs.play(args.games)
            rounds.append(figures(before, after))
            top.update(after.statements - before.statements)
            print(f"round {number + 1}: {rounds[-1]['games']:.0f} games, "
                  f"{rounds[-1]['orders']:.0f} orders in {rounds[-1]['seconds']:.0f} s "
                  + " ".join(f"{k} {v}" for k, v in notes.items()), flush=True)
        print(costs.at_rest(compacted, costs.compacted()))  # every game of the rounds finished
        quiet = costs.idle(0, args.idle)
        waiting = costs.idle(args.games, args.idle)
        print(costs.footprint())
    finally:
        costs.close()
    median = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    width = max(map(len, median))
    print(f"{'':{width}}  " + "  ".join(f"{'round ' + str(i + 1):>9}" for i in range(len(rounds)))
          + f"  {'median':>9}")
    for key, value in median.items():
        print(f"{key:{width}}  " + "  ".join(f"{r[key]:9.3g}" for r in rounds)
              + f"  {value:9.3g}")
    print("\n".join(capacity(median, len(seats), quiet, waiting, args.games)))
    orders = sum(r["orders"] for r in rounds)
    for query, calls in top.most_common(args.top):
        print(f"{calls / orders:6.2f}/order  {query[:150]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
