"""Issue 45, M1: a take back cannot buy time. A move taken back gives its mover the decision as
it was before the move: its deadline, its next alarm and the reminders already sent, its clock
(services/retract.py, the values kept on the hold's row by services/holds.py). The attack: a
deadline 5 minutes away, a retractable move, a take back, again and again; the decision must
not last a moment longer, and the deadline sweeper defaults the seat when it passes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import select

from server.models import AutoOrder, Game, OutboxMessage, User, aware
from server.services import deadlines, extensions
from server.services import games as svc
from server.services import retract as retract_service
from tests.server.api.conftest import both_databases, running_app  # noqa: F401
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable

CLOCK = ("deadline_at", "alarm_at", "reminders_sent", "clock_started_at", "clock_stopped_at")


def _holds(store, players, seconds: int) -> None:
    """Every player's take-back hold (0 while the test plays its way to a position: the
    service's random moves are then final at once)."""
    with store.session() as s:
        s.execute(update(User).where(User.id.in_([p.id for p in players.values()]))
                  .values(retract_hold_seconds=seconds))
        s.commit()


def _set(store, gid, **values) -> None:
    with store.session() as s:
        s.execute(update(Game).where(Game.id == gid).values(**values))
        s.commit()


def _clock(store, gid) -> dict:
    game = store.game(gid)
    return {name: aware(value) if name != "reminders_sent" else value
            for name, value in ((n, getattr(game, n)) for n in CLOCK)}


@pytest.fixture
def app(tmp_path, both_databases):
    """On SQLite and on PostgreSQL (the moments kept and given back, through both drivers)."""
    with running_app(tmp_path, both_databases) as app:
        yield app


@pytest.fixture
def position(client, store, players):
    """A game where a seat may make a move it can take back: (game id, seat, action)."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="m1")
    _holds(store, players, 0)
    _state, seat, action = at_retractable(store, gid)
    _holds(store, players, 900)
    return gid, seat, action


def _move(client, store, players, gid, seat, action) -> int:
    """The retractable move, by API; the step it led to."""
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"], r.get_json()
    return r.get_json()["step"]


def _reminders(store, gid) -> list[dict]:
    with store.session() as s:
        return [r.payload for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "reminder")).all() if r.payload["game_id"] == gid]


def test_a_deadline_five_minutes_away_stays_there_through_every_take_back(
        client, store, players, position):
    gid, seat, action = position
    now = svc.utcnow()
    deadline = now + timedelta(minutes=5)
    started = now - timedelta(hours=71, minutes=55)
    # The mover's decision: 5 minutes left, its one reminder (24 h before) sent long ago.
    _set(store, gid, deadline_at=deadline, alarm_at=deadline, reminders_sent=1,
         clock_started_at=started, clock_stopped_at=None)
    before = _clock(store, gid)
    for _ in range(4):  # move and take back, again and again
        step = _move(client, store, players, gid, seat, action)
        assert aware(store.game(gid).deadline_at) > deadline  # the next seat's own period
        r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step})
        assert r.status_code == 200, r.get_json()
        assert _clock(store, gid) == before  # the decision as it was: not a moment more
    assert _reminders(store, gid) == []
    # The sweeper: nothing before the deadline (the reminder is not sent again)...
    engine = store.engine
    assert deadlines.ring(engine, gid, now + timedelta(minutes=1)) == "none"
    assert _reminders(store, gid) == []
    # ...and the seat defaulted as soon as it passes.
    late = deadline + timedelta(seconds=1)
    with store.session() as s:
        assert gid in deadlines.due(s, late)
    step = store.game(gid).step
    assert deadlines.ring(engine, gid, late) == "defaulted"
    assert store.game(gid).step > step
    with store.session() as s:
        auto = s.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
    assert [(a.seat, a.step, a.source) for a in auto] == [(seat, step, "default")]
    assert store.rebuild(gid)


def test_a_reminder_due_during_the_hold_is_sent_after_the_take_back_and_only_once(
        client, store, players, position):
    gid, seat, action = position
    now = svc.utcnow()
    # The reminder, an hour before the deadline, falls due while the move is held.
    deadline = now + timedelta(hours=1, minutes=5)
    _set(store, gid, reminder_hours=[1], deadline_at=deadline,
         alarm_at=deadline - timedelta(hours=1), reminders_sent=0, clock_started_at=now,
         clock_stopped_at=None)
    before = _clock(store, gid)
    step = _move(client, store, players, gid, seat, action)
    later = now + timedelta(minutes=6)  # within the hold (900 s), past the reminder's time
    with store.session() as s:
        back = retract_service.retract(s, gid, seat, step, now=later)
    assert _clock(store, gid) == before
    engine = store.engine
    assert deadlines.ring(engine, gid, later) == "reminded"
    sent = _reminders(store, gid)
    assert [(r["seat"], r["step"], r["number"]) for r in sent] == [(seat, back.step, 1)]
    # Not again: the next alarm is the deadline.
    assert aware(store.game(gid).alarm_at) == deadline
    assert deadlines.ring(engine, gid, later + timedelta(minutes=1)) == "none"
    assert len(_reminders(store, gid)) == 1
    assert deadlines.ring(engine, gid, deadline + timedelta(seconds=1)) == "defaulted"


def test_a_deadline_that_passed_during_the_hold_is_applied_at_once_after_the_take_back(
        client, store, players, position):
    gid, seat, action = position
    now = svc.utcnow()
    deadline = now + timedelta(minutes=5)
    _set(store, gid, deadline_at=deadline, alarm_at=deadline, reminders_sent=1,
         clock_started_at=now - timedelta(hours=71, minutes=55), clock_stopped_at=None)
    step = _move(client, store, players, gid, seat, action)
    later = now + timedelta(minutes=10)  # the hold (900 s) outlived the mover's deadline
    with store.session() as s:
        back = retract_service.retract(s, gid, seat, step, now=later)
    assert aware(store.game(gid).deadline_at) == deadline
    assert deadlines.ring(store.engine, gid, later) == "defaulted"
    game = store.game(gid)
    assert game.step > back.step
    with store.session() as s:
        auto = s.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
    assert [(a.seat, a.step) for a in auto] == [(seat, back.step)]


def test_an_ask_for_more_time_waits_again_for_the_decision_given_back(client, store, players,
                                                                       position):
    """The mover's one extension, asked and unanswered when they moved: after the take back
    it waits for an answer again, and granted it adds one period to the deadline as it was."""
    gid, seat, action = position
    now = svc.utcnow()
    deadline = now + timedelta(minutes=5)
    _set(store, gid, deadline_at=deadline, alarm_at=deadline, reminders_sent=1,
         clock_started_at=now - timedelta(hours=71, minutes=55), clock_stopped_at=None)
    with store.session() as s:
        extensions.ask(s, gid, seat, svc.utcnow())
    step = _move(client, store, players, gid, seat, action)
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step})
    assert r.status_code == 200, r.get_json()
    with store.session() as s:
        asked = extensions.pending(s, gid)
        assert asked is not None and asked.seat == seat
        extensions.answer(s, gid, other(seat), True, svc.utcnow())
    game = store.game(gid)
    assert aware(game.deadline_at) == deadline + timedelta(hours=game.decision_hours)
