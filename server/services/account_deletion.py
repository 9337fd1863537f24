"""Deleting an account at its owner's request, confirmed by typing its address again.

Refused (``AccountInUse``, listing them) while the account holds seats in unfinished games,
unless its owner asks explicitly to hand them over (``hand_over``). Then each seat of a game in
play is released (nobody holds it) and found absent (issue 46, services/absences.py): every
other player is told and may claim the win (two seats), end the game unrated, hand the seat to
a bot or invite a replacement; with three or four seats a bot takes it at once. Until they
choose, a seat nobody holds is always "reached" (server/services/reach.py), so at each of its
deadlines the deadline sweep plays its filed default order, else the safe default, or forfeits
it when the game was created so (server/services/deadlines.py). A seat of an open game is
freed for somebody else. An open game the account created (only its creator
invites and starts it) passes to the player who joined it first, who then invites to the freed
seat and starts it (the game's page says so: no mail tells of such news); one nobody else has
joined is withdrawn (``lobby.withdraw``): nobody could ever start it.

Erased, in one transaction: the address (replaced by ``deleted-<id>@deleted.invalid``, which
no mail reaches and nobody can claim first: every place an address is taken refuses the reserved
domains, users.check_address; an address taken before that rule, or by the operator's hand, gets
``deleted-<id>-<random>@deleted.invalid`` instead, never a failure), the display name, language and time zone, the address's proof, API tokens,
webhooks (and their queued posts), notes, the calendar feed's key, followed games, idempotency
records, digests, every browser session and every sign-in link mailed before (the session
epoch moves on: both carry it), and the address where other rows keep it (sent mails' address
and recipient, invitations, the payloads of the outbox's rows, sent or not). Kept: the User row's id, nameless, so
that other players' games keep their seats, orders and logs, shown as "a deleted player"
(display_names.shown); the AccountDeletion row (when, and which seats were handed over).
Other services erase their own data by ``register_eraser`` (the chat's messages, say)."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any, Callable

from sqlalchemy import Text, cast, delete, func, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import (AccountDeletion, ApiToken, CalendarFeed, Digest, Game,
                           IdempotencyKey, MailSent, OutboxMessage, Seat, SeatNote, Spectator,
                           User, Webhook, WebhookSent, utcnow)
from server.services import absences, lobby, users

DELETED_DOMAIN = "deleted.invalid"

Eraser = Callable[[Session, User], None]
ERASERS: list[Eraser] = []


def register_eraser(erase: Eraser) -> Eraser:
    """Also run ``erase(session, user)`` in every deletion's transaction."""
    ERASERS.append(erase)
    return erase


class AccountInUse(Exception):
    """The account holds seats in unfinished games: ``seats`` (see ``unfinished_seats``)."""

    def __init__(self, seats: list[dict]):
        super().__init__(f"{len(seats)} seats in unfinished games")
        self.seats = seats


class NotConfirmed(ValueError):
    """The confirmation typed is not the account's address."""


def is_deleted(user) -> bool:
    """Whether ``user`` (a User or a row with its email) is a deleted account."""
    return (getattr(user, "email", "") or "").endswith("@" + DELETED_DOMAIN)


def unfinished_seats(session: Session, user_id: int) -> list[dict]:
    """[{game_id, game_type, seat, status}] of the seats the user holds in open or active
    games, by game."""
    rows = session.exec(select(Seat, Game).join(Game, Game.id == Seat.game_id)
                        .where(Seat.user_id == user_id, Game.status != "finished")
                        .order_by(Game.id)).all()
    return [{"game_id": game.id, "game_type": game.game_type, "seat": seat.seat,
             "status": game.status} for seat, game in rows]


def confirmed(user: User, typed: str) -> bool:
    return users.normalize_email(typed or "") == users.normalize_email(user.email)


def delete_account(session: Session, user_id: int, typed: str, *,
                   hand_over: bool = False) -> list[dict]:
    """Erase the account (see the module's doc) and commit; return the seats handed over.
    NotConfirmed or AccountInUse change nothing."""
    user = session.get(User, user_id)
    if user is None or is_deleted(user):
        raise NotConfirmed("no such account")
    if not confirmed(user, typed):
        raise NotConfirmed("the confirmation is not the account's address")
    seats = unfinished_seats(session, user_id)
    if seats and not hand_over:
        raise AccountInUse(seats)
    for held in seats:
        game = session.get(Game, held["game_id"])
        session.execute(update(Seat).where(Seat.game_id == held["game_id"],
                                           Seat.seat == held["seat"],
                                           Seat.user_id == user_id)
                        .values(user_id=None, invite_email=None, joined_at=None,
                                invite_token_hash=None)     # the creator makes a new code
                        if game.status == "open" else
                        update(Seat).where(Seat.game_id == held["game_id"],
                                           Seat.seat == held["seat"],
                                           Seat.user_id == user_id)
                        .values(user_id=None, invite_email=None))
        if game.status == "active":
            absences.left(session, game.id, held["seat"])   # the others are told and choose
    _leave_open_games(session, user_id)
    _erase(session, user)
    session.add(AccountDeletion(user_id=user_id, deleted_at=utcnow(),
                                handed_over=[[s["game_id"], s["seat"]] for s in seats]))
    session.commit()
    return seats


