"""A real Celery worker consumes from the filesystem broker and returns results."""

from __future__ import annotations

import subprocess
import sys
import time

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


def _procfile_worker(name: str) -> list[str]:
    """The Procfile's command of process ``name`` (a Celery worker), run by this Python."""
    from pathlib import Path

    for line in (Path(__file__).parents[2] / "Procfile").read_text().splitlines():
        process, _, command = line.partition(":")
        if process.strip() == name:
            words = command.split()
            assert words[0] == "celery", line
            return [sys.executable, "-m", *words, "--without-heartbeat", "--without-gossip",
                    "--without-mingle"]
    raise AssertionError(f"no {name} process in the Procfile")


def test_webhook_posts_go_to_the_procfiles_hooks_worker_only(tmp_path, whistlestop_env):
    """post_webhook goes to the "webhooks" queue, which the Procfile's `hooks` worker consumes
    and its `worker` does not: a slow webhook holds up nothing else."""
    from server import db

    db.migrate(whistlestop_env["WHISTLESTOP_DATABASE_URL"])
    client = make_celery(config.from_env(whistlestop_env))
    logs = {name: (tmp_path / f"{name}.log").open("wb") for name in ("worker", "hooks")}
    workers = {name: subprocess.Popen(
        _procfile_worker(name), env=whistlestop_env, cwd=tmp_path, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True) for name, log in logs.items()}
    try:
        post = client.send_task("whistlestop.post_webhook", args=(987654,))  # no such post
        ping = client.send_task("whistlestop.ping")
        assert ping.get(timeout=90) == "pong"
        done = f"whistlestop.post_webhook[{post.id}] succeeded"  # it keeps no result: its log
        deadline = time.monotonic() + 90
        while done not in (tmp_path / "hooks.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        hooks_log = (tmp_path / "hooks.log").read_text()
        worker_log = (tmp_path / "worker.log").read_text()
        assert done in hooks_log, hooks_log
        assert "whistlestop.post_webhook[" not in worker_log, worker_log
        assert "whistlestop.ping[" in worker_log and "whistlestop.ping[" not in hooks_log
    finally:
        for worker in workers.values():
            stop_process(worker)
        for log in logs.values():
            log.close()
