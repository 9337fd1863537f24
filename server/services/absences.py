"""Departed and vanished players (issue 46): no game is left stranded by a player who is gone.

A seat is **absent** when its player left the game (deleted their account: ``reason`` "left",
services/account_deletion.py) or let ``Game.absent_after_missed`` deadlines in a row pass
(default 2; 0 never: "silent", counted by the deadline sweep, services/deadlines.py). Every other
seated player is told at once (an "absence" mail, and on the game page), and any of them may
choose, by the page, the signed links of that mail, a reply to it or the API:

- **claim the win** (two-seat games only): the game ends, the absent seat forfeits and the
  claimant wins. Rated as a win by forfeit, under the ratings' usual rule (services/ratings.py:
  only when both sides had made three decisions of their own: a seat left at once rates
  nobody);
- **end the game unrated**: with two seats at once; with three or four, once every present
  player has asked it (the page says who has);
- **hand the seat to a bot** (the game's strongest level): it plays the seat's decisions from
  its view, as any bot seat does (services/bots.py);
- **invite a replacement**: a one-time code (and, if an address is given, an invitation mail)
  with which another person takes the seat over; until somebody does, the seat plays as before.

With three or four seats (Mr. President) the seat is handed to a bot at once, so the game goes on
at its pace; the others may still end it or invite a replacement. With two seats the absent seat
is played, until somebody chooses, by its deadlines' defaults (services/deadlines.py), as
before: the present player keeps the choice for as long as the absence lasts.

A silent player who gives an order of their own while their seat is absent and nobody has taken
it over is **back** ("returned"): the others are told; a bot that played the seat meanwhile leaves
it. A player whose seat a bot plays may take it back on the game page (``come_back``).

**Ratings** (services/ratings.py, ``_unrated``): a game in which a seat was handed to a bot or to a
replacement, or that was ended unrated, rates nobody; a claimed win is rated as a forfeit.

**When nobody acts**: an active game in which no person has given an order of their own for
the operator's ``WHISTLESTOP_SILENT_GAME_DAYS`` (default 30; 0 never; server/config.py) ends
unrated as abandoned (``sweep``), and every seat is told. Time stops for nobody: a pause or a
vacation does not count as an order (a pause longer than that is the players' agreement to stop).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import engine.core as game_engine
from engine import bots as engine_bots
from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import (AutoOrder, Game, GamePause, Order, OutboxMessage, Seat, SeatAbsence,
                           User, aware, utcnow)
from server.services import live, outbox, ratings, users
from server.services.users import sha256_hex

CHOICES = ("claim", "end", "bot", "replace")
SILENT_GAME_DAYS = 30   # the default of WHISTLESTOP_SILENT_GAME_DAYS
ENDED = ("claimed", "ended", "replaced", "returned", "abandoned")


class AbsenceError(Exception):
    """Why a choice cannot be made now (``message``: words to translate, with ``params``;
    ``status``: the HTTP status it answers; ``allowed``: what the seat may choose instead)."""

    def __init__(self, message: str, status: int = 409, allowed: list[str] | None = None,
                 **params):
        super().__init__(message % params if params else message)
        self.message, self.status, self.params = message, status, params
        self.allowed = allowed or []


@dataclass(frozen=True)
class Choice:
    """What a choice did: ``done`` "claimed" | "ended" | "asked_end" | "bot" | "invited"
    (``code``: the replacement's invitation code, shown once) | "replaced" | "returned"."""
    done: str
    absence_id: int
    code: str | None = None


# --- reading ---------------------------------------------------------------------------------
def open_ones(session: Session, game_id: int) -> list[SeatAbsence]:
    """The game's open absences, in seat order of their finding."""
    return list(session.exec(select(SeatAbsence).where(SeatAbsence.game_id == game_id,
                                                       SeatAbsence.status == "open")
                             .order_by(SeatAbsence.id)).all())


def present(session: Session, game: Game) -> list[str]:
    """The seats held by a person who is not absent (nor a bot's), in seat order."""
    # (pauses.humans without the absent seats; not imported from there: pauses reaches the
    # order service through the clock, which imports this module)
    absent = {a.seat for a in open_ones(session, game.id)}
    return [s for s, u in session.exec(select(Seat.seat, Seat.user_id)
                                       .where(Seat.game_id == game.id).order_by(Seat.id))
            if u is not None and s not in (game.bots or {}) and s not in absent]


def seat_count(session: Session, game_id: int) -> int:
    return session.exec(select(func.count()).select_from(Seat)
                        .where(Seat.game_id == game_id)).one()


def choices_for(session: Session, game: Game, absence: SeatAbsence, seat: str | None) -> list[str]:
    """What ``seat`` may choose about ``absence`` now (empty for anyone else)."""
    if (game.status != "active" or absence.status != "open" or seat is None
            or seat == absence.seat or seat not in present(session, game)):
        return []
    two = seat_count(session, game.id) == 2
    out = []
    if two and absence.bot is None:
        out.append("claim")
    if seat not in (absence.wants_end or []):
        out.append("end")
    if absence.bot is None:
        out.append("bot")
    out.append("replace")
    return out


# --- finding ---------------------------------------------------------------------------------
def _tell(session: Session, absence: SeatAbsence, event: str, by: str | None = None) -> None:
    outbox.write(session, "absence", {"game_id": absence.game_id, "absence_id": absence.id,
                                      "seat": absence.seat, "event": event, "by": by})


def open_absence(session: Session, game: Game, seat: str, reason: str,
                 now: datetime | None = None) -> SeatAbsence | None:
    """Record that ``seat`` is absent (``reason`` "left" | "silent") and tell the others, in the
    caller's transaction (not committed); the open absence there already is, if any. With three
    seats or more the seat goes to a bot at once."""
    now = now or utcnow()
    known = session.exec(select(SeatAbsence).where(SeatAbsence.game_id == game.id,
                                                   SeatAbsence.seat == seat,
                                                   SeatAbsence.status == "open")).first()
    if known is not None:
        if reason == "left" and known.reason != "left":
            known.reason = "left"
            session.add(known)
            _tell(session, known, "left")
        return known
    absence = SeatAbsence(game_id=game.id, seat=seat, reason=reason, step=game.step, since=now,
                          wants_end=[])
    session.add(absence)
    session.flush()
    _tell(session, absence, reason)
    if seat_count(session, game.id) > 2 and seat not in (game.bots or {}):
        _hand_to_bot(session, game, absence, None)
    return absence


def missed(session: Session, game: Game, seat: str, now: datetime | None = None) -> None:
    """The deadline sweep played a default for ``seat``: count it, and find the seat silent
    at the game's limit (in the caller's transaction)."""
    row = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).first()
    if row is None or row.user_id is None or seat in (game.bots or {}):
        return
    row.missed_in_a_row = (row.missed_in_a_row or 0) + 1
    session.add(row)
    limit = game.absent_after_missed or 0
    if limit and row.missed_in_a_row >= limit:
        open_absence(session, game, seat, "silent", now)


