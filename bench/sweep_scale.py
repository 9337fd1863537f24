"""Beat's periodic sweeps and an order's game load, with 1,000 and with 10,000 games at once.

Run from the repository root:  python bench/sweep_scale.py [--db-url URL] [--small N] [--large N]

Issue 28, item 2: at 10,000 games the work that grows with the number of games must not be what
the server does every few seconds (beat's sweeps) or on every order (loading the game's state).
A fresh database (a PostgreSQL cluster of its own, as the tests start one; ``--db-url`` for
another, e.g. ``sqlite:///...``) gets template games played through the order service:

- Mr. President (chalkboard, two candidates) waiting at a sealed round with one seat committed
  (the commonest state of a slow game: one player has answered);
- 1960 (GMT) a few decisions in (a short log) and some 200 log entries in (a long log);

and then copies of them, with their seats, log, orders and (consumed) outbox rows, made by SQL
until ``--small`` (1,000) and then ``--large`` (10,000) games are in play, in the mix 70 %
Mr. President, 15 % short 1960, 15 % long 1960; 1 % of them have a deadline that has passed.
The statistics are refreshed (ANALYZE, as autovacuum does). At each size it times, median of
several runs:

- each of beat's periodic sweeps: ``deadlines.due``, ``outbox.unresolved_steps``, the
  outbox relay (``outbox.publish_pending``, every copied row consumed, so only its query runs),
  ``webhook_queue.due``;
- an order's game load (``games.game_row`` and the engine state from it) for a game of each kind.

It prints each at both sizes and the ratio large/small. The goal: no ratio above 2 for ten
times the games (the work follows what is due, not how many games exist; an order reads its own
game's row, never its log). On PostgreSQL it also prints each sweep's plan's first lines.
Exits 0.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from common import ROOT  # noqa: F401,E402  (puts the repository on sys.path)

GOAL_RATIO = 1.5  # an order's game load: the same with ten times the games
GOAL_SHARE = 1.0  # a periodic read: at most this % of one core at the large size
RUNS = 15
# How often each periodic read runs (the configuration's defaults; the metrics at Prometheus's
# default scrape interval).
PERIODS = {"deadline sweep (deadlines.due)": ("DEADLINE_SWEEP_SECONDS", 60),
           "unresolved sweep (outbox.unresolved_steps)": ("RESOLVE_SWEEP_SECONDS", 30),
           "outbox relay (publish_pending)": ("OUTBOX_RELAY_SECONDS", 5),
           "webhook sweep (webhook_queue.due)": ("WEBHOOK_SWEEP_SECONDS", 30),
           "metrics scrape (GET /metrics)": ("Prometheus's scrape interval", 15)}
_OUTBOX_OF: dict[str, list[int]] = {}


def _environment(folder: Path) -> None:
    os.environ.update(WHISTLESTOP_VAR_DIR=str(folder / "var"),
                      WHISTLESTOP_BROKER_URL="filesystem://",
                      WHISTLESTOP_BROKER_DIR=str(folder / "var" / "broker"),
                      WHISTLESTOP_RESULT_BACKEND="")


def _play_random(session, game_id: int, rng: random.Random, until,
                 commit_one: bool = False) -> None:
    """Random legal orders through the order service until ``until(state)``; with
    ``commit_one``, then one sealed order of the first seat asked."""
    import engine.core as engine
    from server.models import Game
    from server.services import games

    while True:
        session.expire_all()
        game = session.get(Game, game_id)
        state = engine.from_dict(game.state)
        if until(state) and not commit_one:
            return
        seat = next(s for s in state.active() if s != engine.CHANCE)
        games.submit_order(session, game_id, seat, game.step,
                           [rng.choice(state.legal_actions(seat))])
        if commit_one:
            return


def templates(url: str) -> dict[str, int]:
    """Play the template games; return their ids by kind."""
    from sqlmodel import Session

    from server import db
    from server.services import games
    from tests.players import proven_user

    engine_ = db.make_engine(url)
    rng = random.Random(28)
    out = {}
    with Session(engine_) as session:
        a = proven_user(session, "a@bench.invalid", "A")
        b = proven_user(session, "b@bench.invalid", "B")
        mp = games.create_game(session, "mrpresident", {"edition": "chalkboard", "players": 2},
                               {"p1": a.id, "p2": b.id}, seed="sweep-mp")
        # One candidate has committed the round's sealed order: the other is awaited.
        _play_random(session, mp.id, rng, lambda s: len(s.active()) > 1)
        _play_random(session, mp.id, rng, lambda s: True, commit_one=True)
        out["mrpresident"] = mp.id
        for kind, length in (("tmotp short", 20), ("tmotp long", 200)):
            game = games.create_game(session, "tmotp", {"edition": "gmt"},
                                     {"kennedy": a.id, "nixon": b.id}, seed=f"sweep-{length}")
            _play_random(session, game.id, rng,
                         lambda s, n=length: s.log_length() >= n or len(s.active()) != 1)
            out[kind] = game.id
    engine_.dispose()
    return out


def _copy_sql(template: int, outbox_ids: list[int], first: int, last: int,
              due: set[int]) -> list[str]:
    """SQL statements copying game ``template`` (with its seats, log, notes, orders and outbox
    rows) as games ``first``..``last``."""
    from server.models import Game, GameNote, LogEntry, Order, OutboxMessage, Seat

    series = (f"WITH RECURSIVE n(i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM n "
              f"WHERE i < {last}) ")
    statements = []
    game_cols = [c.name for c in Game.__table__.columns if c.name != "id"]
    statements.append(
        f"INSERT INTO game (id, {', '.join(game_cols)}) {series}"
        f"SELECT n.i, {', '.join('t.' + c for c in game_cols)} FROM game t, n "
        f"WHERE t.id = {template}")
    for table in (Seat.__table__, LogEntry.__table__, GameNote.__table__, Order.__table__):
        cols = [c.name for c in table.columns if c.name not in ("id", "game_id")]
        name = f'"{table.name}"'
        statements.append(
            f"INSERT INTO {name} (game_id, {', '.join(cols)}) {series}"
            f"SELECT n.i, {', '.join('t.' + c for c in cols)} FROM {name} t, n "
            f"WHERE t.game_id = {template}")
    outbox_cols = [c.name for c in OutboxMessage.__table__.columns
                   if c.name not in ("id", "delivered_at")]
    if outbox_ids:
        statements.append(
            f"INSERT INTO outboxmessage (delivered_at, {', '.join(outbox_cols)}) {series}"
            f"SELECT t.created_at, {', '.join('t.' + c for c in outbox_cols)} "
            f"FROM outboxmessage t, n WHERE t.id IN ({', '.join(map(str, outbox_ids))})")
    if due:
        ids = ", ".join(str(i) for i in sorted(due))
        statements.append(f"UPDATE game SET alarm_at = CURRENT_TIMESTAMP WHERE id IN ({ids})")
    return statements


def grow(url: str, kinds: dict[str, int], have: int, want: int, rng: random.Random) -> None:
    """Add copies of the templates until ``want`` games are in play."""
    from sqlalchemy import text

    from server import db

    engine_ = db.make_engine(url)
    dialect = engine_.dialect.name
    mix = (("mrpresident", 0.70), ("tmotp short", 0.15), ("tmotp long", 0.15))
    start = 1000 + have  # the copies' ids: above the templates'
    with engine_.begin() as conn:
        if have == 0:
            conn.execute(text("UPDATE outboxmessage SET delivered_at = created_at"))
            conn.execute(text("UPDATE game SET alarm_at = :later WHERE alarm_at IS NOT NULL"),
                         {"later": db_now(conn) + timedelta(days=2)})
        count = want - have
        if not _OUTBOX_OF:  # the templates' own rows (the copies keep their payloads)
            rows = conn.execute(text("SELECT id, payload FROM outboxmessage")).all()
            _OUTBOX_OF.update({kind: [i for i, payload in rows
                                      if _payload(payload).get("game_id") == game_id]
                               for kind, game_id in kinds.items()})
        outbox_of = _OUTBOX_OF
        for kind, share in mix:
            n = round(count * share)
            if n == 0:
                continue
            due = {i for i in range(start, start + n) if rng.random() < 0.01}
            for sql in _copy_sql(kinds[kind], outbox_of[kind], start, start + n - 1, due):
                conn.execute(text(sql))
            start += n
        # The games have been in play for days: their orders and mails were written then
        # (what a running server's tallies have settled, server/row_tallies.py).
        days_ago = db_now(conn) - timedelta(days=2)
        for table in ('"order"', "outboxmessage"):
            conn.execute(text(f"UPDATE {table} SET created_at = :then"), {"then": days_ago})
        if dialect == "postgresql":
            conn.execute(text("SELECT setval(pg_get_serial_sequence('game', 'id'), "
                              "(SELECT max(id) FROM game))"))
    with engine_.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        conn.execute(text("ANALYZE"))
    engine_.dispose()


def db_now(conn):
    from server.models import utcnow

    return utcnow()


def _payload(value) -> dict:
    import json

    return json.loads(value) if isinstance(value, str) else dict(value or {})


def _median_ms(fn, runs: int = RUNS) -> float:
    fn()  # compiled, cached
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def measure(url: str, kinds: dict[str, int]) -> dict[str, float]:
    from sqlmodel import Session

    from server import db, metrics
    from server.mail import webhook_queue
    from server.models import utcnow
    from server.services import deadlines, games, outbox

    engine_ = db.make_engine(url)
    out = {}

    def sweep_deadlines():
        with Session(engine_) as session:
            found = deadlines.due(session, utcnow())
        assert found, "the bench's due games were not found"

    def sweep_unresolved():
        with Session(engine_) as session:
            outbox.unresolved_steps(session, 30)

    out["deadline sweep (deadlines.due)"] = _median_ms(sweep_deadlines)
    out["unresolved sweep (outbox.unresolved_steps)"] = _median_ms(sweep_unresolved)
    out["outbox relay (publish_pending)"] = _median_ms(
        lambda: outbox.publish_pending(engine_, 60))
    out["webhook sweep (webhook_queue.due)"] = _median_ms(lambda: webhook_queue.due(engine_))
    collector = metrics.DatabaseCollector(lambda: engine_)
    out["metrics scrape (GET /metrics)"] = _median_ms(lambda: list(collector.collect()), 5)
    for kind, game_id in kinds.items():
        def load(game_id=game_id):
            with Session(engine_) as session:
                db.reading(session)
                games._load(games.game_row(session, game_id), copy=False)
        out[f"order's game load, {kind}"] = _median_ms(load, RUNS * 4)
    if engine_.dialect.name == "postgresql":
        _plans(engine_)
    engine_.dispose()
    return out


def _plans(engine_) -> None:
    """The first lines of the sweeps' plans (PostgreSQL's EXPLAIN)."""
    from sqlalchemy import text
    from sqlmodel import Session

    from server.models import utcnow
    from server.services import deadlines, outbox

    captured = []
    from sqlalchemy import event

    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            captured.append((statement, parameters))

    event.listen(engine_, "before_cursor_execute", keep)
    with Session(engine_) as session:
        deadlines.due(session, utcnow())
        outbox.unresolved_steps(session, 30)
    event.remove(engine_, "before_cursor_execute", keep)
    with engine_.connect() as conn:
        raw = conn.connection.driver_connection
        for statement, parameters in captured[:3]:
            rows = raw.execute("EXPLAIN " + statement, parameters).fetchall()
            print("  plan:", " / ".join(r[0].strip() for r in rows[:4]))


def report(n_small: int, n_large: int, small: dict, large: dict, dialect: str) -> None:
    """Each figure at both sizes with its ratio; a periodic read also as its share of one core
    at the large size (its time over its period), an order's load against GOAL_RATIO."""
    print(f"\n{'':44} {n_small:>9} {n_large:>9}  ratio  every  share of a core")
    worst_share, worst_ratio = 0.0, 0.0
    for name in small:
        ratio = large[name] / small[name] if small[name] else float("inf")
        line = f"{name:44} {small[name]:7.2f}ms {large[name]:7.2f}ms  {ratio:5.2f}"
        if name in PERIODS:
            seconds = PERIODS[name][1]
            share = large[name] / (seconds * 1000) * 100
            worst_share = max(worst_share, share)
            line += f"  {seconds:4d} s  {share:.3f} %"
        else:
            worst_ratio = max(worst_ratio, ratio)
        print(line)
    print(f"periodic reads at {n_large} games: worst {worst_share:.3f} % of a core "
          f"(goal <= {GOAL_SHARE:g} %; ratio {worst_share / GOAL_SHARE:.3f})")
    print(f"an order's game load: worst ratio {worst_ratio:.2f} for "
          f"{n_large // n_small}x the games (goal <= {GOAL_RATIO:g}) on {dialect}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db-url")
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=10000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="sweep-scale-"))
    _environment(folder)
    server = None
    url = args.db_url
    if url is None:
        from tests.services import PostgresServer

        server = PostgresServer().start()
        url = server.url(server.create_database())
    from server import db

    db.migrate(url)
    try:
        kinds = templates(url)
        rng = random.Random(10_000)
        results = {}
        have = 0
        for size in (args.small, args.large):
            t0 = time.perf_counter()
            grow(url, kinds, have, size, rng)
            have = size
            print(f"{size} games in play (copies made in {time.perf_counter() - t0:.1f} s)")
            results[size] = measure(url, kinds)
        small, large = results[args.small], results[args.large]
        report(args.small, args.large, small, large, db.make_engine(url).dialect.name)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
