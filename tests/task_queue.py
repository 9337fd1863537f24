"""Tasks that wait in a broker instead of running: this process's Celery app on the embedded
(filesystem) broker in a test's folder, eager mode off, and what waits there read back.

The outbox sends a transaction's rows when it commits (server/services/outbox.py); a test that
wants to see what was sent, or to run the task's work itself, queues them here.
"""

from __future__ import annotations

import base64
import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from server import config
from workers.celery_app import celery, reconfigure


@contextmanager
def queued(folder: Path):
    """Tasks published meanwhile wait in ``folder``'s filesystem broker (none runs inline, even
    in eager mode); yields a function that returns (task name, args) of each message waiting
    there, oldest first."""
    eager = celery.conf.task_always_eager
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": "filesystem://",
                                 "WHISTLESTOP_BROKER_DIR": str(folder),
                                 "WHISTLESTOP_VAR_DIR": str(folder / "var"),
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    celery.conf.task_always_eager = False

    def waiting() -> list[tuple[str, list]]:
        found = []
        for path in sorted((folder / "queue").glob("*"), key=lambda p: p.stat().st_mtime_ns):
            message = json.loads(path.read_text())
            body = json.loads(base64.b64decode(message["body"]))
            found.append((message["headers"]["task"], body[0]))
        return found

    try:
        yield waiting
    finally:
        reconfigure(config.from_env())
        celery.conf.task_always_eager = eager


@pytest.fixture
def task_queue(tmp_path):
    """``queued`` for the whole test, in tmp_path/task-queue."""
    with queued(tmp_path / "task-queue") as waiting:
        yield waiting
