"""Migration 0026 (issue 46, item 6): a Z-Man game of 1960 begun before the Election Day card
order became the players' choice keeps the order placed (``strategy_order: false``, in its
options and its cached state's), so that its log replays as it was played; other games are
left as they are; the downgrade takes the option away."""

from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import command

from engine.core import play_random

from server import db
from tests.server.conftest import empty_db_url  # noqa: F401

GAME = sa.table("game", sa.column("id", sa.Integer), sa.column("game_type", sa.String),
                sa.column("options", sa.JSON), sa.column("state", sa.JSON),
                sa.column("seed", sa.String), sa.column("seed_hash", sa.String),
                sa.column("status", sa.String), sa.column("step", sa.Integer),
                sa.column("public", sa.Boolean))


def _rows(engine) -> dict:
    with engine.connect() as c:
        return {r.id: (r.options, r.state) for r in c.execute(
            sa.select(GAME.c.id, GAME.c.options, GAME.c.state))}


def test_games_begun_before_keep_the_order_placed(empty_db_url):  # noqa: F811
    db.migrate(empty_db_url, "0025")
    engine = db.make_engine(empty_db_url)
    try:
        games = {"zman": {"edition": "zman"}, "gmt": {"edition": "gmt"}, "default": {}}
        # Written as the tables were at 0025 (the models have columns of later migrations).
        meta = sa.MetaData()
        users = sa.Table("user", meta, autoload_with=engine)
        table = sa.Table("game", meta, autoload_with=engine)
        now = datetime.now(timezone.utc)
        with engine.begin() as c:
            ann = c.execute(users.insert().values(email="ann@example.org", display_name="",
                                                  locale="en", created_at=now)
                            .returning(users.c.id)).scalar_one()
            for options in games.values():
                c.execute(table.insert().values(
                    game_type="tmotp", options=options, seed="s", seed_hash="h",
                    created_by=ann, status="active", step=3, public=False, created_at=now,
                    updated_at=now,
                    state={"game": "tmotp", "options": {"edition": "gmt", **options}}))
        before = _rows(engine)
        zman = min(before)  # the first game added
        db.migrate(empty_db_url)
        after = _rows(engine)
        assert after[zman] == ({"edition": "zman", "strategy_order": False},
                               {"game": "tmotp", "options": {"edition": "zman",
                                                             "strategy_order": False}})
        assert {k: v for k, v in after.items() if k != zman} == \
            {k: v for k, v in before.items() if k != zman}
        command.downgrade(db.alembic_config(empty_db_url), "0025")
        assert _rows(engine) == before
    finally:
        engine.dispose()


def test_a_game_with_the_order_placed_is_never_asked_it():
    """The same seeds ask the order with the option's default, and never without it."""
    asked = set()
    for seed in range(3):
        play_random("tmotp", seed, options={"edition": "zman"},
                    check=lambda state: asked.update(
                        frame["step"] for frame in state.s.get("stack") or []))
    assert "election_day_strategy_order" in asked
    steps = set()

    def record(state):
        steps.update(frame["step"] for frame in state.s.get("stack") or [])

    for seed in range(3):
        game = play_random("tmotp", seed, options={"edition": "zman", "strategy_order": False},
                           check=record)
        assert game.outcome() is not None
    assert "election_day_event_order" in steps or "support_checks" in steps
    assert "election_day_strategy_order" not in steps