def _leave_open_games(session: Session, user_id: int) -> None:
    """The open games the account created: each passes to its earliest joined player, or is
    withdrawn when nobody else (bots aside) has joined. Run once the account's seats are
    freed, in the deletion's transaction."""
    for game in session.exec(select(Game).where(Game.created_by == user_id,
                                                Game.status == "open")).all():
        heir = session.exec(select(Seat.user_id).where(
            Seat.game_id == game.id, Seat.user_id.is_not(None), Seat.user_id != user_id)
            .order_by(Seat.joined_at, Seat.id)).first()
        if heir is None:
            lobby.withdraw(session, game.id)
            continue
        game.created_by, game.creator_left_at = heir, utcnow()
        session.add(game)
    session.flush()


def _take_tombstone(session: Session, user: User) -> str:
    """Give the account its tombstone address and return it: ``deleted-<id>@deleted.invalid``,
    or, when another account has that one (claimed before the reserved domains were refused),
    one with a random part; a collision met on writing is tried again, never a failure."""
    plain = f"deleted-{user.id}@{DELETED_DOMAIN}"
    for attempt in range(5):
        tombstone = plain if attempt == 0 else \
            f"deleted-{user.id}-{secrets.token_hex(6)}@{DELETED_DOMAIN}"
        if session.exec(select(User.id).where(User.email == tombstone,
                                              User.id != user.id)).first() is not None:
            continue
        try:
            with session.begin_nested():
                session.execute(update(User).where(User.id == user.id)
                                .values(email=tombstone))
            return tombstone
        except IntegrityError:
            continue
    raise RuntimeError("no free tombstone address")   # five random misses: not in this world


def _scrubbed(value: Any, address: re.Pattern, tombstone: str) -> Any:
    """``value`` (a JSON payload) with every mention of the address replaced by the tombstone."""
    if isinstance(value, str):
        return address.sub(tombstone, value)
    if isinstance(value, list):
        return [_scrubbed(v, address, tombstone) for v in value]
    if isinstance(value, dict):
        return {k: _scrubbed(v, address, tombstone) for k, v in value.items()}
    return value


def _scrub_outbox(session: Session, address: str, tombstone: str) -> None:
    """Replace the address in the payloads of the outbox's rows, sent or not (an invitation, a
    mail's quoted lines): found by the payload's text, in any case."""
    text = func.lower(cast(OutboxMessage.payload, Text))
    spellings = {address.lower(), json.dumps(address.lower())[1:-1]}
    pattern = re.compile(re.escape(address), re.IGNORECASE)
    for row in session.exec(select(OutboxMessage).where(or_(*(
            text.contains(spelling, autoescape=True) for spelling in spellings)))).all():
        row.payload = _scrubbed(row.payload, pattern, tombstone)
        session.add(row)


def _erase(session: Session, user: User) -> None:
    address = user.email
    tombstone = _take_tombstone(session, user)
    hooks = select(Webhook.id).where(Webhook.user_id == user.id)
    session.execute(delete(WebhookSent).where(WebhookSent.webhook_id.in_(hooks)))
    for model in (Webhook, ApiToken, SeatNote, CalendarFeed, Spectator, IdempotencyKey, Digest):
        session.execute(delete(model).where(model.user_id == user.id))
    session.execute(update(MailSent).where(MailSent.address == address)
                    .values(address=tombstone))
    session.execute(update(MailSent).where(MailSent.recipient == f"invite:{address}")
                    .values(recipient=f"invite:{tombstone}"))
    _scrub_outbox(session, address, tombstone)
    session.execute(update(Seat).where(Seat.invite_email == address).values(invite_email=None))
    for erase in ERASERS:
        erase(session, user)
    user.email, user.display_name = tombstone, ""
    user.locale, user.time_zone, user.mail_mode, user.muted_kinds = "en", "UTC", "none", []
    user.email_verified_at = None
    user.session_epoch = (user.session_epoch or 0) + 1   # every browser session ends
    session.add(user)
    session.flush()