def acted(session: Session, game: Game, seat: str) -> None:
    """The seat's player gave an order of their own (in its transaction): the deadlines they
    missed start again from 0, and a silent seat nobody took over is back."""
    session.execute(update(Seat).where(Seat.game_id == game.id, Seat.seat == seat,
                                       Seat.missed_in_a_row > 0)
                    .values(missed_in_a_row=0).execution_options(synchronize_session=False))
    absence = session.exec(select(SeatAbsence).where(
        SeatAbsence.game_id == game.id, SeatAbsence.seat == seat,
        SeatAbsence.status == "open", SeatAbsence.reason == "silent")).first()
    if absence is not None and absence.bot is None:
        _settle(session, absence, "returned", seat)
        _tell(session, absence, "returned", seat)


# --- choosing ----------------------------------------------------------------------------------
def _absence(session: Session, game: Game, absent_seat: str | None,
             absence_id: int | None) -> SeatAbsence:
    query = select(SeatAbsence).where(SeatAbsence.game_id == game.id)
    if absence_id is not None:
        query = query.where(SeatAbsence.id == absence_id)
    elif absent_seat is not None:
        query = query.where(SeatAbsence.seat == absent_seat)
    absence = session.exec(query.order_by(SeatAbsence.id.desc())).first()
    if absence is None or (absence_id is None and absence.status != "open"):
        raise AbsenceError(N_("No seat of this game is waiting for its players' choice."))
    return absence


def _game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise AbsenceError(N_("There is no such game."), 404)
    return game


