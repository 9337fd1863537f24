"""Deadlines with the clock controlled: reminders at their times, the filed default or the safe
default (or a forfeit) when the time runs out, each exactly once; a game nobody answers ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from engine.core import from_dict
from sqlmodel import Session, select

from server.models import AutoOrder, Game, LogEntry, OutboxMessage, StandingOrder, aware
from server.services import deadlines, games, lobby, standing

SEATS = {"kennedy": None, "nixon": None}
HOUR = timedelta(hours=1)
SECOND = timedelta(seconds=1)


def _game(engine, **timing):
    with Session(engine) as session:
        timing = lobby.check_timing(timing)
        return games.create_game(session, "tmotp", {}, SEATS, seed="deadline-seed",
                                 timing=timing).id


def _fresh(engine, game_id):
    with Session(engine) as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game


def _rows(engine, kind, game_id):
    with Session(engine) as session:
        return [r.payload for r in session.exec(select(OutboxMessage).where(
            OutboxMessage.kind == kind).order_by(OutboxMessage.id))
            if r.payload.get("game_id") == game_id]


def _asked(game):
    state = from_dict(game.state)
    return state, state.active()[0]


def test_reminders_then_the_safe_default_at_their_times(db_engine):
    gid = _game(db_engine, decision_hours=72, reminder_hours=[24, 48])
    game = _fresh(db_engine, gid)
    deadline, step = aware(game.deadline_at), game.step
    assert aware(game.created_at) + 71 * HOUR < deadline < aware(game.created_at) + 73 * HOUR
    assert aware(game.alarm_at) == deadline - 48 * HOUR
    state, seat = _asked(game)
    expected = state.default_action(seat)

    def ring(at):
        alarm = aware(_fresh(db_engine, gid).alarm_at)
        with Session(db_engine) as session:
            assert (gid in deadlines.due(session, at)) == (at >= alarm)
        return deadlines.ring(db_engine, gid, at)

    assert ring(deadline - 48 * HOUR - SECOND) == "none"
    assert ring(deadline - 48 * HOUR) == "reminded"
    assert ring(deadline - 48 * HOUR) == "none"  # once
    assert ring(deadline - 25 * HOUR) == "none"
    assert ring(deadline - 24 * HOUR) == "reminded"
    assert ring(deadline - SECOND) == "none"
    assert [(r["seat"], r["number"], r["of"], r["step"]) for r in _rows(db_engine, "reminder", gid)] \
        == [(seat, 1, 2, step), (seat, 2, 2, step)]
    assert _fresh(db_engine, gid).step == step
    assert ring(deadline) == "defaulted"
    assert ring(deadline) == "none"
    game = _fresh(db_engine, gid)
    assert game.step > step
    assert aware(game.deadline_at) > deadline - SECOND  # the next decision has its own time
    passed = _rows(db_engine, "deadline_passed", gid)
    assert len(passed) == 1 and passed[0]["seat"] == seat and passed[0]["source"] == "default"
    assert passed[0]["actions"][0] == expected
    with Session(db_engine) as session:
        log = [r.action for r in session.exec(select(LogEntry).where(LogEntry.game_id == gid))]
        auto = session.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
        assert games.rebuild(session, gid)
    assert expected in log
    assert [(a.seat, a.source, a.actions) for a in auto] == [(seat, "default", passed[0]["actions"])]


def test_a_reminder_missed_by_the_sweeper_is_sent_once(db_engine):
    gid = _game(db_engine, decision_hours=72, reminder_hours=[48, 24])
    deadline = aware(_fresh(db_engine, gid).deadline_at)
    assert deadlines.ring(db_engine, gid, deadline - HOUR) == "reminded"
    assert deadlines.ring(db_engine, gid, deadline - HOUR) == "none"
    rows = _rows(db_engine, "reminder", gid)
    assert [(r["number"], r["of"]) for r in rows] == [(2, 2)]
    assert aware(_fresh(db_engine, gid).alarm_at) == deadline


def test_the_filed_default_comes_first_and_is_used_once(db_engine):
    gid = _game(db_engine, decision_hours=24, reminder_hours=[])
    game = _fresh(db_engine, gid)
    state, seat = _asked(game)
    legal = state.legal_actions(seat)
    safe = state.default_action(seat)
    mine = next(a for a in reversed(legal) if a != safe)
    with Session(db_engine) as session:
        standing.file(session, gid, seat, "deadline_default", ["recount OH", mine], state)
        session.commit()
    assert deadlines.ring(db_engine, gid, aware(game.deadline_at)) == "defaulted"
    passed = _rows(db_engine, "deadline_passed", gid)
    assert passed[0]["source"] == "filed" and passed[0]["actions"][0] == mine
    with Session(db_engine) as session:
        assert session.exec(select(StandingOrder).where(StandingOrder.game_id == gid)).all() == []


def test_an_answer_before_the_deadline_moves_it(db_engine):
    gid = _game(db_engine, decision_hours=24, reminder_hours=[])
    game = _fresh(db_engine, gid)
    state, seat = _asked(game)
    with Session(db_engine) as session:
        games.submit_order(session, gid, seat, game.step, [state.legal_actions(seat)[0]])
    # The old deadline comes: the decision it was set for is answered, the alarm is later.
    assert deadlines.ring(db_engine, gid, aware(game.deadline_at)) == "none"
    # A ring racing the order (read before it, acting after) changes nothing.
    before = _fresh(db_engine, gid)
    deadlines._default(db_engine, gid, game.step, seat, aware(game.deadline_at))
    assert _fresh(db_engine, gid).step == before.step
    assert _rows(db_engine, "deadline_passed", gid) == []


def test_forfeit(db_engine):
    gid = _game(db_engine, decision_hours=12, reminder_hours=[2], on_deadline="forfeit")
    game = _fresh(db_engine, gid)
    _, seat = _asked(game)
    assert deadlines.ring(db_engine, gid, aware(game.deadline_at)) == "forfeited"
    game = _fresh(db_engine, gid)
    assert game.status == "finished" and game.result["forfeited"] == seat
    assert game.result["termination"] == "forfeited"
    assert game.result["winner"] == ({"kennedy", "nixon"} - {seat}).pop()
    assert game.alarm_at is None
    assert [r["source"] for r in _rows(db_engine, "deadline_passed", gid)] == ["forfeit"]
    assert len(_rows(db_engine, "game_over", gid)) == 1
    assert deadlines.ring(db_engine, gid, aware(game.created_at) + 1000 * HOUR) == "none"


def test_no_time_limit(db_engine):
    gid = _game(db_engine, decision_hours=0, reminder_hours=[])
    game = _fresh(db_engine, gid)
    assert game.deadline_at is None and game.alarm_at is None
    with Session(db_engine) as session:
        assert gid not in deadlines.due(session, aware(game.created_at) + 10000 * HOUR)


@pytest.mark.parametrize("bad, words", [
    ({"decision_hours": -1}, "decision_hours"), ({"decision_hours": "3"}, "decision_hours"),
    ({"reminder_hours": [72]}, "less than decision_hours"), ({"on_deadline": "lose"}, "forfeit"),
    ({"reminder_hours": [1, 2, 3, 4, 5, 6]}, "up to 5"), ({"deadline": 3}, "Unknown"),
])
def test_bad_timing_is_refused_with_the_reason(bad, words):
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.check_timing(bad)
    assert words in refused.value.reason


def test_a_game_nobody_answers_ends_by_deadlines(db_engine):
    """Every decision, simultaneous ones included, is made by the deadline: the game ends, one
    default per decision (a seat that sealed its order keeps it), and the log rebuilds it."""
    gid = _game(db_engine, decision_hours=6, reminder_hours=[1])
    now = aware(_fresh(db_engine, gid).created_at)
    rings = {"reminded": 0, "defaulted": 0, "idle": 0}
    for _ in range(3000):
        game = _fresh(db_engine, gid)
        if game.status == "finished":
            break
        if game.alarm_at is None:  # all sealed: resolve as the worker would
            with Session(db_engine) as session:
                assert games.resolve_step(session, gid, game.step)
            continue
        now = max(now, aware(game.alarm_at))
        result = deadlines.ring(db_engine, gid, now)
        assert result in rings, result
        rings[result] += 1
    game = _fresh(db_engine, gid)
    assert game.status == "finished", (rings, game.step, from_dict(game.state).prompt(None))
    assert game.result["winner"] in ("kennedy", "nixon", None)
    with Session(db_engine) as session:
        assert games.rebuild(session, gid)
        sources = {a.source for a in session.exec(select(AutoOrder).where(AutoOrder.game_id == gid))}
    assert sources == {"default"}
    assert rings["defaulted"] > 20 and rings["reminded"] > 20
