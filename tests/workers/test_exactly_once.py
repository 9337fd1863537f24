"""Exactly-once resolution, measured with a real broker (Redis) and real worker processes, on a
SQLite file and on PostgreSQL: many threads per seat commit the same simultaneous step at the
same moment while the worker resolves it."""

from __future__ import annotations

import itertools
import random
import re
import threading
import traceback
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from engine.core import IllegalAction, from_dict
from sqlmodel import Session, select

from server import db
from server.models import Game, LogEntry, Order, OutboxMessage
from server.services import games as svc
from server.services.games import StaleStep
from tests.workers.conftest import (
    assert_mailed_once,
    delivered,
    pending_seats,
    play_to_simultaneous,
    players,
    resolutions,
    wait_for_step,
)

THREADS_PER_SEAT = 8
STEPS = 30  # simultaneous steps raced per database


def race(engines, gid: int, step: int, plan: list[tuple[str, str]]) -> list[tuple]:
    """Submit every (seat, action) of ``plan`` from its own thread and session, all released by
    one barrier; each one's outbox rows are sent at its commit, as the API's are.

    Returns (outcome, seat, action, detail, commit_no) per thread: outcome "ok" (detail: the
    OrderResult; commit_no: the order of its commit among all, taken inside its transaction,
    where the game's lock serializes the commits), "stale" (detail: the step StaleStep named)
    "over" (IllegalAction: the resolution ended the game) or "error" (detail: the traceback).
    """
    barrier = threading.Barrier(len(plan))
    commits = itertools.count()

    def submit(i: int, seat: str, action: str):
        barrier.wait(timeout=60)
        numbers: list[int] = []
        try:
            with Session(engines[i]) as session:
                result = svc.submit_order(
                    session, gid, seat, step, [action],
                    before_commit=lambda _s, _r: numbers.append(next(commits)))
        except StaleStep as exc:
            return ("stale", seat, action, exc.step, None)
        except IllegalAction as exc:  # refused cleanly: the resolution ended the game
            return ("over", seat, action, exc.reason, None)
        except Exception:
            return ("error", seat, action, traceback.format_exc(), None)
        return ("ok", seat, action, result, numbers[-1])

    with ThreadPoolExecutor(len(plan)) as pool:
        return list(pool.map(lambda args: submit(*args), [(i, *p) for i, p in enumerate(plan)]))


def test_racing_commits_resolve_every_step_exactly_once(pipeline_factory, worker_db_url):
    pipeline = pipeline_factory(worker_db_url)
    worker = pipeline.worker(concurrency=2).start()
    engines = [db.make_engine(worker_db_url) for _ in range(2 * THREADS_PER_SEAT)]
    rng = random.Random(20261121)
    stats = Counter()
    raced: list[tuple[int, int]] = []
    games: list[int] = []
    game_over = False
    try:
        while len(raced) < STEPS:
            if not games or game_over:
                with pipeline.session() as s:
                    games.append(svc.create_game(s, "tmotp", {}, players(s),
                                                 seed=f"race-{len(games)}").id)
            gid = games[-1]
            at = play_to_simultaneous(pipeline, gid, rng)
            game_over = at is None
            if game_over:
                continue
            step, state = at
            active = state.active()
            with pipeline.session() as s:
                forced = pending_seats(s, gid, step)  # committed by the server already
                log_len = from_dict(s.get(Game, gid).state).log_length()
            plan = [(seat, rng.choice(state.legal_actions(seat)))
                    for seat in active for _ in range(THREADS_PER_SEAT)]
            rng.shuffle(plan)
            outcomes = race(engines, gid, step, plan)

            errors = [o for o in outcomes if o[0] == "error"]
            assert not errors, "".join(o[3] for o in errors)
            assert wait_for_step(pipeline, gid, step) == step + 1
            stale = [o for o in outcomes if o[0] == "stale"]
            assert all(o[3] == step + 1 for o in stale), stale
            over = [o for o in outcomes if o[0] == "over"]
            if over:
                with pipeline.session() as s:
                    assert s.get(Game, gid).status == "finished", over
                assert {o[3] for o in over} == {"The game is over."}
            ok = sorted((o for o in outcomes if o[0] == "ok"), key=lambda o: o[4])
            assert any(o[3].all_committed for o in ok)
            with pipeline.session() as s:
                orders = {o.seat: o for o in s.exec(select(Order).where(
                    Order.game_id == gid, Order.step == step)).all()}
                new_log = [[r.seat, r.action] for r in s.exec(
                    select(LogEntry).where(LogEntry.game_id == gid, LogEntry.seq >= log_len)
                    .order_by(LogEntry.seq)).all()]
            assert sorted(orders) == sorted(active)
            for seat in active:
                mine = [o for o in ok if o[1] == seat]
                assert mine or seat in forced, f"{seat} never committed"
                # The seat's last accepted order is the one stored and the one applied.
                last = mine[-1][2] if mine else orders[seat].actions[0]
                assert orders[seat].status == "applied"
                assert orders[seat].actions == [last], (seat, orders[seat].actions, last)
            assert new_log[:len(active)] == [[seat, orders[seat].actions[0]] for seat in active]
            raced.append((gid, step))
            stats["ok"] += len(ok)
            stats["stale"] += len(stale) + len(over)
            stats["both seats choosing"] += not forced

        pipeline.drain()
        log = worker.text()
        resolved, noops = resolutions(log, "True"), resolutions(log, "False")
        assert len(resolved) == len(raced)  # one run resolved each step; every other did nothing
        assert not re.search(r"ERROR|Traceback", log), log[-5000:]
        assert not pipeline.failures()
        with pipeline.session() as s:
            rows = s.exec(select(OutboxMessage)).all()
            # Every row was consumed by its task (nobody relayed: the publishes after the
            # commits were enough).
            assert rows and all(r.delivered_at is not None and r.attempts == 0 for r in rows)
            resolve_rows = Counter((r.payload["game_id"], r.payload["step"])
                                   for r in rows if r.kind == "resolve_step")
            for gid in games:
                game = s.get(Game, gid)
                assert svc.rebuild(s, gid)  # the log rows rebuild the state: none twice
                assert not s.exec(select(Order).where(Order.game_id == gid,
                                                      Order.status == "pending",
                                                      Order.step < game.step)).all()
        assert set(raced) <= set(resolve_rows)
        # Every notification row was consumed, and every mail reached the SMTP server once.
        assert delivered(pipeline) == {r.id for r in rows if r.kind != "resolve_step"}
        assert assert_mailed_once(pipeline) > 0
        print(f"\n{worker_db_url.split(':')[0]}: {len(raced)} steps raced in {len(games)} games "
              f"by {2 * THREADS_PER_SEAT} threads ({stats['both seats choosing']} with both "
              f"seats choosing); {stats['ok']} commits accepted, {stats['stale']} stale; "
              f"{len(resolved)} resolutions, {len(noops)} duplicate resolve_step runs "
              f"did nothing; {sum(resolve_rows.values())} resolve_step outbox rows")
    finally:
        for engine in engines:
            engine.dispose()
