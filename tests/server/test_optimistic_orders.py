"""An order read in a read-only transaction and written in another (server/db.py reading and
end_reading): the rules run without the write lock, and the step's compare-and-set refuses an
order whose step was taken meanwhile. On SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3

import pytest
from engine.core import from_dict
from sqlalchemy import inspect
from sqlmodel import Session, func, select

from server import db
from server.models import Game, LogEntry, Order, OutboxMessage
from server.services import games as svc
from server.services.games import StaleStep

SEATS = {"kennedy": None, "nixon": None}


def _counts(session, gid) -> tuple[int, int, int]:
    return tuple(session.exec(select(func.count()).select_from(model).where(*where)).one()
                 for model, where in ((LogEntry, (LogEntry.game_id == gid,)),
                                      (Order, (Order.game_id == gid,)),
                                      (OutboxMessage, ())))


def _write_lock_taken(engine) -> bool:
    """Whether another connection would wait for SQLite's write lock now (never on PostgreSQL,
    which has no database-wide write lock)."""
    if engine.dialect.name != "sqlite":
        return False
    other = sqlite3.connect(engine.url.database, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
        return True
    finally:
        other.close()


def _first_decision(session, gid):
    state = from_dict(session.get(Game, gid).state)
    seat = state.active()[0]
    legal = state.legal_actions(seat)
    assert len(legal) >= 2
    return seat, legal


def test_an_order_whose_step_was_taken_while_it_was_played_is_stale(session, db_engine,
                                                                     monkeypatch):
    gid = svc.create_game(session, "tmotp", {}, SEATS, seed="race").id
    seat, legal = _first_decision(session, gid)
    session.commit()
    real_end_reading, raced = db.end_reading, []

    def a_rival_commits_first(s):
        # Between this order's reads and its writes, the same seat's other order (a second
        # browser tab) is applied: it read and wrote while this one held no lock.
        if not raced:
            raced.append(True)
            with Session(db_engine) as rival:
                svc.submit_order(rival, gid, seat, 1, [legal[1]])
        real_end_reading(s)

    monkeypatch.setattr(db, "end_reading", a_rival_commits_first)
    with Session(db_engine) as mine:
        db.reading(mine)
        with pytest.raises(StaleStep) as refused:
            svc.submit_order(mine, gid, seat, 1, [legal[0]])
    assert raced and refused.value.step == 2
    session.expire_all()
    orders = session.exec(select(Order).where(Order.game_id == gid)).all()
    assert [(o.step, o.actions) for o in orders] == [(1, [legal[1]])]  # the rival's, alone
    log = [row.action for row in session.exec(select(LogEntry).where(LogEntry.game_id == gid)
                                              .order_by(LogEntry.seq))]
    assert legal[1] in log and legal[0] not in log
    assert svc.rebuild(session, gid)  # the cache is exactly the log replayed


def test_without_a_rival_the_order_read_without_the_lock_is_applied(session, db_engine):
    gid = svc.create_game(session, "tmotp", {}, SEATS, seed="alone").id
    seat, legal = _first_decision(session, gid)
    before = _counts(session, gid)
    session.commit()
    with Session(db_engine) as mine:
        db.reading(mine)
        result = svc.submit_order(mine, gid, seat, 1, [legal[0]])
    assert result.step == 2
    session.expire_all()
    after = _counts(session, gid)
    assert after[0] > before[0] and after[1] == before[1] + 1
    assert session.get(Game, gid).step == 2 and svc.rebuild(session, gid)


def test_end_reading_ends_only_the_read_it_began_and_keeps_what_was_read(session, db_engine):
    gid = svc.create_game(session, "tmotp", {}, SEATS, seed="keep").id
    session.commit()
    sqlite = db_engine.dialect.name == "sqlite"
    with Session(db_engine) as reader:
        db.reading(reader)
        game = reader.get(Game, gid)
        assert not _write_lock_taken(db_engine)  # reading holds no lock
        db.end_reading(reader)
        if sqlite:  # the same connection goes on, now holding the write lock
            assert reader.in_transaction() and _write_lock_taken(db_engine)
        else:       # the read transaction is over; the next statement begins a new one
            assert not reader.in_transaction()
        assert not inspect(game).expired_attributes  # read again by nobody
        assert game.step == 1
        db.end_reading(reader)  # once only: nothing to end now
        assert reader.in_transaction() is sqlite
    assert not _write_lock_taken(db_engine)  # closing the session gave it back
    with Session(db_engine) as writer:  # a write transaction is never committed by it
        writer.add(OutboxMessage(kind="probe", payload={}))
        writer.flush()
        db.end_reading(writer)
        assert writer.in_transaction()
        writer.rollback()
    session.expire_all()
    assert not session.exec(select(OutboxMessage).where(OutboxMessage.kind == "probe")).all()
