"""Vacations: a player's days away, when the clocks of all their games stop.

Each user has VACATION_DAYS_PER_YEAR whole days a calendar year (config, default 30) and books
them at least VACATION_NOTICE_HOURS ahead (default 24), so a vacation cannot be taken to escape a
running deadline. A vacation is whole days in the user's zone: from 00:00 of its first day to
00:00 after its last; it counts against the year of its first day. While it lasts, no deadline
or reminder of a decision the user owes fires, and when it ends the deadline moves by the time
its clock was stopped (services/clock.py). A future vacation may be cancelled (its days come
back); one under way may be ended early: it ends at once and the whole days not begun come back
(the day under way counts). The other players are told on the game page and in their next
mails ("X is on vacation until ...").
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sqlalchemy import update
from sqlmodel import Session, select

from server.catalogue import N_
from server.i18n import times
from server.models import Game, Seat, User, Vacation, aware
from server.services import clock

DAYS_PER_YEAR = 30
NOTICE_HOURS = 24
MAX_DAYS = 60  # one booking, at most (the allowance limits it anyway)


class VacationError(Exception):
    """Why a vacation cannot be booked, cancelled or ended (``message`` in words, with
    ``values`` to fill it; ``status``: the HTTP status it answers)."""

    def __init__(self, message: str, status: int = 422, **values):
        super().__init__(message % values if values else message)
        self.message, self.status, self.values = message, status, values


def _midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time(0), tzinfo=times.zone(zone)).astimezone(
        times.zone("UTC"))


def of_user(session: Session, user_id: int, now: datetime | None = None) -> list[Vacation]:
    """The user's vacations not over by ``now`` (all, without it), earliest first."""
    query = select(Vacation).where(Vacation.user_id == user_id)
    if now is not None:
        query = query.where(Vacation.ends_at > now)
    return list(session.exec(query.order_by(Vacation.starts_at)).all())


def used(session: Session, user_id: int, year: int) -> int:
    """The days of the year's allowance the user's vacations take."""
    return sum(v.days for v in session.exec(select(Vacation).where(
        Vacation.user_id == user_id, Vacation.first_day.startswith(f"{year:04d}-"))).all())


def on_vacation(session: Session, user_id: int, now: datetime) -> Vacation | None:
    return session.exec(select(Vacation).where(Vacation.user_id == user_id,
                                                Vacation.starts_at <= now,
                                                Vacation.ends_at > now)).first()


def book(session: Session, user: User, first: date, last: date, now: datetime,
         allowance: int = DAYS_PER_YEAR, notice_hours: float = NOTICE_HOURS) -> Vacation:
    """Book the days ``first`` to ``last`` (inclusive, local dates); commits. Raise
    VacationError (nothing changed)."""
    if last < first:
        raise VacationError(N_("The last day is before the first."))
    days = (last - first).days + 1
    if days > MAX_DAYS:
        raise VacationError(N_("One vacation is at most %(days)s days."), days=MAX_DAYS)
    starts, ends = _midnight(first, user.time_zone), _midnight(last + timedelta(days=1),
                                                               user.time_zone)
    earliest = now + timedelta(hours=notice_hours)
    if starts < earliest:
        raise VacationError(N_("A vacation must be booked at least %(hours)s hours before it "
                               "starts, so it cannot stop a deadline already running: the "
                               "earliest first day is %(day)s."), hours=int(notice_hours),
                            day=_first_possible(earliest, user.time_zone).isoformat())
    left = allowance - used(session, user.id, first.year)
    if days > left:
        raise VacationError(N_("This vacation takes %(days)s days, and %(left)s of your "
                               "%(allowance)s days for %(year)s are left."),
                            days=days, left=max(left, 0), allowance=allowance, year=first.year)
    if session.exec(select(Vacation.id).where(Vacation.user_id == user.id,
                                              Vacation.starts_at < ends,
                                              Vacation.ends_at > starts)).first():
        raise VacationError(N_("These days overlap a vacation you have booked."))
    row = Vacation(user_id=user.id, starts_at=starts, ends_at=ends, days=days,
                   first_day=first.isoformat(), created_at=now)
    session.add(row)
    # The sweep looks at the user's games when the vacation starts (a reminder due then must
    # not go out); an alarm rung early finds the next one.
    for game in _games(session, user.id):
        if game.alarm_at is not None and aware(game.alarm_at) > starts:
            session.execute(update(Game).where(Game.id == game.id).values(alarm_at=starts))
    session.commit()
    return row


def _first_possible(earliest: datetime, zone: str) -> date:
    day = times.local_date(earliest, zone)
    return day if _midnight(day, zone) >= earliest else day + timedelta(days=1)


def cancel(session: Session, user: User, vacation_id: int, now: datetime) -> str:
    """Cancel a future vacation ("cancelled") or end one under way now ("ended": the whole days
    not begun come back); commits. Raise VacationError."""
    row = session.get(Vacation, vacation_id)
    if row is None or row.user_id != user.id:
        raise VacationError(N_("You have no such vacation."), 404)
    if aware(row.ends_at) <= now:
        raise VacationError(N_("This vacation is over."), 409)
    if aware(row.starts_at) > now:
        session.delete(row)
        session.commit()
        return "cancelled"
    begun = times.local_date(now, user.time_zone) - date.fromisoformat(row.first_day)
    row.days, row.ends_at, row.ended_early_at = begun.days + 1, now, now
    session.add(row)
    session.flush()
    for game in _games(session, user.id):
        if not clock.catch_up(session, game, clock.owing_now(session, game), now) and \
                game.alarm_at is not None and aware(game.alarm_at) > now:
            session.execute(update(Game).where(Game.id == game.id).values(alarm_at=now))
    session.commit()
    return "ended"


def _games(session: Session, user_id: int) -> list[Game]:
    return list(session.exec(select(Game).join(Seat, Seat.game_id == Game.id)
                             .where(Seat.user_id == user_id, Game.status == "active")).all())


def away(session: Session, game_id: int, now: datetime) -> list[tuple[str, datetime]]:
    """The game's seats whose players are on vacation at ``now``, with the vacation's end:
    what the other players are told."""
    rows = session.exec(select(Seat.seat, Vacation.ends_at)
                        .join(Vacation, Vacation.user_id == Seat.user_id)
                        .where(Seat.game_id == game_id, Vacation.starts_at <= now,
                               Vacation.ends_at > now).order_by(Seat.id)).all()
    return [(seat, aware(ends)) for seat, ends in rows]
