"""A worker killed with SIGKILL in the middle of a resolution, again and again (PostgreSQL + Redis):
its message is delivered again and every step is resolved exactly once.

The test holds a row lock so that the worker is caught at a known point, checked in pg_locks:

- "open": the resolution's transaction is open, waiting for the game row (nothing committed);
- "committed": the resolution has committed and the task is sending its follow-ups and its
  acknowledgement to a broker the test has frozen (SIGSTOP), so its message is not
  acknowledged yet.

and kills either the whole worker (main process and pool: the message comes back after the
Redis visibility timeout, to a new worker) or only the pool process running the task (the main
process sees the WorkerLostError and, with reject_on_worker_lost, puts the message back at once).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import signal
import time

import pytest

from sqlmodel import select

from server import db
from server.models import Game, Order
from server.services import games as svc
from server.services import outbox
from tests.services import RedisServer
from tests.workers.conftest import (pending_seats, play_to_simultaneous, players,
                                    wait_for_step)
from workers import tasks

KILLS_PER_CASE = 5  # x 2 points x 2 ways = 20 kills
VISIBILITY_TIMEOUT = 1


def _blocked_by(admin, locker_pid: int, timeout: float = 30) -> int:
    """Wait until some backend waits for a lock the locker holds; return its pid."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = admin.execute("SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                            (locker_pid,)).fetchone()
        if row:
            return row[0]
        time.sleep(0.02)
    raise AssertionError("the worker never blocked on the test's lock")


def _task_ids(text: str, outcome: str) -> list[str]:
    return re.findall(r"resolve_step\[([^\]]+)\] " + outcome, text)


