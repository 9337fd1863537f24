"""Core statements run on the driver's cursor (server/raw_sql.py), on SQLite and PostgreSQL:
they write and read what SQLAlchemy's own execution writes and reads, as part of the session's
transaction."""

from __future__ import annotations

import gc
import weakref
from datetime import datetime, timezone

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, bindparam, insert, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm.exc import UnmappedInstanceError
from sqlmodel import Session
from sqlmodel import select as orm_select

from server import db
from server.models import Game, LogEntry, Order, OutboxMessage, User, aware
from server.raw_sql import Raw
from server.services import games as svc
from server.services import users
from workers.tasks import TRANSIENT_DB_ERRORS

SEATS = {"kennedy": None, "nixon": None}
MOMENT = datetime(2026, 11, 25, 21, 30, 15, 123456, tzinfo=timezone.utc)


def _game(session) -> Game:
    return svc.create_game(session, "tmotp", {}, SEATS, seed="raw")


def test_an_update_writes_json_and_datetimes_as_sqlalchemy_does(session, db_engine):
    game = _game(session)
    game_id, step = game.id, game.step
    game_table = Game.__table__
    statement = Raw(update(game_table).where(game_table.c.id == bindparam("match_id"),
                                             game_table.c.step == bindparam("match_step")))
    state = {"log": [["kennedy", "play 5 cp"]], "nested": {"list": [1, 2.5, None, True]}}
    cursor = statement.execute(session.connection(), {
        "match_id": game_id, "match_step": step, "state": state, "deadline_at": MOMENT,
        "step": step + 7})
    assert cursor.rowcount == 1
    missed = statement.execute(session.connection(), {
        "match_id": game_id, "match_step": step, "step": 0})
    assert missed.rowcount == 0  # the step is no longer the one matched
    session.commit()
    with Session(db_engine) as other:  # read back by SQLAlchemy's ORM, in another session
        stored = db.reading(other).get(Game, game_id)
        assert stored.state == state
        assert aware(stored.deadline_at) == MOMENT
        assert stored.step == step + 7


def test_inserts_one_or_many_rows_and_return_the_new_id(session, db_engine):
    game_id = _game(session).id
    outbox = Raw(insert(OutboxMessage.__table__), returning_id=True)
    first = outbox.insert_id(session.connection(), {
        "kind": "your_decision", "payload": {"game_id": game_id, "seat": "nixon"},
        "created_at": MOMENT, "attempts": 0})
    second = outbox.insert_id(session.connection(), {
        "kind": "game_over", "payload": {"game_id": game_id}, "created_at": MOMENT,
        "attempts": 0})
    assert second == first + 1
    log = Raw(insert(LogEntry.__table__))
    log.executemany(session.connection(), [
        {"game_id": game_id, "seq": 1000 + i, "seat": "kennedy", "action": f"a{i}",
         "is_chance": i == 1} for i in range(3)])
    log.executemany(session.connection(), [])  # nothing to insert: no statement
    session.commit()
    with Session(db_engine) as other:
        row = db.reading(other).get(OutboxMessage, first)
        assert (row.kind, row.payload, aware(row.created_at), row.delivered_at) == (
            "your_decision", {"game_id": game_id, "seat": "nixon"}, MOMENT, None)
        entries = [other.get(LogEntry, (game_id, 1000 + i)) for i in range(3)]
        assert [(e.action, e.is_chance) for e in entries] == [("a0", False), ("a1", True),
                                                              ("a2", False)]


def test_a_select_returns_its_columns_typed_as_sqlalchemy_reads_them(session):
    user = users.create_user(session, "raw@example.invalid")
    token = users.issue_token(session, user.id)
    owner, last_used = users.token_owner(session, token)
    assert (owner.id, owner.email, owner.locale, owner.mail_mode) == (
        user.id, "raw@example.invalid", "en", "every")
    assert isinstance(owner.created_at, datetime) and last_used is None
    assert users.token_owner(session, token + "x") == (None, None)
    by_hand = Raw(select(User.__table__.c.created_at).where(
        User.__table__.c.id == bindparam("id")))
    assert by_hand.rows(session.connection(), {"id": user.id}) == [(owner.created_at,)]
    assert by_hand.rows(session.connection(), {"id": -1}) == []


def test_the_token_owner_is_a_read_only_copy_of_the_row_no_session_can_save(session,
                                                                           db_engine):
    """The token's owner is read on the driver's cursor as the account's columns
    (``users.Caller``), not an ORM object: nothing to change, nor to save by accident; code
    that changes an account reads it afresh (as PATCH /me does)."""
    user = users.create_user(session, "detached@example.invalid")
    token = users.issue_token(session, user.id)
    owner, _ = users.token_owner(session, token)
    assert owner._asdict() == {c: getattr(user, c) for c in User.__table__.c.keys()}
    session.commit()  # (on SQLite, this session's transaction holds the write lock until now)
    with pytest.raises(AttributeError):
        owner.locale = "fr"
    with Session(db_engine) as other:
        with pytest.raises(UnmappedInstanceError):
            other.add(owner)
        assert len(other.exec(orm_select(User).where(
            User.email == "detached@example.invalid")).all()) == 1


def test_its_writes_are_the_transactions_and_roll_back_with_it(session, db_engine):
    game_id = _game(session).id
    outbox = Raw(insert(OutboxMessage.__table__), returning_id=True)
    row_id = outbox.insert_id(session.connection(), {
        "kind": "your_decision", "payload": {}, "created_at": MOMENT, "attempts": 0})
    with Session(db_engine) as other:  # not committed: nobody else sees it
        assert db.reading(other).get(OutboxMessage, row_id) is None
    session.rollback()
    assert session.get(OutboxMessage, row_id) is None
    assert session.get(Game, game_id) is not None


