"""Issue 46, item 2: when a move cannot be taken back, the refusal says exactly why. A move the
deadline sweep played for the seat is refused as "deadline" (not "your settings say 0
seconds", which would blame the player's settings); a move followed by a bot's decision as
"bot_next"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from server import db
from server.models import Game, aware, utcnow
from server.services import deadlines, games, lobby, reach, retract
from tests.players import proven_user


def _game(engine, bots=None):
    with Session(engine) as session:
        ann = proven_user(session, "ann@example.org", "Ann")
        bob = proven_user(session, "bob@example.org", "Bob")
        game = games.create_game(session, "tmotp", {}, {"kennedy": ann.id, "nixon": bob.id},
                                 seed="reasons", timing=lobby.check_timing({}))
        if bots:
            game.bots, game.bot_delay_seconds = bots, 30
            session.add(game)
            session.commit()
        return game.id


def _refusal(engine, gid, seat) -> str | None:
    with Session(engine) as session:
        step = session.get(Game, gid).step
        try:
            retract.retract(session, gid, seat, step)
        except retract.RetractRefused as refused:
            return refused.code
        except games.StaleStep:
            return "stale"
    return None


def test_a_move_played_at_the_deadline_is_refused_as_such(db_engine):
    gid = _game(db_engine)
    now, codes = utcnow(), []
    for _ in range(40):
        with Session(db_engine) as session:
            game = session.get(Game, gid)
            if game.status != "active":
                break
            state = games._load(game)
            owing = deadlines.owing(session, game, state)
            step, deadline = game.step, aware(game.deadline_at)
            if not owing:
                break
            for seat in owing:
                reach.record(db.connection(session), gid, seat, step, "mail", now)
            session.commit()
        now = max(now, deadline)
        assert deadlines.ring(db_engine, gid, now) == "defaulted"
        codes += [_refusal(db_engine, gid, seat) for seat in owing]
    assert "no_hold" not in codes
    assert "deadline" in codes, codes


def test_a_move_followed_by_a_bots_decision_is_refused_as_such(db_engine):
    gid = _game(db_engine, bots={"nixon": "random"})
    now, codes = utcnow(), []
    for _ in range(200):
        with Session(db_engine) as session:
            game = session.get(Game, gid)
            state = games._load(game)
            active = state.active()
            if game.status != "active" or active == ["nixon"] and codes.count("bot_next") > 1:
                break
            step = game.step
        if active == ["kennedy"]:
            with Session(db_engine) as session:
                games.submit_order(session, gid, "kennedy", step,
                                   [state.legal_actions("kennedy")[0]])
            codes.append(_refusal(db_engine, gid, "kennedy"))
            continue
        with Session(db_engine) as session:   # the bot's turn, as its task would play it
            from server.services import bots
            bots.play(session, gid, active[0], step)
    assert "no_hold" not in codes
    assert "bot_next" in codes, codes
