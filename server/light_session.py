"""A session's transaction on a Core connection, the ORM joined only when something asks for it.

The API's order request (server/api/orders.py, and the token check before it) runs about a
dozen fixed statements on the driver's cursor (server/raw_sql.py) and makes no ORM object on
its common path, but an ORM ``Session`` still began, committed and closed its transaction:
its transaction objects and their state checks, the identity map's snapshot, its events.
Without them an order executes 6 % fewer instructions (bench/order_instructions.py), and the
gunicorn workers used a fifth less CPU an order (bench/order_throughput.py, stop 44). A
``LightSession`` holds the same transaction on a SQLAlchemy ``Connection`` (the engine's pool,
its ``begin`` event, its dialect) and offers what the order path asks of a session:
``connection``, ``commit``, ``rollback``, ``close``, ``info``, ``get_bind``, ``flush``.

Anything else a service asks of it (``get``, ``exec``, ``add``, ``execute``, ``refresh``...) is
answered by an ORM ``Session`` joined to the same connection and transaction (SQLAlchemy's
documented "joining a Session into an external transaction", ``rollback_only``), made at the
first such call and closed when the transaction ends: so a rare path (a standing order, a game
over, a refused order's answer) works as it does on a plain session. Its objects are flushed
before the commit; after the transaction they are detached, their loaded values kept (not
expired and read again, as a plain session's are: ``get`` them again for what a commit changed).

After a commit or a rollback the hooks registered with ``on_transaction_end`` run; an ORM
session's events run the same hooks (below), so what happens after a transaction is written
once for both kinds (server/services/outbox.py and live.py register theirs): what the
transaction wrote is sent once it has committed and its connection is back in the pool, and
forgotten if it rolled back. Tested beside a plain session in
tests/server/test_light_session.py.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import PendingRollbackError
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session


class TransactionHooks(NamedTuple):
    committed: Callable[[dict], None]  # the transaction committed (its info)
    rolled_back: Callable[[dict], None]  # it rolled back
    # It is over, its connection back in the pool; the second argument gives the engine
    # (called only by a hook that has something to send).
    ended: Callable[[dict, Callable[[], Engine]], None]


_HOOKS: list[TransactionHooks] = []

# In the info of a light session (shared with its joined ORM session): the ORM session's
# commit, rollback and transaction-end events are not this transaction's.
JOINED = "whistlestop.joined"


def on_transaction_end(hooks: TransactionHooks) -> None:
    """Register what runs after every session's commit or rollback, a light session's or an
    ORM session's (at import, once)."""
    if hooks not in _HOOKS:
        _HOOKS.append(hooks)


# An ORM session runs the same hooks from its events: a released savepoint is the enclosing
# transaction's until that commits, and a session joined to a light session's transaction
# (``JOINED``) leaves its end to the light session.
@event.listens_for(OrmSession, "after_commit")
def _orm_committed(session) -> None:
    if not session.in_nested_transaction() and JOINED not in session.info:
        for hooks in _HOOKS:
            hooks.committed(session.info)


@event.listens_for(OrmSession, "after_rollback")
def _orm_rolled_back(session) -> None:
    if JOINED not in session.info:
        for hooks in _HOOKS:
            hooks.rolled_back(session.info)


@event.listens_for(OrmSession, "after_transaction_end")
def _orm_ended(session, transaction) -> None:
    if transaction.parent is None and JOINED not in session.info:
        for hooks in _HOOKS:
            hooks.ended(session.info, session.get_bind)


class LightSession:
    """One transaction at a time on a Core connection of ``bind``'s pool (see the module)."""

    autoflush = True

    def __init__(self, bind: Engine):
        self.bind = bind
        self.info: dict = {}
        self._connection: Connection | None = None
        self._transaction = None
        self._orm: Session | None = None

    def __enter__(self) -> "LightSession":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def get_bind(self, *_args, **_kwargs) -> Engine:
        return self.bind

    def connection(self, execution_options: dict | None = None) -> Connection:
        """The transaction's connection, begun (with ``execution_options``, as
        ``Session.connection``: only a transaction begun here takes them) if none is open.
        A transaction the joined ORM session rolled back (a failed flush) is refused until
        ``rollback``, as a session refuses it: a statement run then on the driver would run
        outside any transaction."""
        transaction = self._transaction
        if transaction is not None:
            if not transaction.is_active:
                raise PendingRollbackError(
                    "This session's transaction has been rolled back due to a previous "
                    "exception during flush. To begin a new transaction with this session, "
                    "first issue rollback().", code="7s2a")
            return self._connection
        connection = self.bind.connect()
        try:
            if execution_options:
                connection.execution_options(**execution_options)  # in place, this connection
            self._transaction = connection.begin()
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        return connection

    def in_transaction(self) -> bool:
        return self._transaction is not None

    def commit(self) -> None:
        """Flush the joined session's objects and commit; the hooks run after."""
        if self._transaction is None:
            return
        try:
            if self._orm is not None:
                self._orm.flush()
            self._transaction.commit()
        except BaseException:
            self.rollback()
            raise
        self._end(committed=True)

    def rollback(self) -> None:
        if self._transaction is None:
            return
        try:
            if self._transaction.is_active:
                self._transaction.rollback()
        finally:
            self._end(committed=False)

    def close(self) -> None:
        self.rollback()

    def flush(self) -> None:
        if self._orm is not None:
            self._orm.flush()

    @property
    def new(self):
        return self._orm.new if self._orm is not None else ()

    @property
    def dirty(self):
        return self._orm.dirty if self._orm is not None else ()

    @property
    def deleted(self):
        return self._orm.deleted if self._orm is not None else ()

    def orm(self) -> Session:
        """The ORM session joined to this transaction (made and begun if need be)."""
        if self._orm is None:
            orm = Session(bind=self.connection(), join_transaction_mode="rollback_only",
                          expire_on_commit=False)
            # One info: what the ORM's flush events collect (outbox rows) is this one's. The
            # ORM's transaction events skip a joined session (``JOINED``): its transaction is
            # this one's, whose end runs the hooks.
            orm.info = self.info
            self.info[JOINED] = True
            self._orm = orm
        return self._orm

    def __getattr__(self, name: str) -> Any:
        # Only for what this class does not define: the ORM's methods, on the joined session.
        if name.startswith("__") or name in ("_orm", "_connection", "_transaction", "info",
                                             "bind"):
            raise AttributeError(name)
        return getattr(self.orm(), name)

    def _end(self, committed: bool) -> None:
        orm, connection = self._orm, self._connection
        self._orm = self._connection = self._transaction = None
        try:
            if orm is not None:
                orm.close()  # rollback_only: the transaction is not touched; objects detached
        finally:
            if connection is not None:
                connection.close()  # back to the pool
        for hooks in _HOOKS:
            (hooks.committed if committed else hooks.rolled_back)(self.info)
        for hooks in _HOOKS:
            hooks.ended(self.info, self.get_bind)
