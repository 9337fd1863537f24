"""The sweep for unresolved steps (outbox.unresolved_steps, run by beat) reads the sealed orders
through their partial index, then their games by id (issue 28: 10,000 games at once,
bench/sweep_scale.py). It must still find exactly the steps every active seat has sealed and
nobody resolved, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from engine.core import from_dict
from sqlalchemy import inspect, update

from server.models import Game, utcnow
from server.services import games as svc
from server.services.outbox import unresolved_steps

SEATS = {"p1": None, "p2": None, "p3": None}
OPTIONS = {"edition": "dial", "players": 3, "version": "short"}


def _game(session, seed: str, sealing: int) -> tuple[int, int]:
    """A game of three seats whose first round ``sealing`` of them have sealed; (id, step)."""
    gid = svc.create_game(session, "mrpresident", OPTIONS, SEATS, seed=seed).id
    game = session.get(Game, gid)
    state = from_dict(game.state)
    step = game.step
    for seat in sorted(SEATS)[:sealing]:
        svc.submit_order(session, gid, seat, step, [state.legal_actions(seat)[0]])
    return gid, step


def _age(session, gid: int, seconds: float) -> None:
    session.execute(update(Game).where(Game.id == gid)
                    .values(updated_at=utcnow() - timedelta(seconds=seconds)))
    session.commit()


def test_only_whole_unresolved_steps_older_than_the_cutoff_are_found(session):
    whole, step = _game(session, "whole", 3)      # every seat sealed: found once old enough
    two, _ = _game(session, "two", 2)             # two of three: waits for the third
    one, _ = _game(session, "one", 1)
    fresh, fresh_step = _game(session, "fresh", 3)  # whole, but committed just now
    for gid in (whole, two, one):
        _age(session, gid, 120)
    assert unresolved_steps(session, 60) == [(whole, step)]
    _age(session, fresh, 120)
    assert unresolved_steps(session, 60) == [(whole, step), (fresh, fresh_step)]


def test_a_resolved_or_finished_game_is_not_found(session):
    gid, step = _game(session, "resolved", 3)
    _age(session, gid, 120)
    assert unresolved_steps(session, 60) == [(gid, step)]
    assert svc.resolve_step(session, gid, step)
    _age(session, gid, 120)
    assert unresolved_steps(session, 60) == []
    other, other_step = _game(session, "finished", 3)
    _age(session, other, 120)
    session.execute(update(Game).where(Game.id == other).values(status="finished"))
    session.commit()
    assert unresolved_steps(session, 60) == []


def test_the_sweep_reads_the_unapplied_orders_index(session, db_engine):
    """The sweep's read of the sealed orders goes through ix_order_unapplied, not the table
    of every order ever applied (SQLite uses a partial index only when the query's WHERE has
    the index's term)."""
    from sqlalchemy import event

    statements = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        if '"order"' in statement and "GROUP BY" in statement:
            statements.append((statement, parameters))

    event.listen(db_engine, "before_cursor_execute", keep)
    try:
        unresolved_steps(session, 60)
    finally:
        event.remove(db_engine, "before_cursor_execute", keep)
    assert len(statements) == 1
    statement, parameters = statements[0]
    raw = session.connection().connection.driver_connection
    if db_engine.dialect.name == "sqlite":
        plan = " ".join(str(row[-1]) for row in raw.execute(
            "EXPLAIN QUERY PLAN " + statement, parameters).fetchall())
    else:
        cursor = raw.cursor()
        cursor.execute("SET enable_seqscan = off")  # a tiny table: ask whether it can
        cursor.execute("EXPLAIN " + statement, parameters)
        plan = " ".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan")
    assert "ix_order_unapplied" in plan, plan