def test_a_statement_needing_sqlalchemys_execution_is_refused(session):
    table = Table("counter", MetaData(), Column("id", Integer, primary_key=True),
                  Column("n", Integer, default=lambda: 1))
    with pytest.raises(ValueError, match="not a fixed statement"):
        Raw(insert(table)).execute(session.connection(), {"id": 1})
    games = Game.__table__
    in_list = Raw(select(games.c.id).where(games.c.id.in_(bindparam("ids", expanding=True))))
    with pytest.raises(ValueError, match="not a fixed statement"):
        in_list.rows(session.connection(), {"ids": [1, 2]})


def test_the_compiled_forms_go_with_their_engine(tmp_path):
    """Kept by the engine's dialect, not by the statement: an engine that is gone (a test's)
    takes them with it."""
    url = f"sqlite:///{tmp_path / 'gone.db'}"
    db.migrate(url)
    engine = db.make_engine(url)
    statement = Raw(select(Game.__table__.c.id).where(Game.__table__.c.id == bindparam("id")))
    with Session(engine) as session:
        assert statement.rows(session.connection(), {"id": 1}) == []
    dialect = weakref.ref(engine.dialect)
    engine.dispose()
    del engine, session
    gc.collect()
    assert dialect() is None


def test_a_drivers_error_is_raised_as_sqlalchemys(session):
    """Callers catch SQLAlchemy's errors (a unique row written twice), and the tasks retry on
    them (workers.tasks.TRANSIENT_DB_ERRORS): the driver's own are raised as those."""
    game_id = _game(session).id
    order = Raw(insert(Order.__table__))
    row = {"game_id": game_id, "step": 1, "seat": "nixon", "actions": ["x"],
           "status": "applied", "created_at": MOMENT, "updated_at": MOMENT}
    order.execute(session.connection(), row)
    with pytest.raises(sa_exc.IntegrityError) as raised:
        order.execute(session.connection(), row)
    assert isinstance(raised.value.orig, session.get_bind().dialect.loaded_dbapi.Error)
    assert not raised.value.connection_invalidated
    session.rollback()
    assert session.get(Game, game_id) is not None  # the session goes on


def test_a_connection_the_database_dropped_is_invalidated_and_the_task_retries(postgres_url):
    """PostgreSQL restarted, or the connection killed: a transient error (the tasks retry), and
    the dropped connection is not handed out again."""
    db.migrate(postgres_url)
    engine = db.make_engine(postgres_url)
    try:
        with Session(engine) as session:
            game_id = _game(session).id
            pid = session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
            with engine.connect() as killer:
                killer.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
            statement = Raw(select(Game.__table__.c.step).where(
                Game.__table__.c.id == bindparam("id")))
            with pytest.raises(TRANSIENT_DB_ERRORS) as raised:
                statement.rows(session.connection(), {"id": game_id})
            assert raised.value.connection_invalidated
            session.rollback()
            assert statement.rows(session.connection(), {"id": game_id})  # a new connection
            assert session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    finally:
        engine.dispose()


def test_a_value_missing_is_named_and_nothing_runs(session):
    games = Game.__table__
    game_id = _game(session).id
    statement = Raw(update(games).where(games.c.id == bindparam("match_id"),
                                        games.c.status == "active"))
    with pytest.raises(ValueError, match=r"values missing for \['match_id'\]"):
        statement.execute(session.connection(), {"step": 0})
    assert statement.execute(session.connection(), {"step": 5, "match_id": game_id}).rowcount == 1


def test_the_kept_connection_is_the_transactions_own(session):
    """``db.connection`` answers as ``session.connection()`` does: the same connection while
    one transaction lasts, SQLAlchemy's new one after a commit or a rollback, and SQLAlchemy's
    own refusal once a failed flush has made the transaction unusable."""
    first = db.connection(session)
    assert first is session.connection() and db.connection(session) is first
    session.commit()
    second = db.connection(session)
    assert second is session.connection() and second.in_transaction()
    session.rollback()
    assert db.connection(session) is session.connection()
    db.connection(session)
    session.add(User(email="twice@example.invalid", display_name="A"))
    session.add(User(email="twice@example.invalid", display_name="B"))
    with pytest.raises(sa_exc.IntegrityError):
        session.flush()
    with pytest.raises(sa_exc.InvalidRequestError) as ours:
        db.connection(session)
    with pytest.raises(sa_exc.InvalidRequestError) as theirs:
        session.connection()
    assert str(ours.value) == str(theirs.value)
    session.rollback()
    assert db.connection(session).in_transaction()


def test_literals_and_keys_in_any_order_reach_the_driver_as_sqlalchemys_own(session,
                                                                            db_engine):
    """A statement's own values (processed once, when it is compiled) and the values given,
    in either order of their keys, are what SQLAlchemy's execution writes."""
    game_id = _game(session).id
    table = Order.__table__
    statement = Raw(insert(table).values(status="applied", actions=["fixed"]))
    row = {"game_id": game_id, "step": 7, "seat": "nixon", "created_at": MOMENT,
           "updated_at": MOMENT}
    statement.execute(session.connection(), row)
    statement.execute(session.connection(), dict(reversed(list(row.items())), step=8))
    session.commit()
    got = session.execute(select(table.c.step, table.c.status, table.c.actions,
                                 table.c.created_at).where(table.c.game_id == game_id,
                                                           table.c.step >= 7)
                          .order_by(table.c.step)).all()
    assert [(s, st, a, aware(c)) for s, st, a, c in got] == [
        (7, "applied", ["fixed"], MOMENT), (8, "applied", ["fixed"], MOMENT)]
