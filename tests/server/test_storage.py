"""The schema comes from the Alembic migration; secrets are stored hashed."""

from __future__ import annotations

import hashlib
import secrets
import subprocess
import sys

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, select

import server.models  # noqa: F401
from server import db
from server.models import ApiToken, Game, LogEntry, User
from server.services import games
from server.services.games import create_game

TABLES = {"user", "apitoken", "game", "seat", "spectator", "taskfailure", "logentry", "order", "outboxmessage",
          "idempotencykey", "mailsent",
          "usedlink", "inboundmail", "standingorder", "autoorder", "webhook", "webhooksent",
          "digest", "usedsignin",
          "seatnote", "calendarfeed", "accountdeletion",   # issue 27: notes, your data
          # issue 27, items 4 and 5 (server/migrations/versions/0016_schedule.py)
          "quiethours", "vacation", "gamepause", "extension",
          "retractable"}  # issue 27, retract
TABLES |= {"gamenote"}  # issue 28: a game's notes out of its state
TABLES |= {"seatabsence"}  # issue 46: departed and vanished players
TABLES |= {"rematchoffer", "rating", "ratedgame"}  # issue 27 item 6: rematches and ratings
TABLES |= {"gamechat", "chatmessage", "chatread", "chatmute", "chatreport"}  # issue 27: chat
TABLES |= {"ratelimithit"}  # issue 45, L13: the rate limits' default store
TABLES |= {"clubinvitation"}  # issue 48: a member's invitation to a members-only club
TABLES |= {"pagepresence"}  # issue 46, item 5: no mail while you watch


def test_migration_creates_every_table(db_engine):
    names = set(inspect(db_engine).get_table_names())
    assert TABLES <= names and "alembic_version" in names
    assert set(SQLModel.metadata.tables) == TABLES


def test_migration_matches_models(db_url):
    from alembic import command

    command.check(db.alembic_config(db_url))  # raises if autogenerate would find a difference


def test_initdb_runs_the_migration(tmp_path, whistlestop_env, empty_db_url):
    url = (f"sqlite:///{tmp_path / 'sub' / 'cli.db'}" if empty_db_url.startswith("sqlite")
           else empty_db_url)
    env = dict(whistlestop_env, WHISTLESTOP_DATABASE_URL=url)
    out = subprocess.run([sys.executable, "-m", "server.cli", "initdb"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    engine = db.make_engine(url)
    assert TABLES <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_tokens_are_stored_hashed(session, db_engine):
    user = User(email="ann@example.org", display_name="Ann")
    session.add(user)
    session.commit()
    token = secrets.token_urlsafe(32)
    digest = hashlib.sha256(token.encode()).hexdigest()
    session.add(ApiToken(user_id=user.id, token_hash=digest))
    session.commit()
    with db_engine.connect() as conn:  # every row of every table, on either database
        dump = "\n".join(repr(tuple(row)) for name in sorted(inspect(db_engine).get_table_names())
                         for row in conn.execute(text(f'SELECT * FROM "{name}"')))
    assert token not in dump and digest in dump
    assert session.exec(select(ApiToken).where(ApiToken.token_hash == digest)).one().user_id == user.id


def test_email_is_unique(session):
    session.add(User(email="bob@example.org"))
    session.commit()
    session.add(User(email="bob@example.org"))
    with pytest.raises(IntegrityError):
        session.commit()


def test_create_game_writes_log_rows_and_seed_hash(session):
    game = create_game(session, "tmotp", {}, {"kennedy": None, "nixon": None}, seed="s33d")
    stored = session.get(Game, game.id)
    assert stored.seed_hash == hashlib.sha256(b"s33d").hexdigest()
    assert stored.step == 1 and stored.status == "active"
    rows = session.exec(select(LogEntry).where(LogEntry.game_id == game.id)
                        .order_by(LogEntry.seq)).all()
    assert [r.seq for r in rows] == list(range(len(rows)))
    assert stored.state["log_from"] == len(rows)  # the log is in its rows (game_history.py)
    assert [[r.seat, r.action] for r in rows] == games.whole_state(session, stored).s["log"]
    assert rows and all(r.is_chance == (r.seat == "chance") for r in rows)
    assert any(r.is_chance for r in rows)  # the opening deal is drawn server-side
