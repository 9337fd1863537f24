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

from typing import Any, Iterable, Mapping

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError


class Raw:
    """A Core statement (insert, update or select) run on the driver's cursor."""

    def __init__(self, statement, returning_id: bool = False):
        self.statement = statement.returning(statement.table.c.id) if returning_id else statement

    def _plan(self, dialect, keys: tuple):
        plans = _plans(dialect)
        plan = plans.get((self, keys))
        if plan is None:
            compiled = self.statement.compile(dialect=dialect,
                                              column_keys=list(keys) if keys else None)
            # Python-side defaults are computed by SQLAlchemy's execution; IN lists are
            # expanded there.
            if (getattr(compiled, "insert_prefetch", None)
                    or getattr(compiled, "update_prefetch", None)
                    or any(bind.expanding for bind in compiled.binds.values())):
                raise ValueError(f"not a fixed statement: {compiled.string}")
            names = frozenset(compiled.bind_names.values())  # as the SQL names them
            binds = {name: compiled.binds[name] for name in names}
            processors = {name: processor for name, bind in binds.items()
                          if (processor := bind.type.dialect_impl(dialect)
                              .bind_processor(dialect)) is not None}
            # The statement's own values (its literals: status = 'active'), which the
            # parameters of an execution complete.
            fixed = {name: bind.effective_value for name, bind in binds.items()
                     if not bind.required and name not in keys}
            order = tuple(compiled.positiontup) if dialect.positional else None
            plan = plans[(self, keys)] = (compiled.string, fixed, processors, order,
                                          names - fixed.keys())
        return plan

    @staticmethod
    def _parameters(plan, params: Mapping[str, Any]):
        _sql, fixed, processors, order, needed = plan
        if not needed <= params.keys():
            raise ValueError(f"values missing for {sorted(needed - params.keys())}")
        values = {**fixed, **params}
        for name, processor in processors.items():
            if name in values:
                values[name] = processor(values[name])
        return values if order is None else tuple(values[name] for name in order)

    def execute(self, connection: Connection, params: Mapping[str, Any]):
        """Run it with one set of values; return the driver's cursor (its ``rowcount``)."""
        plan = self._plan(connection.dialect, tuple(sorted(params)) if self._keyed else ())
        return _run(connection, plan[0], "execute", self._parameters(plan, params))

    def executemany(self, connection: Connection, rows: Iterable[Mapping[str, Any]]) -> None:
        """Run it once per set of values (all with the same keys), in one driver call."""
        rows = list(rows)
        if not rows:
            return
        plan = self._plan(connection.dialect, tuple(sorted(rows[0])) if self._keyed else ())
        _run(connection, plan[0], "executemany",
             [self._parameters(plan, row) for row in rows]).close()

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple]:
        """Run a select; return its rows with SQLAlchemy's result processing of each column's
        type (SQLite's datetimes, stored as text, come back as datetimes)."""
        cursor = self.execute(connection, params)
        fetched = cursor.fetchall()
        cursor.close()
        plans = _plans(connection.dialect)
        processors = plans.get((self, "rows"))
        if processors is None:
            processors = plans[(self, "rows")] = [
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

    @property
    def _keyed(self) -> bool:
        # Inserts and updates compile the columns they are given; selects need no keys.
        return self.statement.is_dml


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


_PLANS = "whistlestop_raw_plans"


def _plans(dialect) -> dict:
    """The compiled forms of Raw statements for this dialect (an engine's), kept by the dialect
    itself: they go with the engine (tests make thousands), and every engine compiles with its
    own settings (its JSON serializer)."""
    plans = dialect.__dict__.get(_PLANS)
    return plans if plans is not None else dialect.__dict__.setdefault(_PLANS, {})
