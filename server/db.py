"""Database engine: one SQLModel/SQLAlchemy engine per Flask app."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import orjson
from flask import Flask, current_app, g
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlmodel import Session, SQLModel, create_engine

from server.light_session import LightSession

_EXTENSION_KEY = "whistlestop.db"


def _worker_timeout(env=os.environ) -> int:
    """WHISTLESTOP_WORKER_TIMEOUT_SECONDS: a whole number of 3 or more (default 30)."""
    value = (env.get("WHISTLESTOP_WORKER_TIMEOUT_SECONDS") or "30").strip()
    if not value.isascii() or not value.isdigit() or int(value) < 3:
        raise ValueError("WHISTLESTOP_WORKER_TIMEOUT_SECONDS must be a whole number of "
                         f"seconds, 3 or more, not {value!r}.")
    return int(value)


# gunicorn kills a web worker whose request runs longer than this (its `timeout`, which
# server/gunicorn_conf.py takes from here), with no answer to the client.
WORKER_TIMEOUT_SECONDS = _worker_timeout()
# How long a statement waits for a lock (SQLite's write lock: its busy timeout; a PostgreSQL
# row or table lock: its lock_timeout) before it gives up with an error, which the app answers
# 503 with Retry-After (server/locked_database.py). A third of the worker timeout: the request
# gives up and answers well before gunicorn would kill it, with time left for the rest of it.
BUSY_TIMEOUT_MS = WORKER_TIMEOUT_SECONDS * 1000 // 3
# How long a writer waits for it in short steps (begin_immediate) before it leaves the rest of
# the wait to SQLite's own handler: a second, or a tenth of the busy timeout if that is shorter.
FINE_WAIT_SECONDS = min(1.0, BUSY_TIMEOUT_MS / 10_000)


def json_text(value) -> str:
    """JSON columns' text, written by orjson: a game's cached state (tens of kB) is written by
    every order, inside its transaction, and orjson does it ten times faster than the standard
    library. Keys that are not strings are written as strings, as the standard library does."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str) -> Engine:
    """Return an engine for the URL, creating the parent folder of a SQLite file."""
    parsed = make_url(url)
    connect_args: dict = {}
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # Gunicorn and Celery use threads too; each session is still confined to one thread.
        connect_args["check_same_thread"] = False
        connect_args["timeout"] = BUSY_TIMEOUT_MS / 1000  # wait for the write lock, not fail
    elif parsed.get_backend_name() == "postgresql":
        connect_args["options"] = f"-c lock_timeout={BUSY_TIMEOUT_MS}"
    # A pre-ping finds a server connection that died while pooled; a SQLite file cannot.
    engine = create_engine(url, connect_args=connect_args,
                           pool_pre_ping=parsed.get_backend_name() != "sqlite",
                           json_serializer=json_text, json_deserializer=orjson.loads)
    if parsed.get_backend_name() == "sqlite":
        _serialize_sqlite_writers(engine)
    return engine


