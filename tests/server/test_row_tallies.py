"""A process's tallies of growing tables (server/row_tallies.py): the same counts as the plain
GROUP BY at every reading, while rows are written, settle and (new ones) are deleted, on SQLite
and PostgreSQL; and a metrics scrape after the first reads the settled history no more."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from sqlalchemy import delete, event, func, select

from server.models import OutboxMessage, utcnow
from server.row_tallies import SETTLED, Tally, total

OUTBOX = OutboxMessage.__table__


def _plain(session) -> Counter:
    return Counter(dict(session.execute(select(OUTBOX.c.kind, func.count())
                                        .group_by(OUTBOX.c.kind)).all()))


def test_a_tally_counts_as_the_plain_query_at_every_reading(session):
    rng = random.Random(28)
    by_kind, everything = Tally(OUTBOX, "kind"), Tally(OUTBOX)
    now = utcnow()
    for round_ in range(12):
        # Rows written long ago (settled), lately, and now; ids not in the order of their
        # times, as concurrent transactions give them out.
        for _ in range(rng.randrange(1, 8)):
            age = rng.choice([SETTLED * 3, SETTLED * 1.5, timedelta(minutes=5),
                              timedelta(0)])
            session.add(OutboxMessage(kind=rng.choice(["a", "b", "step_resolved"]),
                                      created_at=now - age))
        session.commit()
        if round_ % 3 == 2:  # a take-back withdraws new rows (never settled ones)
            newest = session.execute(select(func.max(OUTBOX.c.id))).scalar()
            session.execute(delete(OUTBOX).where(OUTBOX.c.id == newest,
                                                 OUTBOX.c.created_at > now - SETTLED))
            session.commit()
        connection = session.connection()
        assert by_kind.read(connection, now) == _plain(session)
        assert total(everything.read(connection, now)) == sum(_plain(session).values())
        session.commit()
        now += timedelta(minutes=20)  # time passes: more rows settle
    assert by_kind.upto > 0
    settled = session.execute(select(func.max(OUTBOX.c.id)).where(
        OUTBOX.c.created_at < now - timedelta(minutes=20) - SETTLED)).scalar()
    assert by_kind.upto == settled


def test_the_second_reading_reads_only_rows_above_the_settled_ones(session, db_engine):
    now = utcnow()
    session.add_all([OutboxMessage(kind="old", created_at=now - SETTLED * 2)
                     for _ in range(30)])
    session.add(OutboxMessage(kind="new", created_at=now))
    session.commit()
    tally = Tally(OUTBOX, "kind")
    assert tally.read(session.connection(), now) == Counter({"old": 30, "new": 1})
    session.commit()
    seen = []
    listener = (lambda conn, cursor, statement, parameters, context, executemany:
                seen.append((statement, parameters)))
    event.listen(db_engine, "before_cursor_execute", listener)
    try:
        assert tally.read(session.connection(), now) == Counter({"old": 30, "new": 1})
    finally:
        event.remove(db_engine, "before_cursor_execute", listener)
    assert seen, "the second reading ran no statement"
    for statement, parameters in seen:  # every statement bounded below by the watermark
        values = parameters.values() if isinstance(parameters, dict) else parameters
        assert "id >" in statement and tally.upto in list(values), statement
