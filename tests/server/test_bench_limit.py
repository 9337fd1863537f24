"""The order-throughput bench's limit (bench/raw_orders_app.py) does the real order's I/O and
nothing of its framework or engine: it runs SQLite as the app does (it kept synchronous=FULL
for five days after the app went to NORMAL), and it sends what the real order sends to a Redis
broker, the game's live news on the same channel in the same words (it sent nothing until
stop 42). A limit that does other I/O measures something else, and its ratio flatters or wrongs
the app."""

from __future__ import annotations

import importlib
import shutil

from sqlalchemy import text
from sqlmodel import Session

import engine.core as engine
from server import db
from server.app import create_app
from server.services import games, live
from server.services.users import create_user, issue_token

PRAGMAS = ("journal_mode", "synchronous", "foreign_keys")


def test_the_limit_opens_sqlite_with_the_apps_settings(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'bench.db'}"
    db.migrate(url)
    monkeypatch.setenv("BENCH_SQLITE_PATH", str(tmp_path / "bench.db"))
    limit = importlib.import_module("bench.raw_orders_app")
    monkeypatch.setattr(limit, "_conn", None)
    raw = limit._db()
    try:
        theirs = {p: raw.execute(f"PRAGMA {p}").fetchone()[0] for p in PRAGMAS}
    finally:
        raw.close()
    engine = db.make_engine(url)
    with engine.connect() as connection:
        ours = {p: connection.execute(text(f"PRAGMA {p}")).scalar() for p in PRAGMAS}
    engine.dispose()
    assert theirs == ours
    assert ours["synchronous"] == 1  # NORMAL (server/db.py)


def _heard(listener) -> list[bytes]:
    heard = []
    while (message := listener.get_message(timeout=1)) is not None:
        heard.append(message["data"])
    return heard


def test_the_limit_publishes_the_news_the_real_order_publishes(tmp_path, monkeypatch,
                                                               redis_server, redis_url):
    url = f"sqlite:///{tmp_path / 'real.db'}"
    db.migrate(url)
    eng = db.make_engine(url)
    with Session(eng) as session:
        users = {seat: create_user(session, f"{seat}@bench.invalid").id
                 for seat in ("kennedy", "nixon")}
        tokens = {seat: issue_token(session, uid) for seat, uid in users.items()}
        gid = games.create_game(session, "tmotp", {}, users, seed="limit").id
    eng.dispose()
    shutil.copy(tmp_path / "real.db", tmp_path / "limit.db")
    state = engine.new_game("tmotp", seed="limit")
    games._advance(state)
    seat = state.active()[0]
    order = {"step": 1, "actions": [str(state.legal_actions(seat)[0])]}
    headers = {"Authorization": f"Bearer {tokens[seat]}"}

    listener = redis_server.client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(live.channel(redis_url))
    assert listener.get_message(timeout=1) is None

    monkeypatch.setattr(live, "_broker_url", lambda: redis_url)
    real = create_app({"DATABASE_URL": url, "VAR_DIR": str(tmp_path / "var")})
    answer = real.test_client().post(f"/api/v1/games/{gid}/orders", json=order,
                                     headers=headers)
    assert answer.status_code == 200, answer.get_json()
    real_news = _heard(listener)
    assert real_news == [f"{gid} 2 active".encode()]

    monkeypatch.setenv("BENCH_SQLITE_PATH", str(tmp_path / "limit.db"))
    monkeypatch.setenv("WHISTLESTOP_BROKER_URL", redis_url)
    monkeypatch.setenv("BENCH_LIMIT_SENDS", "1")
    limit = importlib.import_module("bench.raw_orders_app")
    monkeypatch.setattr(limit, "_conn", None)
    monkeypatch.setattr(limit, "_news", [])
    answer = limit.app.test_client().post(f"/api/v1/games/{gid}/orders", json=order,
                                          headers=headers)
    assert answer.status_code == 200 and answer.get_json()["step"] == 2
    assert _heard(listener) == real_news
    limit._news[0].close()

    # Without BENCH_LIMIT_SENDS the limit sends nothing (the limit of stops 21-41).
    monkeypatch.delenv("BENCH_LIMIT_SENDS")
    monkeypatch.setattr(limit, "_news", [])
    order["step"] = 2
    answer = limit.app.test_client().post(f"/api/v1/games/{gid}/orders", json=order,
                                          headers=headers)
    assert answer.status_code == 200 and answer.get_json()["step"] == 3
    assert _heard(listener) == []
    limit._conn.close()
