"""Beat's periodic tasks are quiet at INFO (issue 28, workers/routine_logs.py): a real worker and a
real beat, started with the Procfile's commands, run the relay and a sweep every two seconds; the
worker's log at INFO has none of their lines, while another task's lines and the start lines are
there; beat, run at DEBUG here, shows its lines at DEBUG. A routine run that found work still
shows at INFO."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

from celery.app import trace

import pytest

from server import config
from tests.conftest import stop_process
from workers import routine_logs
from workers.celery_app import make_celery

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)

ROUTINE = ("relay_outbox", "sweep_unresolved", "sweep_deadlines", "sweep_webhooks",
           "write_digests", "relay-outbox", "Sending due task", "Discarding")


def _procfile(name: str) -> list[str]:
    for line in (Path(__file__).parents[2] / "Procfile").read_text().splitlines():
        process, _, command = line.partition(":")
        if process.strip() == name:
            words = command.split()
            assert words[0] == "celery", line
            return [sys.executable, "-m", *words]
    raise AssertionError(f"no {name} process in the Procfile")


def _start(command: list[str], env: dict, cwd: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(command, env=env, cwd=cwd, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def _sent(beat_log: Path) -> int:
    """How many routine runs beat has sent (beat runs with DEBUG here: its lines are shown)."""
    return sum(1 for line in beat_log.read_text().splitlines() if "Sending due task" in line)


def test_a_worker_and_beat_at_info_say_nothing_of_routine_runs(tmp_path, whistlestop_env):
    env = dict(whistlestop_env, WHISTLESTOP_OUTBOX_RELAY_SECONDS="2",
               WHISTLESTOP_RESOLVE_SWEEP_SECONDS="2")
    subprocess.run([sys.executable, "-m", "server.cli", "initdb"], env=env, check=True,
                   cwd=Path(__file__).parents[2], capture_output=True)
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    worker = _start(_procfile("worker") + ["--without-heartbeat", "--without-gossip",
                                           "--without-mingle"], env, tmp_path, worker_log)
    beat = _start(_procfile("beat") + ["-s", str(tmp_path / "beat-schedule"), "--loglevel",
                                       "DEBUG"], env, tmp_path, beat_log)
    try:
        deadline = time.monotonic() + 90
        while _sent(beat_log) < 4 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _sent(beat_log) >= 4, beat_log.read_text()[-3000:]
        # One queue, one process: the ping is answered after the routine runs sent before it.
        pong = make_celery(config.from_env(env)).send_task("whistlestop.ping")
        assert pong.get(timeout=60) == "pong"
    finally:
        stop_process(beat)
        stop_process(worker)
    worker_text, beat_text = worker_log.read_text(), beat_log.read_text()
    assert "worker@" in worker_text and "ready." in worker_text
    assert "whistlestop.ping[" in worker_text and "] received" in worker_text
    assert "succeeded in" in worker_text
    assert "beat: Starting..." in beat_text
    assert any("DEBUG/" in line and "Sending due task relay-outbox" in line
               for line in beat_text.splitlines())
    info_lines = [line for line in (worker_text + beat_text).splitlines()
                  if "INFO/" in line or "WARNING/" in line or "ERROR/" in line]
    for word in ROUTINE:
        assert not [line for line in info_lines if word in line], word


def _record(msg: str, args, level: int = logging.INFO,
            name: str = "celery.app.trace") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, (args,) if isinstance(args, dict)
                             else args, None)


def test_a_run_that_found_work_failures_and_debug_still_show():
    quiet = routine_logs.RoutineAtDebug({"whistlestop.relay_outbox"})
    logger = logging.getLogger("celery.app.trace")
    before = logger.level
    logger.setLevel(logging.INFO)
    try:
        idle = _record(trace.LOG_SUCCESS, {"name": "whistlestop.relay_outbox", "id": "1",
                                           "return_value": "0", "runtime": 0.01})
        busy = _record(trace.LOG_SUCCESS, {"name": "whistlestop.relay_outbox", "id": "2",
                                           "return_value": "3", "runtime": 0.01})
        other = _record(trace.LOG_RECEIVED, {"name": "whistlestop.notify", "id": "3"})
        failed = _record("Task %(name)s[%(id)s] raised", {"name": "whistlestop.relay_outbox",
                                                          "id": "4"}, logging.ERROR)
        sending = _record(routine_logs.BEAT_SENDING, ("relay-outbox",
                                                      "whistlestop.relay_outbox"),
                          name="celery.beat")
        assert not quiet.filter(idle) and idle.levelname == "DEBUG"
        assert not quiet.filter(sending)
        late = _record(routine_logs.DISCARDED, ("whistlestop.relay_outbox", "6"),
                       name="celery.worker.request")
        assert not quiet.filter(late)
        assert quiet.filter(busy) and busy.levelno == logging.INFO
        assert quiet.filter(other) and other.levelno == logging.INFO
        assert quiet.filter(failed) and failed.levelno == logging.ERROR
        logger.setLevel(logging.DEBUG)
        again = _record(trace.LOG_SUCCESS, {"name": "whistlestop.relay_outbox", "id": "5",
                                            "return_value": "0", "runtime": 0.01})
        assert quiet.filter(again) and again.levelno == logging.DEBUG
    finally:
        logger.setLevel(before)
