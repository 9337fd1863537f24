"""SQLite's write lock (server/db.py): a writer waits for it in short steps and takes it as soon
as it is free, leaves longer waits to SQLite's own handler, and never hides another error; the
JSON columns' text."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from sqlmodel import Session, select

from server import db
from server.models import OutboxMessage


@pytest.fixture
def path(tmp_path):
    file = tmp_path / "w.db"
    conn = sqlite3.connect(file, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()
    return file


def _connect(path):
    return sqlite3.connect(path, isolation_level=None, timeout=db.BUSY_TIMEOUT_MS / 1000,
                           check_same_thread=False)


def test_a_writer_takes_the_lock_once_it_is_released(path, monkeypatch):
    monkeypatch.setattr(db, "FINE_WAIT_SECONDS", 30.0)  # a slow machine must not give it up
    holder, waiter = _connect(path), _connect(path)
    holder.execute("BEGIN IMMEDIATE")
    events, got = [], []

    def wait():
        got.append(db.begin_immediate(waiter))
        events.append("taken")

    thread = threading.Thread(target=wait)
    thread.start()
    thread.join(0.05)
    assert thread.is_alive()  # it waits while the lock is held
    events.append("released")
    holder.execute("COMMIT")
    thread.join(5)
    assert got == [True] and events == ["released", "taken"]
    waiter.execute("INSERT INTO t VALUES (1)")
    waiter.execute("COMMIT")
    # Its busy timeout is back for the statements that follow.
    assert waiter.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS


def test_after_the_fine_wait_it_leaves_the_rest_to_sqlite(path, monkeypatch):
    monkeypatch.setattr(db, "FINE_WAIT_SECONDS", 0.02)
    holder, waiter = _connect(path), _connect(path)
    holder.execute("BEGIN IMMEDIATE")
    assert db.begin_immediate(waiter) is False
    assert not waiter.in_transaction
    assert waiter.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
    holder.execute("COMMIT")


def test_an_engine_write_still_waits_when_the_lock_is_held_longer(tmp_path, monkeypatch):
    """Past the fine wait, SQLite's own handler waits on: the write is done, not refused."""
    monkeypatch.setattr(db, "FINE_WAIT_SECONDS", 0.01)
    url = f"sqlite:///{tmp_path / 'e.db'}"
    db.migrate(url)
    engine = db.make_engine(url)
    holder = _connect(tmp_path / "e.db")
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        with Session(engine) as session:
            session.add(OutboxMessage(kind="probe", payload={"n": 1}))
            session.commit()
            assert session.exec(select(OutboxMessage.kind)).all() == ["probe"]
    finally:
        release.join()
        engine.dispose()


def test_another_error_is_not_taken_for_a_busy_lock(path):
    conn = _connect(path)
    conn.execute("BEGIN")
    with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
        db.begin_immediate(conn)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS


def test_json_columns_are_written_as_the_standard_library_reads_them():
    value = {"log": [["kennedy", "play 12 cp"]], 3: "a key that is a number",
             "name": "ケネディ", "share": 0.25, "none": None}
    text = db.json_text(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert "ケネディ" in text  # written as it is, not escaped
