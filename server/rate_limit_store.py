"""The rate limits' default store (WHISTLESTOP_RATELIMIT_STORAGE_URI ``database://``): the
server's own database, so that every process counts one limit without Redis. A storage of the
``limits`` library (its public ``Storage`` and ``MovingWindowSupport`` classes, registered under
the scheme ``database``), holding the moving window's entries as rows (``RateLimitHit``).

On PostgreSQL the rows are in the server's database, and one limit's checks and hits are taken
one at a time by a transaction-scoped advisory lock on the limit's key. On SQLite they are in a
file of their own beside the database (``<database>-limits``), whose write lock takes them one
at a time: a limit is often counted inside a request that holds the database's write lock, which
a second connection to the same file would wait for. An in-memory SQLite database (tests) has
no file to share: its limits are counted in the process (``memory://``).

A limit's key holds an address or a client's IP: only its sha256 is stored. Rows outlive their
window by nothing: every hit deletes the expired ones.
"""

from __future__ import annotations

import hashlib
import threading
import time

from limits.errors import ConfigurationError
from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import delete, func, insert, select, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

SCHEME = "database"
SUFFIX = "-limits"


def in_memory(url: str) -> bool:
    """Whether ``url`` is an in-memory SQLite database (nothing another process could share)."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _lock_id(digest: str) -> int:
    """A signed 64-bit number for pg_advisory_xact_lock, from the key's digest."""
    return int.from_bytes(bytes.fromhex(digest[:16]), "big", signed=True)


class DatabaseStorage(Storage, MovingWindowSupport):
    """The ``limits`` storage of ``database://``: ``engine`` is the app's database engine."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 engine: Engine | None = None, **options):
        if engine is None:
            raise ConfigurationError("database:// counts the limits in the server's database; "
                                     "give its engine (server/rate_limits.py does)")
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._app_engine = engine
        self._store: Engine | None = None
        self._making = threading.Lock()

    @property
    def base_exceptions(self):
        return SQLAlchemyError

    def _engine(self) -> Engine:
        """The engine of the store: the app's on PostgreSQL, the file beside it on SQLite
        (made, and its table, at the first use)."""
        with self._making:
            if self._store is None:
                self._store = self._make()
        return self._store

    def _make(self) -> Engine:
        url = self._app_engine.url
        if url.get_backend_name() != "sqlite":
            return self._app_engine
        from server import db
        from server.models import RateLimitHit

        store = db.make_engine(url.set(database=url.database + SUFFIX)
                               .render_as_string(hide_password=False))
        RateLimitHit.__table__.create(store, checkfirst=True)  # one write transaction
        return store

    @staticmethod
    def _table():
        from server.models import RateLimitHit
        return RateLimitHit.__table__

    def _write(self):
        """A transaction for one limit's check and hit, the key's lock taken by ``_lock``."""
        return self._engine().begin()

    @staticmethod
    def _lock(conn: Connection, digest: str) -> None:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _lock_id(digest)})
        # SQLite: the transaction began IMMEDIATE (server/db.py), with the file's write lock.

    def _read(self):
        engine = self._engine()
        conn = engine.connect()
        conn.execution_options(sqlite_begin="DEFERRED")  # a read takes no write lock
        return conn

    # --- the moving window (the strategy server/rate_limits.py uses) ------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        hits, digest = self._table(), _digest(key)
        with self._write() as conn:
            self._lock(conn, digest)
            now = time.time()
            held = conn.execute(select(func.count()).select_from(hits).where(
                hits.c.key == digest, hits.c.at > now - expiry)).scalar_one()
            if held + amount > limit:
                return False
            conn.execute(insert(hits), [{"key": digest, "at": now, "expires": now + expiry}]
                         * amount)
            conn.execute(delete(hits).where(hits.c.expires <= now))
        return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        hits, now = self._table(), time.time()
        with self._read() as conn:
            first, count = conn.execute(select(func.min(hits.c.at), func.count()).where(
                hits.c.key == _digest(key), hits.c.at > now - expiry)).one()
        return (first if count else now), count

    # --- a fixed window's counter (the other strategies; unused by the server) --------------
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        hits, digest = self._table(), _digest(key)
        with self._write() as conn:
            self._lock(conn, digest)
            now = time.time()
            ends = conn.execute(select(func.max(hits.c.expires)).where(
                hits.c.key == digest, hits.c.expires > now)).scalar_one()
            conn.execute(insert(hits), [{"key": digest, "at": now,
                                         "expires": ends or now + expiry}] * amount)
            conn.execute(delete(hits).where(hits.c.expires <= now))
            return conn.execute(select(func.count()).select_from(hits).where(
                hits.c.key == digest, hits.c.expires > now)).scalar_one()

    def get(self, key: str) -> int:
        hits, now = self._table(), time.time()
        with self._read() as conn:
            return conn.execute(select(func.count()).select_from(hits).where(
                hits.c.key == _digest(key), hits.c.expires > now)).scalar_one()

    def get_expiry(self, key: str) -> float:
        hits, now = self._table(), time.time()
        with self._read() as conn:
            ends = conn.execute(select(func.max(hits.c.expires)).where(
                hits.c.key == _digest(key), hits.c.expires > now)).scalar_one()
        return ends or now

    def check(self) -> bool:
        try:
            with self._read() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with self._write() as conn:
            return conn.execute(delete(self._table())).rowcount

    def clear(self, key: str) -> None:
        hits = self._table()
        with self._write() as conn:
            conn.execute(delete(hits).where(hits.c.key == _digest(key)))
