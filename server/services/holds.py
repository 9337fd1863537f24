"""The hold of a retractable move (issue 27, item 3): at order time, whether the order may be
taken back (the engine judges its own log segment: engine.core.may_retract) and for how long
(the mover's ``retract_hold_seconds``), and the record of it that a retraction reads
(services/retract.py). Cheap by design, as it runs on the order path
(bench/order_throughput.py): no query unless the engine says the move is retractable."""

from __future__ import annotations

from datetime import datetime, timedelta

import engine.core as engine
from engine.core import IllegalAction
from engine.core.messages import plain
from sqlalchemy import bindparam
from sqlmodel import Session, select

from server import db
from server.models import OutboxMessage, Retractable, Seat, User, aware, utcnow
from server.raw_sql import Raw

# The longest hold a player may choose (seconds): a move held longer keeps the other seat
# waiting for no reason.
MAX_HOLD_SECONDS = 900


def until(session: Session, game, state, seat: str, log_from: int,
          now: datetime, automatic: list[int] = ()) -> datetime | None:
    """When the hold of ``seat``'s order ends (the order appended the engine's log from
    ``log_from`` to reach ``state``), or None: not retractable, or the mover holds nothing.
    ``automatic``: the positions in that segment of the entries nobody chose (the other
    seat's forced choices and standing orders' answers, made again after a take back)."""
    if not engine.may_retract(state, seat, state.log_since(log_from), automatic):
        return None
    if state.active()[0] in (game.bots or {}):
        return None  # a bot is not kept waiting: against a bot, a move is final at once
    found = _HOLD_OF_SEAT.rows(db.connection(session), {"game_id": game.id, "seat": seat})
    seconds = found[0][0] if found else None
    if not seconds or seconds <= 0:
        return None
    return now + timedelta(seconds=min(seconds, MAX_HOLD_SECONDS))


# A decision's deadline columns of Game (games.deadline_values): what a take back gives back.
CLOCK = ("deadline_at", "alarm_at", "reminders_sent", "clock_started_at", "clock_stopped_at")


def clock_of(game) -> dict:
    """The deadline, next alarm, reminders sent and clock of the game's decision now, as a
    hold's row keeps them (``before_*``): read before the order gives the next seat its own."""
    return {f"before_{name}": getattr(game, name) for name in CLOCK}


def remember(session: Session, game_id: int, step: int, seat: str, next_seat: str,
             log_from: int, hold_until: datetime, held: list[int],
             before: dict | None = None) -> None:
    """Record, in the order's transaction, that its move may be taken back until
    ``hold_until``, the outbox rows held for it, and ``before`` (``clock_of`` the game before
    the move): a take back gives the mover's decision back as it was (issue 45, M1)."""
    _RETRACTABLE_INSERT.execute(db.connection(session), {
        "game_id": game_id, "step": step, "seat": seat, "next_seat": next_seat,
        "log_from": log_from, "until": hold_until, "held": list(held), **(before or {})})


def refuse_if_held(session: Session, game, seat: str, now: datetime | None = None) -> None:
    """Raise games.HeldMove when a move of another seat than ``seat`` may still be taken back
    (held, not taken back, not over, not seen: the facts services/retract.py reads): the
    order service refuses every order of the other seats meanwhile (issue 45, M6). One read
    by the game's step when no move is held."""
    if game is None or game.status != "active" or not game.step:
        return
    found = _HOLD_AT.rows(db.connection(session), {"game_id": game.id, "step": game.step - 1})
    if not found:
        return
    mover, hold_until, next_seat, held = found[0]
    if mover == seat or aware(hold_until) <= (now or utcnow()):
        return
    if _seen(session, game, next_seat, held):
        return
    raise HeldMove(mover, aware(hold_until))


def _seen(session: Session, game, next_seat: str, held: list[int]) -> bool:
    """Whether the next seat has seen the held move (retract.py's "seen"): a channel reached
    its player at the step the move led to, or a mail or webhook held for it went out."""
    reached = session.exec(select(Seat.reached_step).where(Seat.game_id == game.id,
                                                           Seat.seat == next_seat)).first()
    if reached is not None and reached >= game.step:
        return True
    return bool(held) and session.exec(select(OutboxMessage.id).where(
        OutboxMessage.id.in_(list(held)),
        (OutboxMessage.published_at.is_not(None))
        | (OutboxMessage.delivered_at.is_not(None)))).first() is not None


class HeldMove(IllegalAction):
    """An order of a seat other than the mover of a move that may still be taken back:
    refused whatever it says, before its step or its actions are read. ``code`` "held_move";
    ``seat``: the mover's seat; ``until``: when the move is final (its English ``reason``
    says it in UTC; a channel tells it in its reader's zone: ``held_move_reason``)."""

    code = "held_move"

    def __init__(self, seat: str, until: datetime):
        self.seat, self.until = seat, until
        super().__init__(held_move_reason(seat, until.strftime("%Y-%m-%d %H:%M UTC")))


# Why another seat's order is refused while a move may still be taken back (issue 45, M6):
# in words that do not depend on what the move hid (no step, no legal action), with the
# moment the hold ends (``when``: a time, written in the reader's zone by whoever tells it).
HELD_MOVE = plain("Nothing was changed: {seat}'s last move may still be taken back, until "
                  "{when}; you will be told when it is final.").template


def held_move_reason(seat: str, when: str):
    """The refusal of ``HeldMove`` with its end written as ``when``."""
    return plain(HELD_MOVE, seat=seat, when=when)


# Built once and run on the driver's cursor (server/raw_sql.py), as the order path's other
# statements: through the ORM, the read and the insert cost a held order a sixth more.
_HOLD_OF_SEAT = Raw(select(User.retract_hold_seconds)
                    .join(Seat, Seat.user_id == User.id)
                    .where(Seat.game_id == bindparam("game_id"), Seat.seat == bindparam("seat")))
_RETRACTABLE_INSERT = Raw(Retractable.__table__.insert())
_HOLD_AT = Raw(select(Retractable.seat, Retractable.until, Retractable.next_seat,
                      Retractable.held)
               .where(Retractable.game_id == bindparam("game_id"),
                      Retractable.step == bindparam("step"),
                      Retractable.retracted_at.is_(None)))
