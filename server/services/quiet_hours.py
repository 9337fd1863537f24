"""Quiet hours: a user's nightly hours (local times in their zone, off by default) in which no
deadline or reminder of a decision they owe may fall; one that would moves to their end.

Applied where deadlines and reminders are computed (games.deadline_values, reminder_times and
next_alarm, clock.restart, extensions.grant), so the mails and pages show the moved time. The
local times are read in the user's zone on the day concerned (zoneinfo): across a change of
daylight-saving time, 07:00 is 07:00 on the clock of that day. A local time that does not exist
that day (skipped by the change) is read as the same clock time after it (zoneinfo's fold 0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from typing import Iterable

from sqlalchemy import bindparam
from sqlmodel import Session, select

from server import db
from server.i18n import times
from server.models import QuietHours, Seat, User
from server.raw_sql import Raw

_HHMM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
# The longest quiet hours (issue 45): a night's sleep with room to spare, while half of every
# day stays open to the deadlines and reminders the other players wait on. Longer ones (23 h
# 59 min was taken) would put every deadline a player owes into a few minutes of the day.
MAX_HOURS = 12


class BadQuietHours(ValueError):
    """Quiet hours that are not two times of day ("HH:MM"), or whose start is their end."""


class TooLong(BadQuietHours):
    """Quiet hours longer than MAX_HOURS: ``hours`` and ``minutes`` they would last."""

    def __init__(self, minutes: int):
        super().__init__(minutes)
        self.hours, self.minutes = divmod(minutes, 60)


def length(start: time, end: time) -> int:
    """How many minutes quiet hours from ``start`` to ``end`` last (across midnight if the
    end comes first)."""
    return (end.hour * 60 + end.minute - start.hour * 60 - start.minute) % (24 * 60)


def capped_end(start: time, end: time) -> time:
    """``end``, or the end MAX_HOURS after ``start`` when they would last longer (quiet hours
    stored before the cap)."""
    if length(start, end) <= MAX_HOURS * 60:
        return end
    moment = (start.hour * 60 + start.minute + MAX_HOURS * 60) % (24 * 60)
    return time(moment // 60, moment % 60)


@dataclass(frozen=True)
class Window:
    """One user's quiet hours: local start and end, and their zone's name."""

    start: time
    end: time
    zone: str

    def end_of(self, moment: datetime) -> datetime | None:
        """When the quiet hours ``moment`` falls in end (UTC), or None when it falls outside."""
        tz = times.zone(self.zone)
        local = moment.astimezone(tz)
        clock = local.time().replace(tzinfo=None)
        day = local.date()
        if self.start < self.end:  # the same day: 13:00-15:00
            if not self.start <= clock < self.end:
                return None
        elif clock >= self.start:  # across midnight: 22:00-07:00, after 22:00
            day += timedelta(days=1)
        elif clock >= self.end:
            return None
        return datetime.combine(day, self.end, tzinfo=tz).astimezone(timezone.utc)


def parse(text: str | None) -> time:
    """A time of day written "HH:MM" (or "H:MM"); raise BadQuietHours."""
    found = _HHMM.match((text or "").strip())
    if not found:
        raise BadQuietHours(text)
    return time(int(found.group(1)), int(found.group(2)))


def later(moment: datetime | None, windows: Iterable[Window]) -> datetime | None:
    """``moment``, or the end of the quiet hours it falls in (of any of ``windows``, until it
    falls in none of them)."""
    windows = list(windows)
    if moment is None or not windows:
        return moment
    for _ in range(4 * len(windows) + 1):  # each window can push it at most once a day
        ends = [e for e in (w.end_of(moment) for w in windows) if e is not None]
        if not ends:
            return moment
        moment = max(ends)
    return moment


def of_user(session: Session, user_id: int) -> QuietHours | None:
    return session.get(QuietHours, user_id)


def set_hours(session: Session, user_id: int, start: str | None, end: str | None) -> None:
    """Set the user's quiet hours ("HH:MM" each), or turn them off (both empty); raise
    BadQuietHours (nothing changed)."""
    if not (start or "").strip() and not (end or "").strip():
        row = session.get(QuietHours, user_id)
        if row is not None:
            session.delete(row)
        return
    begin, finish = parse(start), parse(end)
    if begin == finish:
        raise BadQuietHours(start)
    if length(begin, finish) > MAX_HOURS * 60:
        raise TooLong(length(begin, finish))
    row = session.get(QuietHours, user_id)
    if row is None:
        row = QuietHours(user_id=user_id, start="", end="")
    row.start, row.end = begin.strftime("%H:%M"), finish.strftime("%H:%M")
    session.add(row)


def windows(session: Session, game_id: int, seats: Iterable[str]) -> list[Window]:
    """The quiet hours of the players of ``seats`` in the game (those who set some).

    Read on every order (games._compare_and_set asks it for the seats of the next decision):
    a statement built once and run on the driver's cursor, one per seat asked (one in a
    sequential step), as the order path's other reads (server/raw_sql.py)."""
    found = []
    connection = db.connection(session)
    for seat in seats:
        for start, end, zone in _QUIET_OF_SEAT.rows(connection, {"game_id": game_id,
                                                                 "seat": seat}):
            begin = parse(start)
            found.append(Window(begin, capped_end(begin, parse(end)), zone))
    return found


_QUIET_OF_SEAT = Raw(select(QuietHours.start, QuietHours.end, User.time_zone)
                     .join(Seat, Seat.user_id == QuietHours.user_id)
                     .join(User, User.id == QuietHours.user_id)
                     .where(Seat.game_id == bindparam("game_id"),
                            Seat.seat == bindparam("seat")))