def choose(session: Session, game_id: int, by: str, choice: str, *, seat: str | None = None,
           absence_id: int | None = None, invite_email: str | None = None,
           now: datetime | None = None, before_commit=None) -> Choice:
    """``by``'s choice about the absent ``seat`` (or the absence ``absence_id``; the only open
    one when neither is given): "claim", "end", "bot" or "replace" (``invite_email``: whom to
    invite, optional). Commits; AbsenceError changes nothing. ``before_commit(session,
    choice)``: the caller's own rows, in the choice's transaction (a reply's answer:
    server/mail/absence_reply.py)."""
    now = now or utcnow()
    try:
        game = _game(session, game_id)
        if game.status != "active":
            raise AbsenceError(N_("The game is over."))
        if seat is None and absence_id is None:
            opened = open_ones(session, game_id)
            if len(opened) > 1:
                raise AbsenceError(N_("Several seats are absent: say which one (%(seats)s)."),
                                   400, seats=", ".join(a.seat for a in opened))
        absence = _absence(session, game, seat, absence_id)
        if absence.status != "open":
            raise AbsenceError(N_("This was settled already: %(how)s."), 410, how=absence.status)
        allowed = choices_for(session, game, absence, by)
        if not allowed:
            raise AbsenceError(N_("Only a present player of this game may choose what happens "
                                  "to an absent seat."), 403)
        if choice not in CHOICES:
            raise AbsenceError(N_("There is no choice '%(choice)s'; you may choose %(choices)s."),
                               400, allowed, choice=choice, choices=", ".join(allowed))
        if choice not in allowed:
            raise AbsenceError(_why_not(choice), 409, allowed)
        done = _apply(session, game, absence, by, choice, invite_email, now)
        if before_commit is not None:
            before_commit(session, done)
        session.commit()
        return done
    except BaseException:
        session.rollback()
        raise


def _why_not(choice: str) -> str:
    return {"claim": N_("The win can be claimed only in a two-player game, while no bot plays "
                        "the absent seat."),
            "end": N_("You have already asked to end the game; the others have not all "
                      "asked it yet."),
            "bot": N_("A bot already plays this seat.")}.get(choice, N_("Not now."))


def _apply(session: Session, game: Game, absence: SeatAbsence, by: str, choice: str,
           invite_email: str | None, now: datetime) -> Choice:
    if choice == "claim":
        _finish(session, game, absence, "claimed", by, winner=by, now=now)
        return Choice("claimed", absence.id)
    if choice == "end":
        absence.wants_end = [*(absence.wants_end or []), by]
        session.add(absence)
        if set(present(session, game)) - set(absence.wants_end):
            _tell(session, absence, "asked_end", by)
            return Choice("asked_end", absence.id)
        _finish(session, game, absence, "ended", by, winner=None, now=now)
        return Choice("ended", absence.id)
    if choice == "bot":
        _hand_to_bot(session, game, absence, by)
        return Choice("bot", absence.id)
    code = secrets.token_urlsafe(12)
    absence.invite_token_hash, absence.invited_by = sha256_hex(code), by
    absence.invite_email = _invited(invite_email)
    session.add(absence)
    outbox.write(session, "absence", {"game_id": game.id, "absence_id": absence.id,
                                      "seat": absence.seat, "event": "invited", "by": by})
    if absence.invite_email:
        outbox.write(session, "absence_invitation", {
            "game_id": game.id, "absence_id": absence.id, "seat": absence.seat,
            "email": absence.invite_email, "code": code, "by": by})
    return Choice("invited", absence.id, code)


def _invited(typed: str | None) -> str | None:
    """The replacement's address as typed on any channel, checked once here: none, or an
    address mail can reach; AbsenceError (422) otherwise."""
    typed = (typed or "").strip()
    if not typed:
        return None
    if not users.is_address(typed):
        raise AbsenceError(N_("“%(email)s” is not a mail address: leave the field empty to pass "
                              "the link on yourself."), 422, email=typed)
    try:
        return users.check_address(typed)
    except users.AddressRefused as refused:
        raise AbsenceError(N_("No mail can reach %(email)s: “.%(domain)s” is a reserved domain. "
                              "Invite an address somebody reads, or leave the field empty to "
                              "pass the link on yourself."), 422, email=typed,
                           domain=refused.domain) from None


def _hand_to_bot(session: Session, game: Game, absence: SeatAbsence, by: str | None) -> None:
    level = engine_bots.levels(game.game_type)[-1]     # the strongest the game has
    game.bots = {**(game.bots or {}), absence.seat: level}
    session.add(game)
    absence.bot, absence.bot_by = level, by
    session.add(absence)
    session.flush()
    _tell(session, absence, "bot", by)
    _ask_the_bot(session, game, absence.seat)