def _serialize_sqlite_writers(engine: Engine) -> None:
    """Make every SQLite transaction take the write lock when it begins (BEGIN IMMEDIATE).

    With SQLite's default deferred transactions, two processes that read and then write fail
    with "database is locked" without waiting; an immediate transaction waits its turn
    (the busy timeout) instead. WAL lets readers of other processes go on meanwhile.
    This is SQLAlchemy's documented recipe for pysqlite's transaction handling.

    synchronous=NORMAL is SQLite's advice for WAL mode (and Rails' default): a commit no
    longer waits for the disk (fsync at checkpoints instead), and the database stays
    consistent and keeps every commit through a crash of the application; only a power cut or
    an operating system crash can roll back the last commits. A mail claimed or an outbox row
    consumed costs two commits: with FULL they were a third of a mail's time
    (bench/mail_throughput.py). PostgreSQL is the database for more.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # the driver must not emit BEGIN itself
        dbapi_connection.execute("PRAGMA journal_mode=WAL")
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")
        dbapi_connection.execute("PRAGMA foreign_keys=ON")

    @event.listens_for(engine, "begin")
    def _begin(connection):
        mode = connection.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        # On the driver: SQLAlchemy's execution around a BEGIN cost more than SQLite's work.
        driver = connection.connection.driver_connection
        if mode == "IMMEDIATE" and begin_immediate(driver):
            return
        driver.execute(f"BEGIN {mode}")


def begin_immediate(dbapi_connection) -> bool:
    """BEGIN IMMEDIATE, waiting for the write lock in steps of 0.1 to 1 ms; False if it is
    still taken after FINE_WAIT_SECONDS (the caller then waits with SQLite's handler).

    SQLite's own busy handler sleeps 1, 2, 5, 10, 15... ms between tries, however soon the
    lock is free. An order holds the lock for well under a millisecond, so two gunicorn
    workers writing at once lost a millisecond or more at every collision: measured, one
    worker's BEGIN in seven waited, 12 % of its time (bench/order_throughput.py)."""
    dbapi_connection.execute("PRAGMA busy_timeout = 0")
    try:
        deadline, delay = time.monotonic() + FINE_WAIT_SECONDS, 0.0001
        while True:
            try:
                dbapi_connection.execute("BEGIN IMMEDIATE")
                return True
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:  # any SQLITE_BUSY_*
                    raise
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, 0.001)
    finally:
        dbapi_connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


_READING = "whistlestop.reading"


def reading(session: Session) -> Session:
    """Mark the session's next transaction as read-only work that sees one snapshot of the
    database. Call it first, before the session runs a query. Returns the session.

    On SQLite it begins DEFERRED, so it does not hold the write lock (every other transaction
    takes it at BEGIN); a WAL reader sees one snapshot from its first read on. On PostgreSQL it
    is REPEATABLE READ: under the default READ COMMITTED every statement sees what was committed
    before it, so a decision read while its step resolved saw the game still at the step and
    that step's sealed orders already applied - "your turn, nobody has committed", for a step
    that was over (tests/server/test_reading_snapshot.py). The level is the connection's for
    this transaction only: SQLAlchemy resets it when the connection goes back to the pool."""
    options = {"sqlite_begin": "DEFERRED"}
    if session.get_bind().dialect.name == "postgresql":
        options["isolation_level"] = "REPEATABLE READ"
    if type(session) is LightSession:
        session.connection(execution_options=options)
        session.info[_READING] = session.connection()
        return session
    _keep(session, session.connection(execution_options=options))
    session.info[_READING] = session.get_transaction()
    return session


_CONNECTION = "whistlestop.connection"


def connection(session: Session) -> Connection:
    """``session.connection()``: the connection of the session's transaction (begun if none),
    kept in the session's ``info`` with the transaction it belongs to, so that the order
    path's dozen statements ask SQLAlchemy for it once (each ``session.connection()`` runs its
    transaction's state checks: 2 µs, a fiftieth of an order's CPU in all). A transaction
    ended, or no longer usable (rolled back by a failed flush), is never answered from what
    was kept: SQLAlchemy is asked again, and answers or raises as it does."""
    if type(session) is LightSession:
        return session.connection()
    kept = session.info.get(_CONNECTION)
    if kept is not None:
        transaction = session.get_transaction()
        if kept[0] is transaction and transaction.is_active:
            return kept[1]
    return _keep(session, session.connection())


def _keep(session: Session, connection: Connection) -> Connection:
    session.info[_CONNECTION] = (session.get_transaction(), connection)
    return connection


def read_afresh(session: Session) -> Session:
    """End the session's transaction (rolled back, its objects expired) and begin a read-only
    one (``reading``): what a refused order's answer reads, "what is asked now", as one
    snapshot and without SQLite's write lock. Returns the session."""
    session.rollback()
    return reading(session)


