"""A game's history in its own rows, not in the state an order loads (issue 28;
server/services/game_history.py, engine.core.history). On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from datetime import datetime, timezone

import sqlalchemy as sa
from sqlmodel import Session, select

import engine.core as engine
from server import db
from server.models import Game, GameNote, LogEntry
from server.services import games, operator
from server.services.games import create_game, rebuild, submit_order

SEATS = {"kennedy": None, "nixon": None}


def _play(session, game_id: int, orders: int, rng: random.Random) -> None:
    """``orders`` random orders of whoever is asked (sealed steps: every seat in turn)."""
    for _ in range(orders):
        game = session.get(Game, game_id)
        session.refresh(game)
        if game.status != "active":
            return
        state = games._load(game)
        active = state.active()
        pending = games.pending_seats(session, game_id, game.step)
        seat = next(x for x in active if x not in pending)
        submit_order(session, game_id, seat, game.step,
                     [rng.choice(state.legal_actions(seat))], by_player=False)
        if len(active) > 1 and set(active) <= pending | {seat}:
            games.resolve_step(session, game_id, game.step)


def _note_rows(session, game_id) -> list:
    return session.exec(select(GameNote.seq).where(GameNote.game_id == game_id)
                        .order_by(GameNote.seq)).all()


def test_the_stored_state_holds_no_history_and_the_rows_hold_all_of_it(session):
    game = create_game(session, "tmotp", {}, SEATS, seed="history")
    _play(session, game.id, 60, random.Random(1))
    stored = session.get(Game, game.id)
    session.refresh(stored)
    log_rows = session.exec(select(LogEntry).where(LogEntry.game_id == game.id)).all()
    assert stored.state["notes"] == [] and stored.state["log"] == []
    assert stored.state["log_from"] == len(log_rows) > 60
    assert _note_rows(session, game.id) == list(range(stored.state["notes_from"]))
    # The whole state, rows joined, is exactly the replay of the log.
    replayed = engine.replay("tmotp", "history", [[r.seat, r.action] for r in sorted(
        log_rows, key=lambda r: r.seq)], options=stored.options)
    assert games.state_json(games.whole_state(session, stored)) == games.state_json(replayed)
    assert rebuild(session, game.id) and operator.replay_check(session, game.id).ok
    # The views read the history from the rows.
    view = games.view_for(session, game.id, "kennedy")
    assert view["notes"] == [n[1] for n in replayed.to_dict()["notes"]]
    assert len(games.log_for(session, stored, None)) == len(log_rows)


def test_the_state_an_order_loads_is_the_same_size_early_and_late_in_a_game(session):
    # It holds no history: the log and the notes are in their rows.
    game = create_game(session, "tmotp", {}, SEATS, seed="size")
    sizes = []
    for _ in range(4):
        _play(session, game.id, 40, random.Random(len(sizes)))
        stored = session.get(Game, game.id)
        session.refresh(stored)
        sizes.append(len(json.dumps(stored.state)))
    assert max(sizes) < 1.5 * min(sizes), sizes
    assert stored.state["notes_from"] > 100


def test_a_missing_or_extra_history_row_is_found_by_the_replay_check(session):
    game = create_game(session, "mrpresident", {}, {"p1": None, "p2": None}, seed="check")
    _play(session, game.id, 30, random.Random(3))
    assert operator.replay_check(session, game.id).ok
    last = max(_note_rows(session, game.id))
    session.execute(sa.delete(GameNote).where(GameNote.game_id == game.id,
                                              GameNote.seq == last))
    session.commit()
    check = operator.replay_check(session, game.id)
    assert not check.ok and "does not fit" in check.error
    assert not rebuild(session, game.id)


def test_a_note_changed_in_its_row_is_found_by_the_replay_check(session):
    game = create_game(session, "tmotp", {}, SEATS, seed="changed")
    _play(session, game.id, 20, random.Random(4))
    row = session.get(GameNote, (game.id, 0))
    row.note = [row.note[0], "Something else happened.", *row.note[2:]]
    session.add(row)
    session.commit()
    check = operator.replay_check(session, game.id)
    assert not check.ok and check.differences
    assert not rebuild(session, game.id)


def test_the_migration_moves_the_history_out_and_back(empty_db_url):
    """0022 on a database holding games stored whole (as 0021 left them): their states lose
    their history to rows, play on, and a downgrade puts the whole state back."""
    db.migrate(empty_db_url, "0021")
    eng = db.make_engine(empty_db_url)
    whole = engine.new_game("tmotp", seed="old", options={})
    rng = random.Random(5)
    while whole.log_length() < 80:
        active = whole.active()
        seat = engine.CHANCE if active == [engine.CHANCE] else rng.choice(active)
        whole.apply(seat, engine.sample_chance(whole) if seat == engine.CHANCE
                    else rng.choice(whole.legal_actions(seat)))
    data = whole.to_dict()
    game_t, log_t = sa.table("game", sa.column("id"), sa.column("state", sa.JSON)), \
        sa.table("logentry", *(sa.column(c) for c in ("game_id", "seq", "seat", "action",
                                                       "is_chance")))
    with eng.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO game (id, game_type, options, status, step, seed, seed_hash, public,"
            " created_at, updated_at) VALUES (1, 'tmotp', '{}', 'active', 80, 'old', 'x',"
            " false, :now, :now)"), {"now": datetime.now(timezone.utc)})
        conn.execute(game_t.update().where(game_t.c.id == 1).values(state=data))
        conn.execute(log_t.insert(), [{"game_id": 1, "seq": i, "seat": s, "action": a,
                                       "is_chance": s == engine.CHANCE}
                                      for i, (s, a) in enumerate(data["log"])])
    db.migrate(empty_db_url)
    with Session(eng) as session:
        game = session.get(Game, 1)
        assert engine.history.is_trimmed(game.state) and game.state["notes"] == []
        assert len(_note_rows(session, 1)) == len(data["notes"]) > 0
        assert games.state_json(games.whole_state(session, game)) == data
        assert rebuild(session, 1)
    from alembic import command
    command.downgrade(db.alembic_config(empty_db_url), "0021")
    with eng.connect() as conn:
        state = conn.execute(sa.select(game_t.c.state)).scalar_one()
    assert (json.loads(state) if isinstance(state, str) else state) == data
    eng.dispose()


def _spoil(value) -> None:
    """Change every list and dict inside ``value``."""
    if isinstance(value, list):
        for item in list(value):
            _spoil(item)
        value.append("spoilt")
    elif isinstance(value, dict):
        for item in list(value.values()):
            _spoil(item)
        value["spoilt"] = True


def test_a_whole_state_shares_nothing_with_the_game_row_unless_asked_to(session):
    # A bot reads its view from a copy: what it does with it never reaches the row an order
    # then plays on (games._load hands the row's dict to the engine).
    game = create_game(session, "tmotp", {}, SEATS, seed="copy")
    _play(session, game.id, 30, random.Random(6))
    stored = session.get(Game, game.id)
    session.refresh(stored)
    before = json.dumps(stored.state, sort_keys=True)
    state = games.whole_state(session, stored)
    _spoil(state.s)
    assert json.dumps(stored.state, sort_keys=True) == before
    shared = games.whole_state(session, stored, copy=False)
    _spoil(shared.s)
    assert json.dumps(stored.state, sort_keys=True) != before
