"""The API order's session (server/light_session.py), on SQLite and PostgreSQL: a transaction on
a Core connection that commits, rolls back and sends what it wrote as an ORM session does, with
the ORM joined to it for whatever else a service asks."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import text
from sqlmodel import Session, select

from server import db
from server.light_session import LightSession
from server.models import Game, OutboxMessage, User
from server.services import games as svc
from server.services import live, outbox


@pytest.fixture
def sent(monkeypatch) -> list:
    """What the commits sent: ("row", kind, payload) of the outbox's rows and ("news", game,
    step, status)."""
    out: list = []
    monkeypatch.setattr(outbox, "send", lambda bind, rows: out.extend(
        ("row", row.kind, row.payload) for row in rows) or len(rows))
    monkeypatch.setattr(live, "publish", lambda news, url=None: out.extend(
        ("news", n.game_id, n.step, n.status) for n in news) or len(news))
    return out


def _game_id(engine) -> int:
    with Session(engine) as session:
        return svc.create_game(session, "tmotp", {}, {"kennedy": None, "nixon": None},
                               seed="light").id


def test_a_commit_sends_what_it_wrote_after_it_and_a_rollback_forgets_it(db_engine, sent):
    game_id = _game_id(db_engine)
    sent.clear()
    light = LightSession(db_engine)
    outbox.write(light, "game_over", {"game_id": game_id})
    live.changed(light, game_id, 41, "finished")
    assert sent == []  # nothing before the commit
    light.commit()
    assert sorted(sent, key=repr) == [("news", game_id, 41, "finished"),
                                      ("row", "game_over", {"game_id": game_id})]
    assert db_engine.pool.checkedout() == 0  # its connection is back in the pool

    sent.clear()
    outbox.write(light, "game_over", {"game_id": game_id})
    live.changed(light, game_id, 42, "finished")
    light.rollback()
    light.commit()  # nothing open: nothing to commit, nothing sent
    assert sent == [] and db_engine.pool.checkedout() == 0
    with Session(db_engine) as other:
        rows = other.exec(select(OutboxMessage).where(OutboxMessage.kind == "game_over")).all()
        assert [row.payload for row in rows] == [{"game_id": game_id}]  # the first only


def test_the_orm_joins_its_transaction_and_its_rows_are_sent_too(db_engine, sent):
    game_id = _game_id(db_engine)
    sent.clear()
    light = LightSession(db_engine)
    outbox.write(light, "game_over", {"game_id": game_id})  # on the driver's cursor
    game = light.get(Game, game_id)  # the ORM, in the same transaction
    assert light.in_transaction() and game.id == game_id
    light.add(OutboxMessage(kind="game_started", payload={"game_id": game_id}))
    assert len(light.new) == 1
    seen = light.exec(select(OutboxMessage).where(OutboxMessage.kind == "game_over")).all()
    assert [row.payload for row in seen] == [{"game_id": game_id}]  # the cursor's row, seen
    light.commit()
    assert sorted(sent, key=repr) == [("row", "game_over", {"game_id": game_id}),
                            ("row", "game_started", {"game_id": game_id})]
    assert game.game_type == "tmotp"  # read after the transaction: detached, its values kept
    assert db_engine.pool.checkedout() == 0


def test_a_failed_flush_refuses_the_transaction_until_its_rollback(db_engine, sent):
    light = LightSession(db_engine)
    db.connection(light)
    light.add(User(email="twice@example.invalid", display_name="A"))
    light.add(User(email="twice@example.invalid", display_name="B"))
    with pytest.raises(sa_exc.IntegrityError):
        light.flush()
    # A statement on the driver now would run outside any transaction: refused, as a
    # session refuses it.
    with pytest.raises(sa_exc.PendingRollbackError):
        db.connection(light)
    light.rollback()
    assert db.connection(light).in_transaction()
    light.add(User(email="once@example.invalid", display_name="C"))
    light.commit()
    with Session(db_engine) as other:
        emails = {u.email for u in other.exec(select(User)).all()}
    assert "once@example.invalid" in emails and "twice@example.invalid" not in emails
    assert sent == []


def test_a_commit_that_fails_rolls_back_and_sends_nothing(db_engine, sent):
    light = LightSession(db_engine)
    outbox.write(light, "game_over", {"game_id": 1})
    light.add(User(email="twice@example.invalid", display_name="A"))
    light.add(User(email="twice@example.invalid", display_name="B"))
    with pytest.raises(sa_exc.IntegrityError):
        light.commit()
    assert not light.in_transaction() and sent == []
    assert db_engine.pool.checkedout() == 0
    with Session(db_engine) as other:
        assert other.exec(select(OutboxMessage)
                          .where(OutboxMessage.kind == "game_over")).all() == []


def _write_lock_free(url: str) -> bool:
    """Whether another SQLite connection can take the write lock now."""
    other = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def _isolation(light: LightSession) -> str:
    return db.connection(light).exec_driver_sql("SHOW transaction_isolation").scalar()


def test_a_read_then_the_write_and_the_next_transaction_as_a_sessions(db_engine, db_url):
    """``db.reading``: on SQLite no write lock, on PostgreSQL one snapshot (REPEATABLE READ);
    ``db.end_reading``: the write transaction (SQLite: the lock taken); and the transaction
    after the commit is an ordinary one: the read's options went with its connection."""
    game_id = _game_id(db_engine)
    light = db.reading(LightSession(db_engine))
    assert light.get(Game, game_id).step >= 1
    sqlite = db_engine.dialect.name == "sqlite"
    if sqlite:
        assert _write_lock_free(db_url)
    else:
        assert _isolation(light) == "repeatable read"
    db.end_reading(light)
    if sqlite:
        assert not _write_lock_free(db_url)
    else:
        assert _isolation(light) == "read committed"
    db.connection(light).execute(text("UPDATE game SET step = step WHERE id = :id"),
                                 {"id": game_id})
    light.commit()
    if sqlite:
        assert _write_lock_free(db_url)
        db.connection(light)  # the next transaction: IMMEDIATE again
        assert not _write_lock_free(db_url)
    else:
        assert _isolation(light) == "read committed"
    light.close()
    assert db_engine.pool.checkedout() == 0
