"""Routine periodic work is quiet at INFO (issue 28): what ``scripts/run`` shows a newcomer is the
address to open, mail arriving and errors, not beat's tasks every few seconds.

Beat runs the relay, the sweeps and the digests on a schedule (``beat_schedule``, most of them
every 5 to 60 s). At INFO, Celery logged three lines for each run: beat's "Sending due task",
the worker's "received" and "succeeded" (or "Discarding revoked task" for a run that waited
past its expiry, the next run being due). For the tasks of the beat schedule these lines are
logged at DEBUG instead; a run that found work (it returns how much, and that is not 0) still
says so at INFO, and a failure or a retry is logged as before (WARNING and ERROR lines are never
touched, nor any other task's lines). ``--loglevel DEBUG`` shows everything.

The lines are recognised by Celery's own formats (``celery.app.trace``'s ``LOG_RECEIVED`` and
``LOG_SUCCESS``, beat's "Scheduler: Sending due task"); tests/workers/test_routine_logs.py runs
a real worker and beat and fails if Celery changes them.
"""

from __future__ import annotations

import logging

from celery.app import trace

BEAT_SENDING = "Scheduler: Sending due task %s (%s)"
# A periodic run that waited past its expiry (the next one is due) is dropped by the worker.
DISCARDED = "Discarding revoked task: %s[%s]"
LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.worker.request",
           "celery.beat")


class RoutineAtDebug(logging.Filter):
    """Moves the routine lines of the tasks ``names`` to DEBUG (shown only when the logger
    logs DEBUG)."""

    def __init__(self, names):
        super().__init__()
        self.names = frozenset(names)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not self._routine(record):
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)

    def _routine(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.msg == BEAT_SENDING and isinstance(args, tuple) and len(args) == 2:
            return args[1] in self.names
        if record.msg == DISCARDED and isinstance(args, tuple) and len(args) == 2:
            return args[0] in self.names
        if not isinstance(args, dict) or args.get("name") not in self.names:
            return False
        if record.msg == trace.LOG_RECEIVED:
            return True
        # A run that did something (a count that is not 0) is worth a line.
        return record.msg == trace.LOG_SUCCESS and args.get("return_value") in (0, "0", None,
                                                                                "None")


def routine_tasks(conf) -> set[str]:
    """The names of the tasks beat runs on a schedule."""
    return {entry["task"] for entry in (conf.get("beat_schedule") or {}).values()}


def quiet(conf) -> RoutineAtDebug:
    """Put the filter on Celery's loggers (again, for a changed schedule); returns it."""
    found = RoutineAtDebug(routine_tasks(conf))
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, RoutineAtDebug)]:
            logger.removeFilter(old)
        logger.addFilter(found)
    return found