def end_reading(session: Session) -> None:
    """End the read-only transaction begun by ``reading``, if it is the session's open one,
    keeping the objects it loaded (they are not expired): the next statement begins a write
    transaction (IMMEDIATE on SQLite). Otherwise do nothing.

    This is optimistic concurrency: work done between the read and the writes (an order's
    rules) holds no lock, so the writes must check that what was read still holds, as the
    order service's compare-and-set on the game's step does."""
    began = session.info.pop(_READING, None)
    if type(session) is LightSession:
        # The read transaction is the open one if its connection is (a light session's
        # connection is its transaction's only).
        if began is None or not session.in_transaction() or began is not connection(session):
            return
    elif began is None or began is not session.get_transaction():
        return
    kept = connection(session)
    if kept.dialect.name == "sqlite":
        # On SQLite the same connection goes on, from the read transaction to a write one, on
        # the driver: SQLAlchemy's transaction stays open and its commit or rollback ends the
        # write one. An ORM commit would give the connection back to the pool and check one
        # out again, with its events and BEGIN: measured, a twelfth of an order's CPU
        # (bench/order_throughput.py). The driver commits and rolls back whatever SQLite has
        # open, so an error between the two statements leaves nothing behind.
        driver = kept.connection.driver_connection
        driver.execute("COMMIT")
        if not begin_immediate(driver):
            driver.execute("BEGIN IMMEDIATE")
        return
    if type(session) is LightSession:  # its joined ORM session never expires what it read
        session.commit()
        return
    expire, session.expire_on_commit = session.expire_on_commit, False
    try:
        session.commit()
    finally:
        session.expire_on_commit = expire


_REQUEST_SESSION = "whistlestop_request_session"


def request_session() -> LightSession:
    """The request's own session, begun as a read-only transaction (``reading``) by its first
    user, the token check, and closed when the request ends (not its app context, which may
    outlive it). A route that goes on with it (an order: the game and its seats) reads in the
    same transaction, and may then write (``end_reading``); other routes open their own.
    A ``LightSession`` (server/light_session.py): the transaction on a Core connection, the
    ORM joined to it only if a service asks for it."""
    session = g.get(_REQUEST_SESSION)
    if session is None:
        session = reading(LightSession(get_engine()))
        setattr(g, _REQUEST_SESSION, session)
    return session


def _close_request_session(_exc=None) -> None:
    session = g.pop(_REQUEST_SESSION, None)
    if session is not None:
        session.close()


def init_app(app: Flask) -> None:
    """Bind an engine built from DATABASE_URL to the app."""
    app.extensions[_EXTENSION_KEY] = make_engine(app.config["DATABASE_URL"])
    app.teardown_request(_close_request_session)


def get_engine() -> Engine:
    """Return the current app's engine."""
    return current_app.extensions[_EXTENSION_KEY]


def session() -> Session:
    """Return a new session on the current app's engine (use as a context manager)."""
    return Session(get_engine())


ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


def alembic_config(url: str):
    """Return the Alembic Config of server/migrations bound to the database URL."""
    from alembic.config import Config

    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """Run `alembic upgrade <revision>` against the database URL."""
    from alembic import command

    make_engine(url).dispose()  # creates the parent folder of a SQLite file
    command.upgrade(alembic_config(url), revision)


def create_all(engine: Engine) -> None:
    """Create every table without Alembic (throwaway databases only; use migrate())."""
    import server.models  # noqa: F401  (registers the tables)

    SQLModel.metadata.create_all(engine)


def ping(engine: Engine) -> None:
    """Raise if the database cannot answer a trivial query. It only reads: on SQLite the
    transaction begins DEFERRED (``reading``), so a health check never waits for the write
    lock another connection holds."""
    with engine.connect() as conn:
        conn.execution_options(sqlite_begin="DEFERRED")
        if conn.dialect.name == "sqlite":
            conn.execute(text("SELECT count(*) FROM sqlite_master"))  # reads the file itself
        else:
            conn.execute(text("SELECT 1"))