def test_killed_worker_resolution_is_delivered_again_and_applied_once(
        pipeline_factory, postgres_server, postgres_url, tmp_path):
    db.migrate(postgres_url)
    redis = RedisServer(tmp_path / "redis").start()  # its own: the test freezes it
    pipeline = pipeline_factory(postgres_url, redis=redis,
                                BROKER_VISIBILITY_TIMEOUT=VISIBILITY_TIMEOUT)
    worker = pipeline.worker().start()
    database = postgres_url.rsplit("/", 1)[1]
    admin = postgres_server.connect(database)
    locker = postgres_server.connect(database, autocommit=False)
    rng = random.Random(99)
    cases = [c for c in itertools.product(("open", "committed"), ("worker", "pool"))
             for _ in range(KILLS_PER_CASE)]
    rng.shuffle(cases)
    steps: list[tuple[int, int]] = []
    killed: list[tuple[str, str, str]] = []
    gid, at = None, None
    try:
        for point, way in cases:
            while at is None:  # a new game when the last one is over
                with pipeline.session() as s:
                    gid = svc.create_game(s, "tmotp", {}, players(s),
                                              seed=f"kill-{len(steps)}").id
                at = play_to_simultaneous(pipeline, gid, rng)
            step, state = at
            # The step's last orders are not sent at their commits: their rows wait for the
            # relay, run below once the game row is locked.
            with pipeline.unpublished(), pipeline.session() as s:
                committed = pending_seats(s, gid, step)
                for seat in state.active():
                    if seat not in committed:
                        svc.submit_order(s, gid, seat, step,
                                         [rng.choice(state.legal_actions(seat))],
                                         by_player=False)
            pipeline.drain()  # the worker is idle: the next resolve_step is the one caught

            # Both points start the same way: the worker's resolution waits for the game row.
            locker.execute("SELECT id FROM game WHERE id = %s FOR UPDATE", (gid,))
            assert outbox.publish_pending(pipeline.engine, redeliver_after=3600) >= 1
            _blocked_by(admin, locker.info.backend_pid)
            task_id = _task_ids(worker.text(all_runs=False), "received")[-1]
            if point == "committed":
                # The broker freezes, then the resolution may commit: after its commit the task
                # sends its follow-ups and its acknowledgement to the frozen broker, and waits.
                os.kill(redis.proc.pid, signal.SIGSTOP)
                locker.rollback()
                wait_for_step(pipeline, gid, step)
            current = admin.execute("SELECT step FROM game WHERE id = %s", (gid,)).fetchone()[0]
            assert current == (step if point == "open" else step + 1)

            if way == "worker":
                worker.kill()
            else:
                for pid in worker.children():
                    os.kill(pid, signal.SIGKILL)
            if point == "committed":
                os.kill(redis.proc.pid, signal.SIGCONT)
            locker.rollback()
            if way == "worker":
                worker.start()
            killed.append((point, way, task_id))

            # The same message is delivered again: it resolves the step only if nothing had
            # been committed; after the commit it finds the step resolved and does nothing.
            outcome = "True" if point == "open" else "False"
            worker.wait_for(re.escape(f"resolve_step[{task_id}] succeeded in ") + r"[^:]+: "
                            + outcome, timeout=30)
            assert wait_for_step(pipeline, gid, step) == step + 1
            steps.append((gid, step))
            at = play_to_simultaneous(pipeline, gid, rng)

        pipeline.drain()
        log = worker.text()
        resolved = _task_ids(log, r"succeeded in [^:]+: True")
        # One resolution per step, no more: by the redelivered message when the first run was
        # killed before its commit; by the killed run itself when it had committed.
        assert len(steps) == len(killed)
        assert sorted(resolved) == sorted(k[2] for k in killed if k[0] == "open")
        lost = len(re.findall(r"WorkerLostError", log))
        assert lost >= sum(1 for k in killed if k[1] == "pool")
        assert not pipeline.failures()
        # What a run killed after its commit had not sent yet waits for the relay: only
        # notifications (its own resolve_step row was consumed in the resolution's commit).
        assert all(r.kind != "resolve_step" for r in pipeline.unconsumed())
        assert outbox.publish_pending(pipeline.engine, redeliver_after=0) >= 0  # the relay
        deadline = time.monotonic() + 30
        while pipeline.unconsumed() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not pipeline.unconsumed()
        with pipeline.session() as s:
            for game_id in {g for g, _ in steps}:
                assert svc.rebuild(s, game_id)
            for game_id, step in steps:
                orders = s.exec(select(Order).where(Order.game_id == game_id,
                                                    Order.step == step)).all()
                assert orders and all(o.status == "applied" for o in orders)
                assert s.get(Game, game_id).step > step
        print(f"\n{len(killed)} kills with SIGKILL "
              f"({sum(k[1] == 'worker' for k in killed)} whole workers, "
              f"{sum(k[1] == 'pool' for k in killed)} pool processes; "
              f"{sum(k[0] == 'open' for k in killed)} before the commit, "
              f"{sum(k[0] == 'committed' for k in killed)} after it): {len(steps)} steps "
              f"resolved once each, "
              f"{len(_task_ids(log, r'succeeded in [^:]+: False'))} repeats that did nothing")
    finally:
        locker.close()
        admin.close()


@pytest.mark.parametrize("visibility, mutex", [(1, 5), (60, 60), (3600, 300)])
def test_a_worker_killed_while_checking_for_lost_messages_blocks_the_check_briefly(
        whistlestop_env, visibility, mutex):
    """kombu's check for unacknowledged messages holds a Redis mutex; a worker killed with the
    mutex taken (its request still in Redis's socket, as when Redis was frozen) would block
    every worker's check for kombu's 300 s: it expires with the visibility timeout, at least
    5 s (the fresh-clone run met the 300 s: a message not delivered again within 30 s)."""
    from server import config
    from workers.celery_app import celery_settings

    env = dict(whistlestop_env, WHISTLESTOP_BROKER_URL="redis://127.0.0.1:6379/0",
               WHISTLESTOP_BROKER_VISIBILITY_TIMEOUT=str(visibility))
    options = celery_settings(config.from_env(env))["broker_transport_options"]
    assert options["visibility_timeout"] == visibility
    assert options["unacked_mutex_expire"] == mutex