def _ask_the_bot(session: Session, game: Game, seat: str) -> None:
    """The seat's decision now, if any, asked of its bot (services/bots.py)."""
    if game.status == "active" and game.state and seat in game_engine.from_dict(
            game.state).active():
        outbox.write(session, "bot_move", {"game_id": game.id, "seat": seat,
                                           "step": game.step,
                                           "delay": game.bot_delay_seconds})


def _settle(session: Session, absence: SeatAbsence, status: str, by: str | None,
            now: datetime | None = None) -> None:
    absence.status, absence.settled_by, absence.settled_at = status, by, now or utcnow()
    session.add(absence)


def _finish(session: Session, game: Game, absence: SeatAbsence, how: str, by: str | None, *,
            winner: str | None, now: datetime) -> None:
    """End the game for an absence (claimed: ``winner`` wins, the absent seat forfeits; ended
    or abandoned: nobody wins, unrated)."""
    state = game_engine.from_dict(game.state)
    gone = "left" if absence.reason == "left" else "silent"
    if how == "claimed" and gone == "left":
        reason = state.msg("{seat} left the game; {seat_winner} claimed the win.",
                           seat=absence.seat, seat_winner=winner)
    elif how == "claimed":
        reason = state.msg("{seat} stopped answering; {seat_winner} claimed the win.",
                           seat=absence.seat, seat_winner=winner)
    elif gone == "left":
        reason = state.msg("The game was ended unrated: {seat} left it.", seat=absence.seat)
    else:
        reason = state.msg("The game was ended unrated: {seat} stopped answering.",
                           seat=absence.seat)
    if how == "claimed":
        result = {"winner": winner, "termination": game_engine.Termination.FORFEITED.value,
                  "forfeited": absence.seat}
    else:
        result = {"winner": None, "termination": game_engine.Termination.ABANDONED.value}
    result.update(reason=str(reason), reason_message=reason.data(), scores={},
                  rated=how == "claimed")
    _end_game(session, game, result, now)
    _settle(session, absence, how, by, now)
    _tell(session, absence, how, by)
    if how == "claimed":
        ratings.write_request(session, game.id)


def _end_game(session: Session, game: Game, result: dict, now: datetime) -> None:
    live.changed(session, game.id, game.step + 1, "finished")
    done = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                              Game.status == "active")
                           .values(step=game.step + 1, status="finished", result=result,
                                   finished_at=now, updated_at=now, deadline_at=None,
                                   alarm_at=None).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        raise AbsenceError(N_("The game changed meanwhile; try again."))
    session.execute(update(Order).where(Order.game_id == game.id, Order.status == "pending")
                    .values(status="superseded").execution_options(synchronize_session=False))
    session.add(OutboxMessage(kind="game_over", payload={"game_id": game.id}))
    for absence in open_ones(session, game.id):
        _settle(session, absence, "abandoned" if result.get("winner") is None else "claimed",
                None, now)
    session.expire(game)


# --- a replacement takes the seat ----------------------------------------------------------------
def take_seat(session: Session, game_id: int, code: str, user: User,
              now: datetime | None = None) -> str:
    """``user`` takes over the absent seat the invitation ``code`` is for; return the seat.
    Commits; AbsenceError changes nothing."""
    now = now or utcnow()
    try:
        game = _game(session, game_id)
        digest = sha256_hex(code or "")
        absence = session.exec(select(SeatAbsence).where(
            SeatAbsence.game_id == game_id,
            SeatAbsence.invite_token_hash == digest)).first()
        if absence is None:
            raise AbsenceError(N_("This invitation code is not one of this game's: ask the "
                                  "player who invited you for the whole link."), 404)
        if game.status != "active" or absence.status != "open":
            raise AbsenceError(N_("This seat has been settled meanwhile: the invitation is no "
                                  "longer good."), 410)
        if session.exec(select(Seat.id).where(Seat.game_id == game_id,
                                              Seat.user_id == user.id)).first() is not None:
            raise AbsenceError(N_("You already play a seat of this game."))
        session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == absence.seat)
                        .values(user_id=user.id, joined_at=now, missed_in_a_row=0,
                                reached_step=None, reached_at=None, reached_by=None,
                                waited_step=None, notes_mailed=0)
                        .execution_options(synchronize_session=False))
        _release_bot(session, game, absence.seat)
        _settle(session, absence, "replaced", None, now)
        _tell(session, absence, "replaced")
        session.commit()
        return absence.seat
    except BaseException:
        session.rollback()
        raise


