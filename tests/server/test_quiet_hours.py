"""Quiet hours (issue 27, item 5): a deadline or reminder that would fall in the acting player's
quiet hours moves to their end, across midnight and across a change of daylight-saving time."""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

import pytest
from sqlmodel import Session

from server.models import Game, User, aware
from server.services import deadlines, games, lobby, quiet_hours
from server.services.quiet_hours import Window
from tests.players import proven_user

UTC = timezone.utc
HOUR = timedelta(hours=1)


def test_a_moment_inside_quiet_hours_across_midnight_moves_to_their_end():
    night = Window(time(22, 0), time(7, 0), "Asia/Tokyo")  # UTC+9, no daylight-saving time
    # 23:30 in Tokyo (14:30 UTC) -> 07:00 the next morning (22:00 UTC)
    assert night.end_of(datetime(2026, 3, 2, 14, 30, tzinfo=UTC)) == \
        datetime(2026, 3, 2, 22, 0, tzinfo=UTC)
    # 03:00 in Tokyo (18:00 UTC the day before) -> 07:00 that morning
    assert night.end_of(datetime(2026, 3, 1, 18, 0, tzinfo=UTC)) == \
        datetime(2026, 3, 1, 22, 0, tzinfo=UTC)
    assert night.end_of(datetime(2026, 3, 2, 3, 0, tzinfo=UTC)) is None  # noon
    assert night.end_of(datetime(2026, 3, 1, 22, 0, tzinfo=UTC)) is None  # 07:00: over
    siesta = Window(time(13, 0), time(15, 0), "UTC")
    assert siesta.end_of(datetime(2026, 3, 2, 14, 0, tzinfo=UTC)) == \
        datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    assert siesta.end_of(datetime(2026, 3, 2, 16, 0, tzinfo=UTC)) is None


def test_the_end_is_read_on_the_clock_of_that_day_across_daylight_saving_changes():
    night = Window(time(22, 0), time(7, 0), "America/New_York")
    # 1 November 2026: clocks go back at 02:00 EDT. 01:00 EDT (05:00 UTC) -> 07:00 EST,
    # which is 12:00 UTC (not 11:00, as the evening's offset would say).
    assert night.end_of(datetime(2026, 11, 1, 5, 0, tzinfo=UTC)) == \
        datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    # 8 March 2026: clocks go forward at 02:00 EST. 23:00 EST on the 7th (04:00 UTC) ->
    # 07:00 EDT on the 8th, 11:00 UTC.
    assert night.end_of(datetime(2026, 3, 8, 4, 0, tzinfo=UTC)) == \
        datetime(2026, 3, 8, 11, 0, tzinfo=UTC)


def test_two_players_quiet_hours_push_a_moment_out_of_both():
    tokyo = Window(time(23, 0), time(7, 0), "Asia/Tokyo")      # 14:00-22:00 UTC
    madrid = Window(time(22, 0), time(8, 0), "Europe/Madrid")  # winter: 21:00-07:00 UTC
    moment = datetime(2026, 1, 10, 21, 30, tzinfo=UTC)
    assert quiet_hours.later(moment, [tokyo, madrid]) == datetime(2026, 1, 11, 7, 0, tzinfo=UTC)
    assert quiet_hours.later(moment, []) == moment


@pytest.mark.parametrize("start,end", [("25:00", "07:00"), ("22:00", "22:00"), ("x", "")])
def test_bad_quiet_hours_are_refused(start, end):
    with pytest.raises(quiet_hours.BadQuietHours):
        quiet_hours.set_hours(None, 1, start, end)


def _game_with_quiet(engine, zone: str, start: str, end: str, **timing):
    with Session(engine) as session:
        users = {s: proven_user(session, f"{s}@example.org", s) for s in ("kennedy", "nixon")}
        for user in users.values():
            user.time_zone = zone
            quiet_hours.set_hours(session, user.id, start, end)
            session.add(user)
        session.commit()
        game = games.create_game(session, "tmotp", {}, {s: u.id for s, u in users.items()},
                                 seed="quiet-seed", timing=lobby.check_timing(timing))
        session.refresh(game)
        session.expunge(game)
        return game


def test_a_decision_s_deadline_and_reminder_move_out_of_the_players_quiet_hours(db_engine):
    # Quiet hours of 12 (the most: quiet_hours.MAX_HOURS) around the time of day the test runs
    # at, so the deadline and reminder surely move to their end (a fixed night, 23:00-24:00
    # free, failed the test run in that hour: the deadline fell in it and stayed).
    free = (datetime.now(UTC) + 6 * HOUR).replace(second=0, microsecond=0)
    game = _game_with_quiet(db_engine, "UTC", (free - 12 * HOUR).strftime("%H:%M"),
                            free.strftime("%H:%M"), decision_hours=72, reminder_hours=[24])
    started, deadline = aware(game.clock_started_at), aware(game.deadline_at)
    nominal = started + 72 * HOUR
    assert deadline.time() == free.time() and deadline >= nominal
    assert deadline - nominal < timedelta(days=1)
    reminder = aware(game.alarm_at)
    assert reminder.time() == free.time() and reminder >= nominal - 24 * HOUR
    assert deadlines.ring(db_engine, game.id, reminder) == "reminded"
    with Session(db_engine) as session:
        assert aware(session.get(Game, game.id).alarm_at) == deadline


def test_quiet_hours_across_midnight_and_a_dst_change_move_the_deadline(db_engine):
    from server.services import clock
    with Session(db_engine) as session:
        user = proven_user(session, "ny@example.org", "NY")
        user.time_zone = "America/New_York"
        quiet_hours.set_hours(session, user.id, "22:00", "07:00")
        session.commit()
        k = proven_user(session, "k2@example.org", "K")
        game = games.create_game(session, "tmotp", {}, {"kennedy": user.id, "nixon": k.id},
                                 seed="quiet-seed", timing=lobby.check_timing({}))
        owing = clock.owing_now(session, game)
        quiet = quiet_hours.windows(session, game.id, owing)
        assert len(quiet) == (1 if "kennedy" in owing else 0)
        # A decision asked at 01:00 EDT on 29 October: 72 hours later is 00:00 EST on
        # 1 November (05:00 UTC), inside the night; it moves to 07:00 EST (12:00 UTC).
        asked = datetime(2026, 10, 29, 5, 0, tzinfo=UTC)
        values = games.deadline_values(session.get(Game, game.id), asked,
                                       quiet_hours.windows(session, game.id, ["kennedy"]))
        assert values["deadline_at"] == datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        # Its reminder is 24 hours before the moved deadline: 08:00 EDT, outside the night.
        assert values["alarm_at"] == datetime(2026, 10, 31, 12, 0, tzinfo=UTC)
        # Asked at 02:00 EDT on 30 October: the deadline, 01:00 EST on 2 November, moves to
        # 07:00 EST; its reminder 24 hours before is 07:00 EST on the day of the change (the
        # night's end on that day's clock, so it stays; at the evening's offset it would be
        # 06:00, inside the night).
        late = games.deadline_values(session.get(Game, game.id),
                                     datetime(2026, 10, 30, 6, 0, tzinfo=UTC),
                                     quiet_hours.windows(session, game.id, ["kennedy"]))
        assert late["deadline_at"] == datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
        assert late["alarm_at"] == datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        assert session.get(User, user.id).time_zone == "America/New_York"
