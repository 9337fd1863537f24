"""Taking a move back until the next seat has seen it (issue 27, item 3).

A sequential order the engine calls retractable (engine.core.may_retract: its own log segment
drew nothing, ran no other seat's choice a person made (the other seat's forced choices and
standing orders' answers are undone with it and made again after, issue 46), showed its
mover nothing hidden, and handed the decision to one other seat) is recorded with its hold (services/holds.py): the next seat's
mails and webhooks wait in the outbox until then (``not_before``). Within the hold, while the
game is still at the step the move led to and the next seat has not seen it (no page view,
no mail or webhook taken: services/reach.py), its mover may take it back:

- the log keeps the move: its entries are marked taken back and one more entry records the
  retraction (``LogEntry.retraction``); every replay skips both (games.log_of), and the state
  is rebuilt from the log in play, so ``games.rebuild`` still holds;
- the game moves to a new step (stale links and tokens of the taken-back step die) and the
  mover is asked again (the answer carries the decision, as an order's does);
- the outbox rows held for the move are deleted in the same transaction: never sent.

After the hold, once seen, or once the game moved on, the move is final. A sealed order is
never taken back: its step resolved with every seat's order.

A take back and a "seen" (``show``: the API's show-move, the game page's POST) each hold the
game's row lock (``locked_game``) while they read and write, on PostgreSQL as on SQLite (whose
writers all hold the database's lock): one of them happens wholly before the other, so the next
player is never shown a move that is then taken back (issue 45, M3). The game row rather than
a compare-and-set on the hold's row: every other writer of the game (orders, deadlines, the
take back itself) takes that lock already, and "seen" stays one fact (``Seat.reached_step``)
whichever channel told it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

import engine.core as engine
from sqlalchemy import delete, update
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import (AutoOrder, Extension, Game, LogEntry, Order, OutboxMessage, Retractable, Seat,
                           aware, utcnow)
from server.services import game_history, games, holds, reach


class RetractRefused(Exception):
    """A retraction refused, nothing changed. ``code``: not_yours, nothing, sealed, chance,
    hidden, other_seat, not_handed_over, no_hold, deadline, bot_next, seen, hold_over,
    moved_on, game_over; ``reason``
    its English text (``template`` % ``values``; the pages translate the template)."""

    def __init__(self, code: str, template: str, **values):
        self.code, self.template, self.values = code, template, values
        self.reason = template % values if values else template
        super().__init__(self.reason)


REASONS = {
    "nothing": N_("There is no move of yours to take back: only your last move can be taken "
                  "back, while the game is still at the step it led to."),
    "sealed": N_("A sealed order is never taken back once its step has resolved."),
    "chance": N_("This move cannot be taken back: a draw happened during it."),
    "hidden": N_("This move cannot be taken back: it showed you something hidden (a card, a "
                 "hand or the deck)."),
    "other_seat": N_("This move cannot be taken back: another player's choice was made "
                     "during it."),
    "not_handed_over": N_("This move cannot be taken back: only a move that passes the "
                          "decision to the next player can be."),
    "no_hold": N_("This move cannot be taken back: your moves are not held (your settings "
                  "say 0 seconds)."),
    "deadline": N_("This move cannot be taken back: it was played for you when your deadline "
                   "passed."),
    "bot_next": N_("This move cannot be taken back: the next seat is a bot's, and a bot is "
                   "not kept waiting."),
    "seen": N_("This move is final: the next player has already seen it."),
    "hold_over": N_("This move is final: the time to take it back is over."),
    "moved_on": N_("This move is final: the game has moved on."),
    "game_over": N_("The game is over."),
}


def refused(code: str) -> RetractRefused:
    return RetractRefused(code, REASONS[code])


@dataclass
class Retracted:
    step: int  # the game's new step: the mover's decision again
    state: object  # the engine state rebuilt from the log in play
    actions: list[str] = field(default_factory=list)  # the order taken back, as it was given


def pending(session: Session, game, seat: str, now: datetime | None = None) -> datetime | None:
    """Until when ``seat`` may take its last move back (the hold's end), or None; cheap: one
    read by the game's step (the page shows a "Take back" button with the time left)."""
    row = open_hold(session, game, now)
    return aware(row.until) if row is not None and row.seat == seat else None


def held_for(session: Session, game, seat: str, now: datetime | None = None) -> datetime | None:
    """Until when the move that handed ``seat`` its decision may still be taken back (held,
    unseen), or None: what is told to ``seat`` (a digest) describes only final moves."""
    row = open_hold(session, game, now)
    return aware(row.until) if row is not None and row.next_seat == seat else None


def holds_on(session: Session, user_id: int, now: datetime | None = None) -> datetime | None:
    """When the last of the holds on the user's decisions ends (moves handed to one of their
    seats that may still be taken back), or None: a digest written now waits until then."""
    now = now or utcnow()
    rows = session.exec(select(Retractable, Game).join(Game, Game.id == Retractable.game_id)
                        .join(Seat, (Seat.game_id == Game.id)
                              & (Seat.seat == Retractable.next_seat))
                        .where(Seat.user_id == user_id, Game.status == "active",
                               Game.step == Retractable.step + 1,
                               Retractable.retracted_at.is_(None))).all()
    ends = [aware(row.until) for row, game in rows
            if aware(row.until) > now and not _seen(session, game, row)]
    return max(ends, default=None)


def open_hold(session: Session, game, now: datetime | None = None) -> Retractable | None:
    """The hold on the game's last move while it may still be taken back (not taken back,
    not over, not seen), or None."""
    if game.status != "active" or not game.step:
        return None
    row = session.exec(select(Retractable).where(Retractable.game_id == game.id,
                                                 Retractable.step == game.step - 1)).first()
    if row is None or row.retracted_at is not None:
        return None
    if aware(row.until) <= (now or utcnow()):
        return None
    if _seen(session, game, row):
        return None
    return row


def _seen(session: Session, game, row: Retractable) -> bool:
    """Whether the next seat has seen the move: a channel reached its player at the step the
    move led to (a page view's POST, or a held mail or webhook that went out after all).
    Read afresh (a column, not a Seat the session may hold from before the game's lock)."""
    reached = session.exec(select(Seat.reached_step).where(Seat.game_id == game.id,
                                                           Seat.seat == row.next_seat)).first()
    if reached is not None and reached >= game.step:
        return True
    if row.held:
        sent = session.exec(select(OutboxMessage.id).where(
            OutboxMessage.id.in_(list(row.held)),
            (OutboxMessage.published_at.is_not(None))
            | (OutboxMessage.delivered_at.is_not(None)))).first()
        return sent is not None
    return False


def retract(session: Session, game_id: int, seat: str, step: int,
            now: datetime | None = None,
            before_commit: Callable[[Session, Retracted], None] | None = None) -> Retracted:
    """Take back ``seat``'s last move, the game being at ``step`` (the step it led to), or
    raise RetractRefused (why) or games.StaleStep; commits. ``before_commit(session,
    retracted)`` runs in the retraction's transaction just before it commits (a reply's
    answer is written there)."""
    try:
        return _retract(session, game_id, seat, step, now or utcnow(), before_commit)
    except BaseException:
        session.rollback()
        raise


def _why_not(session: Session, game, seat: str) -> RetractRefused:
    """Why the game's last move is not one ``seat`` may take back (no Retractable row)."""
    orders = session.exec(select(Order).where(Order.game_id == game.id,
                                              Order.step == game.step - 1)).all()
    if len(orders) > 1:
        return refused("sealed")
    if not orders or orders[0].seat != seat or orders[0].status != "applied":
        return refused("nothing")
    # The move's own segment: the log in play after the order's first action (replayed rows).
    log = game_history.log_in_play(session, game.id)
    first = orders[0].actions[0] if orders[0].actions else None
    start = max((i for i, e in enumerate(log) if e == [seat, first]), default=None)
    if start is None:
        return refused("nothing")
    segment = log[start:]
    state = games._load(game)
    code = engine.why_final(state, seat, segment,
                            _automatic(session, game, log[:start], segment))
    if code is None and session.exec(select(AutoOrder.id).where(
            AutoOrder.game_id == game.id, AutoOrder.seat == seat,
            AutoOrder.step == game.step - 1)).first() is not None:
        code = "deadline"    # the deadline sweep played it (issue 46: say so, not "0 seconds")
    if code is None and state.active() and state.active()[0] in (game.bots or {}):
        code = "bot_next"
    return refused(code or "no_hold")


def _automatic(session: Session, game, before: list, segment: list) -> list[int]:
    """The positions in ``segment`` (the move's log, after ``before``) of the other seats'
    entries nobody chose: a forced single choice, or the answer its standing order gave (the
    AutoOrder the move's transaction recorded, games._advance)."""
    given = {(seat, actions[0]) for seat, actions in session.exec(
        select(AutoOrder.seat, AutoOrder.actions).where(
            AutoOrder.game_id == game.id, AutoOrder.step == game.step - 1,
            AutoOrder.source == "standing")) if actions}
    state = engine.replay(game.game_type, game.seed, before, options=game.options)
    out = []
    for i, (who, text) in enumerate(segment):
        if who != engine.CHANCE and ((who, text) in given or
                                     (who in state.active()
                                      and len(state.legal_actions(who)) == 1)):
            out.append(i)
        state.apply(who, text)
    return out


def locked_game(session: Session, game_id: int) -> Game | None:
    """The game read afresh under its row's lock (SELECT ... FOR UPDATE on PostgreSQL; on
    SQLite every writer holds the database's write lock from its BEGIN), or None: what a take
    back and a "seen" both hold, so that one of them happens wholly before the other."""
    return session.exec(select(Game).where(Game.id == game_id).with_for_update()
                        .execution_options(populate_existing=True)).first()


def show(session: Session, game_id: int, seat: str, by: str, at: datetime,
         step: int | None = None) -> bool:
    """Record, in the caller's transaction, that ``seat``'s player was shown the game at
    ``step`` (default: the game's step now; a page's step is the one it showed): a held move
    seen so is final. Under the game's row lock (``locked_game``), as a take back is: a show
    that comes first makes the take back refuse ("seen"); one that comes after finds the game
    at the new step, the move gone. No commit. Whether it recorded anything."""
    game = locked_game(session, game_id)
    if game is None or game.status != "active":
        return False
    step = game.step if step is None else step
    if not 0 <= step <= game.step:
        return False
    reach.record(session.connection(), game.id, seat, step, by, at)
    return True


def _as_it_was(row: Retractable) -> dict | None:
    """The deadline columns of the mover's decision before the move (holds.clock_of), given
    back by the take back, so that taking back never buys time (issue 45, M1): the deadline
    stays where it was, the reminders sent stay sent, one due meanwhile is sent at once, a
    deadline passed meanwhile is applied at once. None for a hold recorded before they were
    kept (a fresh period, as then)."""
    if row.before_reminders_sent is None:
        return None
    return {name: getattr(row, f"before_{name}") for name in holds.CLOCK}


def _carry_extension_ask(session: Session, game_id: int, seat: str, old_step: int,
                         new_step: int) -> None:
    """The mover's ask for more time, unanswered when they moved, waits again for the
    decision given back (services/extensions.py keys an ask by its step); one answered or
    expired meanwhile stays so."""
    session.execute(update(Extension).where(Extension.game_id == game_id,
                                            Extension.seat == seat,
                                            Extension.step == old_step,
                                            Extension.status == "asked")
                    .values(step=new_step).execution_options(synchronize_session=False))


def _retract(session: Session, game_id: int, seat: str, step: int, now: datetime,
             before_commit=None) -> Retracted:
    game = locked_game(session, game_id)
    if game is None:
        raise games.GameNotFound(game_id)
    if game.status != "active":
        raise refused("game_over" if game.status == "finished" else "nothing")
    if step != game.step:
        raise games.StaleStep(game.step, games._prompt(game, seat))
    row = session.exec(select(Retractable).where(Retractable.game_id == game.id,
                                                 Retractable.step == game.step - 1)
                       .execution_options(populate_existing=True)).first()
    if row is None or row.retracted_at is not None:
        raise _why_not(session, game, seat)
    if row.seat != seat:
        raise refused("nothing")
    if aware(row.until) <= now:
        raise refused("hold_over")
    if _seen(session, game, row):
        raise refused("seen")
    offset = game.log_offset or 0
    in_play = game_history.log_in_play(session, game.id)
    kept, taken = in_play[:row.log_from], in_play[row.log_from:]
    # The log keeps the move, marked taken back, and one entry more records the retraction.
    session.execute(update(LogEntry).where(LogEntry.game_id == game.id,
                                           LogEntry.seq >= offset + row.log_from,
                                           LogEntry.retraction.is_(None))
                    .values(retraction="retracted"))
    session.add(LogEntry(game_id=game.id, seq=offset + len(in_play), seat=seat,
                         action=f"retract {row.step}", retraction="retraction"))
    state = engine.replay(game.game_type, game.seed, kept, options=game.options)
    # The decision as it was before the move: its deadline, alarm, reminders and clock.
    new_step = games._compare_and_set(session, game, game.step, state, now,
                                      deadline=_as_it_was(row))
    _carry_extension_ask(session, game.id, seat, row.step, new_step)
    session.execute(update(Game).where(Game.id == game.id)
                    .values(log_offset=offset + len(taken) + 1))
    # The next seat's mails and webhooks, held for the move: withdrawn, never sent.
    if row.held:
        session.execute(delete(OutboxMessage).where(OutboxMessage.id.in_(list(row.held)),
                                                    OutboxMessage.published_at.is_(None),
                                                    OutboxMessage.delivered_at.is_(None)))
    # The standing orders' answers given within the move are undone with it: made again
    # (and told then) when the game reaches their question again (issue 46).
    session.execute(delete(AutoOrder).where(AutoOrder.game_id == game.id,
                                            AutoOrder.step == row.step,
                                            AutoOrder.source == "standing",
                                            AutoOrder.mailed_at.is_(None)))
    order = session.exec(select(Order.actions).where(Order.game_id == game.id,
                                                     Order.step == row.step,
                                                     Order.seat == seat)).first()
    session.execute(update(Order).where(Order.game_id == game.id, Order.step == row.step,
                                        Order.seat == seat)
                    .values(status="retracted", updated_at=now))
    row.retracted_at = now
    session.add(row)
    # The mover acted: reached at the decision the retraction gives back to them.
    reach.record(session.connection(), game.id, seat, new_step, "order", now)
    retracted = Retracted(step=new_step, state=state, actions=list(order or []))
    if before_commit is not None:
        before_commit(session, retracted)
    session.commit()
    return retracted