def _release_bot(session: Session, game: Game, seat: str) -> None:
    """The seat's bot leaves it; the seat's player is asked its decision now, if any."""
    had_bot = seat in (game.bots or {})
    if had_bot:
        game.bots = {s: v for s, v in game.bots.items() if s != seat}
        session.add(game)
        session.flush()
    if game.state and seat in game_engine.from_dict(game.state).active():
        outbox.write(session, "your_decision", {"game_id": game.id, "seat": seat,
                                                "step": game.step})


def come_back(session: Session, game_id: int, user: User, now: datetime | None = None) -> str:
    """The player of a seat a bot plays since they went silent takes it back; return the seat.
    Commits; AbsenceError changes nothing."""
    now = now or utcnow()
    try:
        game = _game(session, game_id)
        seat = session.exec(select(Seat.seat).where(Seat.game_id == game_id,
                                                    Seat.user_id == user.id)).first()
        absence = session.exec(select(SeatAbsence).where(
            SeatAbsence.game_id == game_id, SeatAbsence.seat == seat,
            SeatAbsence.status == "open")).first() if seat else None
        if game.status != "active" or absence is None:
            raise AbsenceError(N_("Your seat is yours: there is nothing to take back."))
        session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == seat)
                        .values(missed_in_a_row=0).execution_options(synchronize_session=False))
        _release_bot(session, game, seat)
        _settle(session, absence, "returned", seat, now)
        _tell(session, absence, "returned", seat)
        session.commit()
        return seat
    except BaseException:
        session.rollback()
        raise


# --- a player leaves; nobody acts ------------------------------------------------------------
def left(session: Session, game_id: int, seat: str, now: datetime | None = None) -> None:
    """``seat``'s player deleted their account (in the deletion's transaction)."""
    game = session.get(Game, game_id)
    if game is not None and game.status == "active":
        open_absence(session, game, seat, "left", now)


def last_own_order(session: Session, game: Game):
    """When a person last gave an order of their own in the game (not a bot's, nor a default
    filed for them at a deadline); the game's start if nobody has."""
    people = [s for s, u in session.exec(select(Seat.seat, Seat.user_id)
                                         .where(Seat.game_id == game.id))
              if u is not None and s not in (game.bots or {})]
    given = select(AutoOrder.id).where(AutoOrder.game_id == Order.game_id,
                                       AutoOrder.seat == Order.seat,
                                       AutoOrder.step == Order.step,
                                       AutoOrder.source.in_(ratings.NOT_OWN))
    last = session.exec(select(func.max(Order.updated_at)).where(
        Order.game_id == game.id, Order.seat.in_(people), ~given.exists())).one() \
        if people else None
    return last or game.created_at


def sweep(engine: Engine, now: datetime, days: int = SILENT_GAME_DAYS) -> list[int]:
    """End, unrated as abandoned, the active games nobody has played for the operator's
    longest life of a silent game (a game paused by its players' agreement excepted); return
    their ids. Idempotent: each game is ended on its step (compare-and-set). Every active game
    older than the limit is looked at, each by one query (an hourly sweep: a bot's orders keep
    no game alive, so no single statement over the orders can say which games are silent)."""
    if not days:
        return []
    cutoff = now - timedelta(days=days)
    ended = []
    with Session(engine) as session:
        paused = select(GamePause.game_id).where(GamePause.status == "paused")
        candidates = session.exec(select(Game.id).where(
            Game.status == "active", Game.created_at <= cutoff, Game.id.not_in(paused))
            .order_by(Game.id)).all()
        for game_id in candidates:
            game = session.get(Game, game_id)
            if aware(last_own_order(session, game)) > cutoff:
                continue
            try:
                abandon(session, game, now, days)
                session.commit()
                ended.append(game_id)
            except AbsenceError:
                session.rollback()
    return ended


def abandon(session: Session, game: Game, now: datetime, days: int) -> None:
    """End the game unrated as abandoned: nobody played it for the longest life of a silent
    game (in the caller's transaction)."""
    state = game_engine.from_dict(game.state)
    reason = state.msg("The game was ended unrated: nobody had played for {days} days.",
                       days=days)
    _end_game(session, game, {"winner": None, "reason": str(reason),
                              "reason_message": reason.data(), "scores": {}, "rated": False,
                              "termination": game_engine.Termination.ABANDONED.value}, now)
    outbox.write(session, "absence", {"game_id": game.id, "absence_id": None, "seat": None,
                                      "event": "abandoned", "by": None})
