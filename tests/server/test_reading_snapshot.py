"""A read-only transaction (server/db.py reading) sees one snapshot of the database, on SQLite
and on PostgreSQL: a decision read while its step resolves is the step's, whole, never half
the step and half its resolution. (On PostgreSQL's READ COMMITTED the decision said "your
turn, nobody has committed" for a step already over, and the e2e game's client then ordered
into a finished game.)"""

from __future__ import annotations

import sqlite3

from engine.core import from_dict
from sqlalchemy import text, update
from sqlmodel import Session, select

from server import db
from server.models import Game, Order, OutboxMessage
from server.services import games as svc

SEATS = {"p1": None, "p2": None, "p3": None}
OPTIONS = {"edition": "dial", "players": 3, "version": "short"}


def _all_sealed(session) -> tuple[int, int]:
    """A new game whose first round every seat has sealed; (game id, step)."""
    gid = svc.create_game(session, "mrpresident", OPTIONS, SEATS, seed="snapshot").id
    game = session.get(Game, gid)
    state = from_dict(game.state)
    assert sorted(state.active()) == sorted(SEATS)
    results = [svc.submit_order(session, gid, seat, game.step, [state.legal_actions(seat)[0]])
               for seat in sorted(SEATS)]
    assert results[-1].all_committed
    return gid, results[-1].step


def test_a_decision_read_while_its_step_resolves_is_the_steps_whole(session, db_engine):
    gid, step = _all_sealed(session)
    with Session(db_engine) as reader:
        db.reading(reader)
        game = reader.get(Game, gid)  # the reader has seen the step...
        assert game.step == step
        with Session(db_engine) as worker:  # ...when the worker resolves it
            assert svc.resolve_step(worker, gid, step)
        decision = svc.decision_for(reader, game, "p1")
        assert decision["step"] == step
        assert not decision["active"] and decision["your_order"] is not None
        assert decision["committed"] == len(SEATS)
        still = reader.exec(select(Order.status).where(Order.game_id == gid,
                                                       Order.step == step)).all()
        assert still == ["pending"] * len(SEATS)
    session.expire_all()
    assert session.get(Game, gid).step > step  # resolved, and seen by the next read


def _isolation(session) -> str | None:
    if session.get_bind().dialect.name != "postgresql":
        return None
    return session.execute(text("SHOW transaction_isolation")).scalar_one()


def test_the_snapshot_ends_with_the_read_and_the_writes_see_what_is_committed(session,
                                                                              db_engine):
    gid, step = _all_sealed(session)
    postgresql = db_engine.dialect.name == "postgresql"
    with Session(db_engine) as reader:
        db.reading(reader)
        assert reader.get(Game, gid).step == step
        assert _isolation(reader) == ("repeatable read" if postgresql else None)
        with Session(db_engine) as worker:
            assert svc.resolve_step(worker, gid, step)
        db.end_reading(reader)
        # The writes' transaction is the default one again (READ COMMITTED on PostgreSQL: the
        # step's compare-and-set finds a step taken meanwhile, it does not fail to serialize).
        assert _isolation(reader) == ("read committed" if postgresql else None)
        assert reader.exec(select(Game.step).where(Game.id == gid)).one() > step
        touched = reader.execute(update(Game).where(Game.id == gid, Game.step == step)
                                 .values(step=Game.step))
        assert touched.rowcount == 0
        reader.rollback()


def test_read_afresh_drops_what_was_begun_and_reads_without_the_write_lock(session, db_engine):
    """What a refused order's answer reads ("what is asked now"): the order's transaction is
    gone, the read is one snapshot, and on SQLite another writer is not kept waiting."""
    gid, step = _all_sealed(session)
    postgresql = db_engine.dialect.name == "postgresql"
    with Session(db_engine) as refused:
        refused.add(OutboxMessage(kind="probe", payload={}))
        refused.flush()
        db.read_afresh(refused)
        assert refused.get(Game, gid).step == step
        assert _isolation(refused) == ("repeatable read" if postgresql else None)
        assert not refused.exec(select(OutboxMessage).where(OutboxMessage.kind == "probe")).all()
        if not postgresql:  # the reader holds no write lock: a writer gets it at once
            writer = sqlite3.connect(db_engine.url.database, isolation_level=None, timeout=0)
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("ROLLBACK")
            writer.close()
