"""Core statements run on the database driver's own cursor: the order path's fixed statements.

SQLAlchemy runs a statement through an execution context, its events and a result object: on
the order path, about 40 µs a statement, as much as SQLite's own work for it
(bench/order_throughput.py, whose limit is the same request on the raw driver). A ``Raw``
statement is the same Core statement, compiled by SQLAlchemy once per dialect and set of
columns, with SQLAlchemy's own bind processors (JSON by the engine's serializer, SQLite's
datetimes as text); only the execution is the driver's, on the connection of the session's
transaction. So it sees and is part of that transaction, and commits or rolls back with it;
the driver's errors are raised as SQLAlchemy's (``sqlalchemy.exc.IntegrityError``...).

Meant for statements run on every order, whose values are plain columns: a statement whose
compilation needs anything at execution time (Python-side column defaults, expanding IN lists)
is refused when it is first compiled. A select's rows are tuples, with SQLAlchemy's result
processing of each column's type (``rows``). Tested on SQLite and PostgreSQL
(tests/server/test_raw_sql.py).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Iterable, Mapping, NamedTuple

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, InvalidRequestError


class Raw:
    """A Core statement (insert, update or select) run on the driver's cursor."""

    def __init__(self, statement, returning_id: bool = False):
        self.statement = statement.returning(statement.table.c.id) if returning_id else statement
        # The compiled forms for the dialect it last ran on (the process's one engine, but in
        # the tests), found without a lookup in the dialects' weak table (_plans); the dialect
        # is referred to weakly here too, so that it still goes with its engine.
        self._last: tuple = (_gone, None)

    def _compiled(self, dialect) -> dict:
        """This statement's compiled forms for ``dialect``: {keys: _Plan, "rows": processors}."""
        last, forms = self._last
        if last() is not dialect:
            forms = _plans(dialect).setdefault(self, {})
            self._last = (weakref.ref(dialect), forms)
        return forms

    def _plan(self, dialect, keys: tuple):
        """The statement compiled for ``dialect`` and the parameters ``keys`` (in the order
        the caller gives them: a call site gives them in one order), through
        SQLAlchemy's public compiled forms: the SQL, the statement's own values, the bind
        processors, the positional order, and which bind name takes which key."""
        forms = self._compiled(dialect)
        plan = forms.get(keys)
        if plan is None:
            forms[keys] = plan = _compile(self.statement, dialect, tuple(sorted(keys)))
        return plan

    @staticmethod
    def _parameters(plan: "_Plan", params: Mapping[str, Any]):
        if plan.positional is not None:  # qmark (SQLite): the tuple made in one pass
            return tuple(value if key is None else
                         params[key] if processor is None else processor(params[key])
                         for key, value, processor in plan.positional)
        values = dict(plan.fixed)
        for name, key in plan.slots:
            values[name] = params[key]
        for name, processor in plan.processors:
            values[name] = processor(values[name])
        return values if plan.order is None else tuple(values[name] for name in plan.order)

    def execute(self, connection: Connection, params: Mapping[str, Any]):
        """Run it with one set of values; return the driver's cursor (its ``rowcount``)."""
        plan = self._plan(connection.dialect, tuple(params))
        return _run(connection, plan.sql, "execute", self._parameters(plan, params))

    def executemany(self, connection: Connection, rows: Iterable[Mapping[str, Any]]) -> None:
        """Run it once per set of values (all with the same keys), in one driver call."""
        rows = list(rows)
        if not rows:
            return
        plan = self._plan(connection.dialect, tuple(rows[0]))
        _run(connection, plan.sql, "executemany",
             [self._parameters(plan, row) for row in rows]).close()

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple]:
        """Run a select; return its rows with SQLAlchemy's result processing of each column's
        type (SQLite's datetimes, stored as text, come back as datetimes)."""
        cursor = self.execute(connection, params)
        fetched = cursor.fetchall()
        cursor.close()
        forms = self._compiled(connection.dialect)
        processors = forms.get("rows")
        if processors is None:  # each column's type's own result processing (public API)
            processors = forms["rows"] = [
                column.type.dialect_impl(connection.dialect).result_processor(
                    connection.dialect, None) for column in self.statement.selected_columns]
        if not any(processors):
            return fetched
        return [tuple(value if processor is None else processor(value)
                      for value, processor in zip(row, processors)) for row in fetched]

    def insert_id(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Insert one row (a statement made with ``returning_id``); return its id."""
        cursor = self.execute(connection, params)
        (row_id,), = cursor.fetchall()  # fetched to the end: SQLite's statement is done
        cursor.close()
        return row_id



def _gone() -> None:
    """A dialect's weak reference before any: no dialect."""
    return None


class _Plan(NamedTuple):
    sql: str
    fixed: dict  # bind name -> the statement's own value (its literals: status = 'active')
    slots: tuple  # (bind name, parameter key) of each value an execution gives
    processors: tuple  # (bind name, processor) of the binds whose type processes values
    order: tuple | None  # the bind names in positional order (None: a named paramstyle)
    # With a positional order: (key or None, the statement's own value already processed,
    # processor or None) of each position, so that an execution's tuple is made in one pass.
    positional: tuple | None


class _Slot(NamedTuple):
    """Where a parameter's value goes, found by compiling with these as the values."""
    key: str


def _compile(statement, dialect, keys: tuple) -> _Plan:
    """Compile the statement for the dialect with the parameters ``keys``.

    All public API: the compiled statement's ``construct_expanded_state`` gives the SQL, every
    bind's value by its name in the SQL and the positional order; a ``_Slot`` given as each
    parameter's value tells which bind names take the execution's values (the rest are the
    statement's own); each bind's type gives its processor (``bind_names``: the binds by
    their names in the SQL). A statement whose execution computes values
    (Python-side column defaults: ``insert_prefetch``, ``update_prefetch``) or expands them
    (IN lists) is refused."""
    # Inserts and updates compile the columns they are given; a select all of its own.
    compiled = statement.compile(dialect=dialect,
                                 column_keys=list(keys) if statement.is_dml else None)
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise ValueError(f"not a fixed statement (Python-side defaults): {compiled.string}")
    try:
        state = compiled.construct_expanded_state({key: _Slot(key) for key in keys})
    except InvalidRequestError as exc:  # a required value not among the keys
        needed = sorted(bind.key for bind in compiled.bind_names
                        if bind.required and bind.key not in keys)
        raise ValueError(f"values missing for {needed}") from exc
    except TypeError as exc:  # a slot given where a list is expanded
        raise ValueError(f"not a fixed statement (expanding): {compiled.string}") from exc
    if state.parameter_expansion:
        raise ValueError(f"not a fixed statement (expanding): {compiled.string}")
    slots = tuple((name, value.key) for name, value in state.parameters.items()
                  if isinstance(value, _Slot))
    fixed = {name: value for name, value in state.parameters.items()
             if not isinstance(value, _Slot)}
    processors = tuple((name, processor) for bind, name in compiled.bind_names.items()
                       if name in state.parameters and (processor := bind.type.dialect_impl(
                           dialect).bind_processor(dialect)) is not None)
    order = tuple(state.positiontup) if state.positiontup is not None else None
    positional = None
    if order is not None:
        key_of, processor_of = dict(slots), dict(processors)
        positional = tuple(
            (key_of[name], None, processor_of.get(name)) if name in key_of else
            (None, processor_of[name](fixed[name]) if name in processor_of else fixed[name],
             None)
            for name in order)
    return _Plan(state.statement, fixed, slots, processors, order, positional)


def _run(connection: Connection, sql: str, method: str, parameters):
    """``cursor.execute`` or ``executemany`` on the connection's driver connection; the
    driver's errors raised as SQLAlchemy raises them (``sqlalchemy.exc.IntegrityError``,
    ``OperationalError``..., which callers and the tasks' retries expect), and a connection the
    database dropped invalidated, as SQLAlchemy does, so that the pool does not hand it out
    again."""
    driver = connection.connection.driver_connection
    cursor = driver.cursor()
    try:
        getattr(cursor, method)(sql, parameters)
    except connection.dialect.loaded_dbapi.Error as exc:
        dialect = connection.dialect
        gone = dialect.is_disconnect(exc, driver, cursor)
        if gone:
            connection.invalidate(exc)
        raise DBAPIError.instance(sql, None, exc, dialect.loaded_dbapi.Error,
                                  hide_parameters=True, connection_invalidated=gone,
                                  dialect=dialect) from exc
    return cursor


_PLANS: "weakref.WeakKeyDictionary[Dialect, dict]" = weakref.WeakKeyDictionary()
_PLANS_LOCK = threading.Lock()


def _plans(dialect: Dialect) -> dict:
    """The compiled forms of Raw statements for this dialect (an engine's), kept while the
    dialect lives: they go with the engine (tests make thousands), and every engine compiles
    with its own settings (its JSON serializer)."""
    plans = _PLANS.get(dialect)
    if plans is None:
        with _PLANS_LOCK:
            plans = _PLANS.setdefault(dialect, {})
    return plans
