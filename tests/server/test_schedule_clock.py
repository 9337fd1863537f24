"""Vacations and pauses stop a decision's clock (issue 27, item 4), with the clock controlled:
the sweep does nothing while it is stopped, and the deadline moves by the stopped time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from server.models import Game, OutboxMessage, User, aware
from server.services import deadlines, games, lobby, pauses, reach, vacations
from tests.players import proven_user

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def _game(engine, **timing):
    with Session(engine) as session:
        k = proven_user(session, "k@example.org", "Kay")
        n = proven_user(session, "n@example.org", "Nick")
        game = games.create_game(session, "tmotp", {}, {"kennedy": k.id, "nixon": n.id},
                                 seed="clock-seed", timing=lobby.check_timing(timing))
        return game.id


def _fresh(engine, gid) -> Game:
    with Session(engine) as session:
        game = session.get(Game, gid)
        session.expunge(game)
        return game


def _owing_user(engine, gid) -> tuple[str, User]:
    from server.models import Seat
    with Session(engine) as session:
        game = session.get(Game, gid)
        seat = deadlines.owing(session, game, games._load(game))[0]
        user = session.exec(select(User).join(Seat, Seat.user_id == User.id)
                            .where(Seat.game_id == gid, Seat.seat == seat)).one()
        session.expunge(user)
        return seat, user


def _kinds(engine, gid, kind):
    with Session(engine) as session:
        return [r.payload for r in session.exec(select(OutboxMessage).where(
            OutboxMessage.kind == kind).order_by(OutboxMessage.id))
            if r.payload.get("game_id") == gid]


def test_a_vacation_stops_the_deadline_and_moves_it_by_its_length(db_engine):
    gid = _game(db_engine, decision_hours=72, reminder_hours=[24])
    game = _fresh(db_engine, gid)
    start, deadline, step = aware(game.clock_started_at), aware(game.deadline_at), game.step
    assert deadline == start + 72 * HOUR
    seat, user = _owing_user(db_engine, gid)
    first = start.date() + 2 * DAY
    with Session(db_engine) as session:
        booked = vacations.book(session, session.get(User, user.id), first, first + DAY, start)
        begins, ends = aware(booked.starts_at), aware(booked.ends_at)
    assert begins <= deadline - 24 * HOUR and begins < deadline < ends
    assert ends - begins == 48 * HOUR
    assert aware(_fresh(db_engine, gid).alarm_at) == begins  # looked at when it starts

    assert deadlines.ring(db_engine, gid, begins) == "stopped"
    game = _fresh(db_engine, gid)
    assert aware(game.clock_stopped_at) == begins and aware(game.alarm_at) == ends
    # The reminder's time and the deadline pass during the vacation: nothing fires.
    with Session(db_engine) as session:
        assert gid not in deadlines.due(session, deadline)
    assert deadlines.ring(db_engine, gid, deadline - 24 * HOUR) == "none"
    assert deadlines.ring(db_engine, gid, deadline) == "none"
    assert _kinds(db_engine, gid, "reminder") == []
    assert _kinds(db_engine, gid, "deadline_passed") == []
    assert _fresh(db_engine, gid).step == step

    # The vacation ends: the deadline moves by the 48 hours the clock was stopped.
    assert deadlines.ring(db_engine, gid, ends) == "moved"
    game = _fresh(db_engine, gid)
    moved = deadline + 48 * HOUR
    assert aware(game.deadline_at) == moved and game.clock_stopped_at is None
    assert aware(game.alarm_at) == moved - 24 * HOUR
    assert deadlines.ring(db_engine, gid, moved - 24 * HOUR) == "reminded"
    assert deadlines.ring(db_engine, gid, moved - HOUR) == "none"
    with Session(db_engine) as session:  # the player opened the page: reached
        reach.record(session.connection(), gid, seat, step, "page", moved - HOUR)
        session.commit()
    assert deadlines.ring(db_engine, gid, moved) == "defaulted"
    assert [p["seat"] for p in _kinds(db_engine, gid, "deadline_passed")] == [seat]
    assert _fresh(db_engine, gid).step > step


def test_a_vacation_between_two_alarms_still_moves_the_deadline(db_engine):
    gid = _game(db_engine, decision_hours=24 * 7, reminder_hours=[])
    game = _fresh(db_engine, gid)
    start, deadline = aware(game.clock_started_at), aware(game.deadline_at)
    seat, user = _owing_user(db_engine, gid)
    first = start.date() + 2 * DAY
    with Session(db_engine) as session:
        booked = vacations.book(session, session.get(User, user.id), first, first, start)
        begins, ends = aware(booked.starts_at), aware(booked.ends_at)
    assert deadlines.ring(db_engine, gid, begins) == "stopped"
    assert deadlines.ring(db_engine, gid, ends + 5 * HOUR) == "moved"  # the sweep was late
    assert aware(_fresh(db_engine, gid).deadline_at) == deadline + DAY


def test_notice_allowance_and_overlap_are_refused_with_reasons(db_engine):
    gid = _game(db_engine)
    game = _fresh(db_engine, gid)
    now = aware(game.clock_started_at)
    _, user = _owing_user(db_engine, gid)
    today = now.date()
    with Session(db_engine) as session:
        me = session.get(User, user.id)
        with pytest.raises(vacations.VacationError, match="at least 24 hours"):
            vacations.book(session, me, today, today + DAY, now)
        year = (today + 10 * DAY).year
        with pytest.raises(vacations.VacationError, match=r"31 days, and 30 of your 30"):
            vacations.book(session, me, today + 10 * DAY, today + 40 * DAY, now,
                           allowance=30)
        vacations.book(session, me, today + 10 * DAY, today + 29 * DAY, now)
        assert vacations.used(session, me.id, (today + 10 * DAY).year) == 20
        with pytest.raises(vacations.VacationError, match="overlap"):
            vacations.book(session, me, today + 29 * DAY, today + 30 * DAY, now)
        first_of_year = type(today)(year + 1, 1, 1)
        assert len(vacations.of_user(session, me.id)) == 1
        # Another year has its own allowance.
        vacations.book(session, me, first_of_year + 60 * DAY, first_of_year + 61 * DAY, now)


def test_a_vacation_cancelled_or_ended_early_gives_its_days_back(db_engine):
    gid = _game(db_engine, decision_hours=24 * 10, reminder_hours=[])
    game = _fresh(db_engine, gid)
    now, deadline = aware(game.clock_started_at), aware(game.deadline_at)
    _, user = _owing_user(db_engine, gid)
    first = now.date() + 2 * DAY
    with Session(db_engine) as session:
        me = session.get(User, user.id)
        row = vacations.book(session, me, first, first + 4 * DAY, now)
        assert vacations.cancel(session, me, row.id, now) == "cancelled"
        assert vacations.used(session, me.id, first.year) == 0
        row = vacations.book(session, me, first, first + 4 * DAY, now)
        row_id, begins = row.id, aware(row.starts_at)
    assert deadlines.ring(db_engine, gid, begins) == "stopped"
    back = begins + DAY + 6 * HOUR  # the second day under way
    with Session(db_engine) as session:
        assert vacations.cancel(session, session.get(User, user.id), row_id, back) == "ended"
        assert vacations.used(session, user.id, first.year) == 2
    game = _fresh(db_engine, gid)
    assert aware(game.deadline_at) == deadline + DAY + 6 * HOUR
    assert game.clock_stopped_at is None


def test_a_pause_agreed_stops_the_clock_and_resuming_moves_the_deadline(db_engine):
    gid = _game(db_engine, decision_hours=48, reminder_hours=[24])
    game = _fresh(db_engine, gid)
    start, deadline = aware(game.clock_started_at), aware(game.deadline_at)
    asked_at, agreed_at, resumed_at = start + HOUR, start + 2 * HOUR, start + 80 * HOUR
    with Session(db_engine) as session:
        pauses.ask(session, gid, "kennedy", asked_at)
        with pytest.raises(pauses.PauseError, match="already"):
            pauses.ask(session, gid, "nixon", asked_at)
        pauses.answer(session, gid, "nixon", True, agreed_at)
    assert [p["event"] for p in _kinds(db_engine, gid, "pause")] == ["asked", "paused"]
    game = _fresh(db_engine, gid)
    assert game.alarm_at is None and aware(game.clock_stopped_at) == agreed_at
    with Session(db_engine) as session:
        assert gid not in deadlines.due(session, deadline + 10 * HOUR)
    assert deadlines.ring(db_engine, gid, deadline) == "none"
    assert _kinds(db_engine, gid, "reminder") == [] == _kinds(db_engine, gid, "deadline_passed")
    with Session(db_engine) as session:
        pauses.resume(session, gid, "nixon", resumed_at)
    game = _fresh(db_engine, gid)
    assert aware(game.deadline_at) == deadline + (resumed_at - agreed_at)
    assert aware(game.alarm_at) == aware(game.deadline_at) - 24 * HOUR
    assert [p["event"] for p in _kinds(db_engine, gid, "pause")][-1] == "resumed"


def test_a_pause_refused_or_expired_is_said(db_engine):
    gid = _game(db_engine, decision_hours=72, reminder_hours=[24])
    start = aware(_fresh(db_engine, gid).clock_started_at)
    with Session(db_engine) as session:
        pauses.ask(session, gid, "kennedy", start)
        pauses.answer(session, gid, "nixon", False, start + HOUR)
        with pytest.raises(pauses.PauseError, match="not paused"):
            pauses.resume(session, gid, "kennedy", start + HOUR)
        pauses.ask(session, gid, "nixon", start + 2 * HOUR)
    # Nobody answers: the sweep, woken at the ask's expiry, says so and sends nothing else.
    expiry = start + 26 * HOUR
    assert aware(_fresh(db_engine, gid).alarm_at) == start + 24 * HOUR  # the first ask's
    assert deadlines.ring(db_engine, gid, start + 24 * HOUR) == "none"
    assert aware(_fresh(db_engine, gid).alarm_at) == expiry
    assert deadlines.ring(db_engine, gid, expiry) == "none"
    assert [p["event"] for p in _kinds(db_engine, gid, "pause")] == \
        ["asked", "refused", "asked", "expired"]
    assert aware(_fresh(db_engine, gid).alarm_at) == start + 48 * HOUR
    assert _kinds(db_engine, gid, "reminder") == []


def test_an_extension_unanswered_expires_at_the_deadline(db_engine):
    from server.models import Extension
    from server.services import extensions
    gid = _game(db_engine, decision_hours=24, reminder_hours=[])
    game = _fresh(db_engine, gid)
    start, deadline = aware(game.clock_started_at), aware(game.deadline_at)
    seat, _user = _owing_user(db_engine, gid)
    other = "nixon" if seat == "kennedy" else "kennedy"
    with Session(db_engine) as session:
        extensions.ask(session, gid, seat, start + HOUR)
        with pytest.raises(extensions.ExtensionError, match="one extension"):
            extensions.ask(session, gid, seat, start + HOUR)
    assert deadlines.ring(db_engine, gid, deadline) in ("defaulted", "waiting")
    with Session(db_engine) as session:
        assert session.exec(select(Extension.status)).one() == "expired"
        with pytest.raises(extensions.ExtensionError, match="No extension"):
            extensions.answer(session, gid, other, True, deadline + HOUR)
    assert [p["event"] for p in _kinds(db_engine, gid, "extension")] == ["asked", "expired"]
    assert aware(_fresh(db_engine, gid).deadline_at) in (deadline, None) or \
        _fresh(db_engine, gid).step > game.step
