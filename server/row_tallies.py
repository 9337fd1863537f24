"""Counts of a growing table's rows, kept by the process so that a scrape reads only the newest
rows (issue 28: GET /metrics with 10,000 games at once; bench/sweep_scale.py).

A ``Tally`` counts a table's rows by one column (or all of them) the way ``SELECT column,
count(*) GROUP BY column`` does, but reads each old row once: rows up to a watermark id are
counted once and kept, and each reading counts only the rows above it, then moves the watermark
to the newest row written more than ``SETTLED`` ago. That is exact for rows that, once that old,
are neither deleted nor change the counted column: the outbox's rows (kind), task failures,
and the orders counted as a whole (their status changes: ``metrics`` reads the statuses other
than "applied" from their own partial index instead). Ids are not given out in the order of
commits, so the watermark stays behind by ``SETTLED``, far longer than any transaction or a
take-back's hold (services/holds.py: 15 minutes at most, after which its held outbox rows are
never deleted).

The first reading in a process counts every row once, as the plain query did each time.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.sql.schema import Table

# How old a row must be before its count is kept: past every open transaction and hold.
SETTLED = timedelta(hours=1)

_ALL = ""  # the key of a tally of all rows (no column)


class Tally:
    """The rows of ``table`` counted by ``column`` (None: all rows, under the key "")."""

    def __init__(self, table: Table, column: str | None = None):
        self.table = table
        self.column = table.c[column] if column else None
        self.upto = 0  # rows with an id up to this are counted in ``kept``
        self.kept: Counter = Counter()
        self._lock = threading.Lock()

    def read(self, connection, now: datetime) -> Counter:
        """The counts now, on ``connection`` (in the caller's transaction)."""
        with self._lock:
            self._settle(connection, now - SETTLED)
            out = Counter(self.kept)
            out.update(self._count(connection, self.upto))
            return out

    def _settle(self, connection, before: datetime) -> None:
        """Keep the counts of the rows up to the newest one written before ``before``."""
        t = self.table
        newest = connection.execute(select(func.max(t.c.id)).where(
            t.c.id > self.upto, t.c.created_at < before)).scalar()
        if newest is None:
            return
        self.kept.update(self._count(connection, self.upto, newest))
        self.upto = newest

    def _count(self, connection, above: int, upto: int | None = None) -> Counter:
        t = self.table
        where = [t.c.id > above] + ([t.c.id <= upto] if upto is not None else [])
        if self.column is None:
            n = connection.execute(select(func.count()).select_from(t).where(*where)).scalar()
            return Counter({_ALL: n}) if n else Counter()
        return Counter(dict(connection.execute(
            select(self.column, func.count()).where(*where).group_by(self.column)).all()))


def total(counts: Counter) -> int:
    """The count of a tally of all rows."""
    return counts.get(_ALL, 0)
