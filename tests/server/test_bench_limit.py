"""The order-throughput bench's limit (bench/raw_orders_app.py) runs SQLite as the app does:
a limit with other settings (it kept synchronous=FULL for five days after the app went to
NORMAL) measures something else, and its ratio flatters or wrongs the app."""

from __future__ import annotations

import importlib

from sqlalchemy import text

from server import db

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
