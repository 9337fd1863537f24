"""GET /metrics: numbers read from the database at scrape time, exact after known activity;
a scrape writes nothing; the optional bearer token is enforced."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select as sa_select
from sqlalchemy import update
from sqlmodel import SQLModel, select

from server import db
from server.app import create_app
from server.models import Game, OutboxMessage, TaskFailure, utcnow
from server.services import games as svc
from server.services import lobby, users
from tests.server.test_fairness import Played, both_choose, new_game, play


def _app(db_url, tmp_path, token=""):
    return create_app({"DATABASE_URL": db_url, "VAR_DIR": str(tmp_path / "var"),
                       "METRICS_TOKEN": token, "TESTING": True})


def _samples(text: str) -> dict:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _value(samples, name, **labels):
    return samples[(name, tuple(sorted(labels.items())))]


def _dump(session) -> dict:
    """Every row of every table, to show that a scrape changed nothing."""
    session.expire_all()
    out = {}
    for table in SQLModel.metadata.sorted_tables:
        rows = session.execute(sa_select(table).order_by(*table.primary_key.columns)).all()
        out[table.name] = [tuple(r) for r in rows]
    session.commit()
    return out


def test_metrics_count_the_stored_rows(db_url, session, tmp_path):
    seen = Played()
    # Game A: played through a simultaneous step where both seats choose.
    a = new_game(session, "b")
    rng = random.Random(1)
    first = play(session, a, rng, until=both_choose, played=seen).log_length()
    play(session, a, rng, played=seen, until=lambda s: s.log_length() > first)
    # Game D: the same step; kennedy's order sealed, nixon's not yet.
    d = new_game(session, "b")
    state_d = play(session, d, random.Random(1), until=both_choose, played=seen)
    svc.submit_order(session, d, "kennedy", session.get(Game, d).step,
                     [state_d.legal_actions("kennedy")[0]])
    # Game C: the same, then nixon resigns: kennedy's sealed order is superseded.
    c = new_game(session, "b")
    state = play(session, c, random.Random(1), until=both_choose, played=seen)
    svc.submit_order(session, c, "kennedy", session.get(Game, c).step,
                     [state.legal_actions("kennedy")[0]])
    lobby.resign(session, c, "nixon")
    # Game O: open, waiting for its players.
    host = users.create_user(session, "host@example.com")
    lobby.open_game(session, host, "tmotp", {}, {"kennedy": "host@example.com", "nixon": None})
    assert seen.resolutions > 0 and seen.applied > seen.resolutions

    # The outbox: everything so far consumed; then three rows of a kind of our own.
    now = utcnow()
    session.execute(update(OutboxMessage).values(published_at=now, delivered_at=now))
    session.add(OutboxMessage(kind="probe", created_at=now - timedelta(seconds=120),
                              attempts=2, last_error="ConnectionError: broker down"))
    session.add(OutboxMessage(kind="probe", created_at=now - timedelta(seconds=30)))
    session.add(OutboxMessage(kind="probe", created_at=now, published_at=now, attempts=1,
                              delivered_at=now))
    for name in ("whistlestop.notify", "whistlestop.notify", "whistlestop.resolve_step"):
        session.add(TaskFailure(task_name=name, task_id="t", error="boom"))
    session.commit()
    kinds: dict[str, int] = {}
    for row in session.exec(select(OutboxMessage)).all():
        kinds[row.kind] = kinds.get(row.kind, 0) + 1
    before = _dump(session)

    client = _app(db_url, tmp_path).test_client()
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=")
    s = _samples(response.get_data(as_text=True))

    assert _value(s, "whistlestop_database_up") == 1
    assert _value(s, "whistlestop_games", status="active") == 2
    assert _value(s, "whistlestop_games", status="finished") == 1
    assert _value(s, "whistlestop_games", status="open") == 1
    assert _value(s, "whistlestop_orders_total", status="applied") == seen.applied
    assert _value(s, "whistlestop_orders_total", status="superseded") == 1
    assert _value(s, "whistlestop_orders_pending") == 1
    assert _value(s, "whistlestop_step_resolutions_total") == seen.resolutions
    assert _value(s, "whistlestop_outbox_unconsumed") == 2
    assert 120 <= _value(s, "whistlestop_outbox_oldest_unconsumed_age_seconds") < 240
    assert _value(s, "whistlestop_outbox_publish_errors") == 1
    assert _value(s, "whistlestop_outbox_messages_total", kind="probe") == 3
    for kind, n in kinds.items():
        assert _value(s, "whistlestop_outbox_messages_total", kind=kind) == n
    assert _value(s, "whistlestop_task_failures_total", task="whistlestop.notify") == 2
    assert _value(s, "whistlestop_task_failures_total", task="whistlestop.resolve_step") == 1

    # A scrape reads only: the database is row for row what it was.
    assert _dump(session) == before

    # Resolving D's step counts one more resolution and two more applied orders.
    step = session.get(Game, d).step
    svc.submit_order(session, d, "nixon", step, [state_d.legal_actions("nixon")[0]])
    assert svc.resolve_step(session, d, step)
    session.commit()
    s = _samples(client.get("/metrics").get_data(as_text=True))
    assert _value(s, "whistlestop_step_resolutions_total") == seen.resolutions + 1
    assert _value(s, "whistlestop_orders_total", status="applied") == seen.applied + 2
    assert _value(s, "whistlestop_orders_pending") == 0
    assert _value(s, "whistlestop_outbox_unconsumed") > 2  # the new step's notifications


def test_scrape_does_not_wait_for_a_writer(db_url, session, tmp_path):
    """A transaction holding the write lock (SQLite) or a row lock (PostgreSQL) does not hold
    up a scrape, and the scrape sees only committed rows."""
    gid = new_game(session, "lock")
    session.commit()
    client = _app(db_url, tmp_path).test_client()
    session.execute(update(Game).where(Game.id == gid).values(status="finished"))
    try:
        started = time.monotonic()
        s = _samples(client.get("/metrics").get_data(as_text=True))
        assert time.monotonic() - started < 10
        assert _value(s, "whistlestop_database_up") == 1
        assert _value(s, "whistlestop_games", status="active") == 1
        assert _value(s, "whistlestop_games", status="finished") == 0
    finally:
        session.rollback()


@pytest.fixture
def sqlite_url(tmp_path):
    url = f"sqlite:///{tmp_path / 'metrics.db'}"
    db.migrate(url)
    return url


def test_metrics_token_is_enforced(sqlite_url, tmp_path):
    client = _app(sqlite_url, tmp_path, token="s3cret").test_client()
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret"},
                    {"Authorization": "Bearer"}):
        response = client.get("/metrics", headers=headers)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert b"whistlestop_" not in response.data
    response = client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
    assert response.status_code == 200 and b"whistlestop_database_up 1.0" in response.data


def test_metrics_token_from_the_environment(sqlite_url, tmp_path, monkeypatch):
    monkeypatch.setenv("WHISTLESTOP_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("WHISTLESTOP_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("WHISTLESTOP_METRICS_TOKEN", "from-env")
    client = create_app().test_client()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer from-env"}).status_code == 200
    monkeypatch.setenv("WHISTLESTOP_METRICS_TOKEN", "")
    assert create_app().test_client().get("/metrics").status_code == 200  # empty: open


def test_metrics_without_a_database_say_so(tmp_path):
    client = _app(f"sqlite:///{tmp_path / 'never-migrated.db'}", tmp_path).test_client()
    response = client.get("/metrics")
    assert response.status_code == 200
    s = _samples(response.get_data(as_text=True))
    assert _value(s, "whistlestop_database_up") == 0
    assert not any(name.startswith("whistlestop_games") for name, _ in s)
    assert client.post("/metrics").status_code == 405


def test_counts_stay_exact_once_the_history_has_settled(db_url, session, tmp_path):
    """The process keeps the counts of rows older than an hour (server/row_tallies.py): a
    sealed order in that history that is applied later, and rows written since, are still
    counted exactly by the next scrape of the same process."""
    from server.models import Order
    from server.row_tallies import SETTLED

    seen = Played()
    d = new_game(session, "b")
    state_d = play(session, d, random.Random(1), until=both_choose, played=seen)
    step = session.get(Game, d).step
    svc.submit_order(session, d, "kennedy", step, [state_d.legal_actions("kennedy")[0]])
    long_ago = utcnow() - SETTLED * 2
    session.execute(update(Order).values(created_at=long_ago))
    session.execute(update(OutboxMessage).values(created_at=long_ago))
    session.commit()
    client = _app(db_url, tmp_path).test_client()
    s = _samples(client.get("/metrics").get_data(as_text=True))
    assert _value(s, "whistlestop_orders_pending") == 1
    assert _value(s, "whistlestop_orders_total", status="applied") == seen.applied
    resolutions = _value(s, "whistlestop_step_resolutions_total")

    svc.submit_order(session, d, "nixon", step, [state_d.legal_actions("nixon")[0]])
    assert svc.resolve_step(session, d, step)
    session.commit()
    s = _samples(client.get("/metrics").get_data(as_text=True))
    assert _value(s, "whistlestop_orders_pending") == 0
    assert _value(s, "whistlestop_orders_total", status="applied") == seen.applied + 2
    assert _value(s, "whistlestop_step_resolutions_total") == resolutions + 1
    kinds: dict[str, int] = {}
    for row in session.exec(select(OutboxMessage)).all():
        kinds[row.kind] = kinds.get(row.kind, 0) + 1
    for kind, n in kinds.items():
        assert _value(s, "whistlestop_outbox_messages_total", kind=kind) == n
