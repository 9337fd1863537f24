"""Whether a channel has reached a seat's player since their decision opened (issue 25, item 5:
unsubscribing never loses a game). A seat whose player nothing has reached is neither defaulted
nor forfeited when its deadline passes: the deadline waits (services/deadlines.py).

What reaches a player, recorded as it happens (``record``):
- a mail asking them about a decision (or a digest listing it), once the SMTP server has taken
  it (server/mail/delivery.py);
- a webhook post about it that the webhook answered 2xx (server/mail/webhook_queue.py);
- a view of the game page, told by a small POST from the page (``POST /games/<id>/seen``, with
  the page's CSRF token: a GET never writes; server/web/board.py);
- an order of theirs, by any channel (services/games.submit_order): it counts for the decision
  it leads to, when that decision is theirs too (a reach at a step where the seat decides
  nothing is never read, so it is not written).

It is kept per step, not per moment: ``Seat.reached_step`` is the latest step of the game a
channel reached the player at, ``reached_at`` when it first did at that step. Each step is one
decision with its own deadline (games.deadline_values), so "reached since the decision opened"
is ``reached_step >= game.step``: no clocks compared, and a mail of a step that has just
moved on never counts for the next one. A bot's seat, and a seat nobody holds, is always
reached: there is no player to wait for.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable

from sqlalchemy import bindparam, or_
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

from server.models import Game, Seat, aware
from server.raw_sql import Raw

# After a deadline waited, the player has the game's time for a decision from their first
# reach, at most this many hours, and never less than the deadline as it was set.
GRACE_HOURS = 24
# How often the sweeper looks again at a deadline that waits (a reach brings it sooner:
# ``record``).
RECHECK = timedelta(hours=1)
CHANNELS = ("mail", "webhook", "page", "order", "api")  # api: a held move shown by API

_SEATS, _GAMES = Seat.__table__, Game.__table__
# Built once and run on the driver's cursor (server/raw_sql.py): every order runs it. Only a
# later step moves it: the first reach at a step keeps its moment.
_RECORD = Raw(_SEATS.update().where(
    _SEATS.c.game_id == bindparam("match_game"), _SEATS.c.seat == bindparam("match_seat"),
    or_(_SEATS.c.reached_step.is_(None), _SEATS.c.reached_step < bindparam("match_step"))))
# A reach after the deadline passed (the deadline waits): the sweeper looks at the game now.
_SOONER = Raw(_GAMES.update().where(
    _GAMES.c.id == bindparam("match_game"), _GAMES.c.step == bindparam("match_step"),
    _GAMES.c.status == "active", _GAMES.c.deadline_at <= bindparam("match_passed"),
    _GAMES.c.alarm_at > bindparam("match_later")))


def record(connection: Connection, game_id: int, seat: str, step: int, by: str,
           at: datetime) -> bool:
    """Record, in the caller's transaction, that channel ``by`` reached the player of ``seat``
    at ``step``; True when it is the first reach at that step."""
    first = _RECORD.execute(connection, {
        "match_game": game_id, "match_seat": seat, "match_step": step,
        "reached_step": step, "reached_at": at, "reached_by": by}).rowcount == 1
    if first and by != "order":  # an order moves the game on, to a fresh deadline
        _SOONER.execute(connection, {"match_game": game_id, "match_step": step,
                                     "match_passed": at, "match_later": at, "alarm_at": at})
    return first


def reached(game: Game, seat: Seat | None) -> bool:
    """Whether a channel has reached the player of ``seat`` since the game's current decision
    opened (always, for a bot's seat or one nobody holds)."""
    if seat is None or seat.user_id is None or seat.seat in (game.bots or {}):
        return True
    return seat.reached_step is not None and seat.reached_step >= game.step


def seats(session: Session, game_id: int, names: Iterable[str]) -> dict[str, Seat]:
    """The game's Seat rows of ``names``, by name."""
    names = list(names)
    if not names:
        return {}
    return {s.seat: s for s in session.exec(select(Seat).where(
        Seat.game_id == game_id, Seat.seat.in_(names))).all()}


def waiting(session: Session, game: Game) -> list[str]:
    """The seats the current decision's deadline waits for: passed unreached, still not
    reached (the other seats were told)."""
    if game.status != "active":
        return []
    rows = session.exec(select(Seat).where(Seat.game_id == game.id,
                                           Seat.waited_step == game.step)
                        .order_by(Seat.id)).all()
    return [s.seat for s in rows if not reached(game, s)]


def grace(game: Game) -> timedelta:
    """How long a player has from their first reach after a deadline waited for them: the
    game's time for a decision, at most GRACE_HOURS."""
    hours = game.decision_hours or GRACE_HOURS
    return timedelta(hours=min(hours, GRACE_HOURS))


def after_wait(game: Game, waited: Iterable[Seat]) -> datetime | None:
    """The deadline once every seat it waited for is reached: ``grace`` after the last of their
    first reaches at this step (None when it waited for none)."""
    moments = [aware(s.reached_at) for s in waited if s.reached_at is not None]
    return max(moments) + grace(game) if moments else None
