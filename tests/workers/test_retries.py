"""A resolution that meets a transient database error is retried with backoff until it goes
through; a task that fails for good is recorded in TaskFailure (PostgreSQL + Redis, a real
worker)."""

from __future__ import annotations

import random
import re
import time

from server import db
from server.models import Game
from server.services import games as svc
from tests.workers.conftest import (
    commit_all,
    play_to_simultaneous,
    players,
    resolutions,
    wait_for_step,
)
from workers import tasks


def test_resolution_retried_with_backoff_through_a_database_outage(
        pipeline_factory, postgres_server, postgres_url):
    db.migrate(postgres_url)
    database = postgres_url.rsplit("/", 1)[1]
    pipeline = pipeline_factory(postgres_url)  # no beat: only the task's own retries can help
    worker = pipeline.worker().start()
    rng = random.Random(8)
    with pipeline.session() as s:
        gid = svc.create_game(s, "tmotp", {}, players(s), seed="retry").id
    step, state = play_to_simultaneous(pipeline, gid, rng)
    with pipeline.unpublished():  # the resolution is this test's to publish, in the outage
        commit_all(pipeline, gid, step, state, rng)
    pipeline.drain()
    pipeline.engine.dispose()

    # The database refuses every connection, and the open ones are cut: OperationalError.
    with postgres_server.connect() as admin:
        admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = %s", (database,))
    try:
        task_id = tasks.resolve_step.apply_async(args=(gid, step)).id
        worker.wait_for(re.escape(f"resolve_step[{task_id}] retry: Retry in"), count=3,
                        timeout=60)
    finally:
        with postgres_server.connect() as admin:
            admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
    assert wait_for_step(pipeline, gid, step) == step + 1
    worker.wait_for(re.escape(f"resolve_step[{task_id}] succeeded in ") + r"[^:]+: True")
    pipeline.drain()
    log = worker.text()
    retries = re.findall(re.escape(f"resolve_step[{task_id}] retry: Retry in ") + r"(\d+)s: (\w+)",
                         log)
    assert len(retries) >= 3 and {kind for _, kind in retries} == {"OperationalError"}
    # Exponential backoff with full jitter: the n-th retry waits at most 2**n seconds.
    # Compared in ascending order (which the true property implies), so that the check does not
    # hang on the order in which the log lines were written.
    waits = sorted(int(c) for c, _ in retries)
    assert all(c <= min(2 ** n, tasks.RETRY_BACKOFF_MAX) for n, c in enumerate(waits)), (
        retries, re.findall(r".*resolve_step.*", log)[-30:])
    assert resolutions(log) == [task_id]
    assert not pipeline.failures()  # retried, not failed
    with pipeline.session() as s:
        assert s.get(Game, gid).step == step + 1
        assert svc.rebuild(s, gid)
    print(f"\n{len(retries)} retries, countdowns {[int(c) for c, _ in retries]}s, then resolved")


def test_failed_task_is_recorded(pipeline_factory, postgres_url):
    db.migrate(postgres_url)
    pipeline = pipeline_factory(postgres_url)
    worker = pipeline.worker().start()
    task_id = tasks.resolve_step.apply_async(args=(987654, 3)).id  # no such game
    deadline = time.monotonic() + 30
    while not pipeline.failures() and time.monotonic() < deadline:
        time.sleep(0.1)
    [failure] = pipeline.failures()
    assert failure.task_name == "whistlestop.resolve_step" and failure.task_id == task_id
    assert failure.args == [987654, 3]
    assert failure.error.startswith("GameNotFound")
    assert re.search(re.escape(f"resolve_step[{task_id}] raised unexpected"), worker.text())
