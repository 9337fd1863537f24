"""The worker's Celery app with a note of every task's start and end, for bench/told_latency.py:
``celery -A bench.told_probe worker ...`` (the Procfile's command with this app instead of
workers.celery_app). Each pool process appends ``start|end <time.monotonic()> <task> <args as
JSON>`` lines to the file BENCH_PROBE_FILE names; time.monotonic() is the same clock in every
process of the machine."""

from __future__ import annotations

import json
import os
import time

from celery.signals import task_postrun, task_prerun

from workers.celery_app import celery  # noqa: F401  (the app the worker runs)

_out = {}


def _note(event: str, task, args) -> None:
    now = time.monotonic()
    path = os.environ.get("BENCH_PROBE_FILE")
    if not path:
        return
    out = _out.get(os.getpid())
    if out is None:
        out = _out[os.getpid()] = open(path, "a", buffering=1)
    out.write(f"{event} {now:.6f} {task.name} {json.dumps(list(args or []), default=str)}\n")


@task_prerun.connect
def _started(task_id=None, task=None, args=None, **_kwargs) -> None:
    _note("start", task, args)


@task_postrun.connect
def _ended(task_id=None, task=None, args=None, **_kwargs) -> None:
    _note("end", task, args)
