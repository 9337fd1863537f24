"""A real Celery worker consumes from the filesystem broker and returns results."""

from __future__ import annotations

import subprocess
import sys

from server import config
from tests.conftest import stop_process
from workers.celery_app import make_celery
from workers.tasks import ping


def test_ping_runs_in_process_inside_app_context(whistlestop_env, monkeypatch):
    for key, value in whistlestop_env.items():
        monkeypatch.setenv(key, value)
    assert ping.apply().get(timeout=5) == "pong"


def test_real_worker_answers_ping(tmp_path, whistlestop_env):
    client = make_celery(config.from_env(whistlestop_env))
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
         "--concurrency", "1", "--loglevel", "INFO", "--without-heartbeat",
         "--without-gossip", "--without-mingle"],
        env=whistlestop_env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # Sent before the worker is ready on purpose: the broker must hold the message.
        result = client.send_task("whistlestop.ping")
        try:
            assert result.get(timeout=60) == "pong"
        except Exception:
            log.flush()
            print((tmp_path / "worker.log").read_text())
            raise
    finally:
        stop_process(worker)
        log.close()
