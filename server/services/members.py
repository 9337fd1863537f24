"""Issue 48, item 1: a members-only club. With ``OPEN_SIGNUP`` false nobody makes an account
by naming an address: a member is added by the operator (``whistlestop add-member``), or comes
by an invitation, either to a game (an address invited to a seat, or to take over a seat, may
make its account by signing in, and so may whoever signs in to follow a game's invitation
code that still opens a seat) or to the club (a member's link, made on the settings page,
that works once; only its sha256 is kept, as ``ClubInvitation.token_hash``).

The sign-in page answers alike for a member and a stranger, and writes a sign-in outbox row
for both: a member's row mails the link, a stranger's (no user) mails nothing (the page already
says how to become a member; a members-only club mails nobody who is not one). The request does
the same work either way, so neither the answer nor its time tells whether an address has an
account.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from urllib.parse import unquote

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import ClubInvitation, Game, OutboxMessage, Seat, SeatAbsence, User, utcnow
from server.services import sign_in, users

SALT = "whistlestop.club-invitation"
INVITATION_DAYS = 14      # how long a club invitation link works
PATH = "/club/"           # a club invitation's page: PATH + token


class InvitationRefused(Exception):
    """A club invitation link that cannot be used; ``kind``: expired | tampered | used | void
    (its member's account was deleted since)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def closed(config) -> bool:
    """Whether the club is members-only (``WHISTLESTOP_OPEN_SIGNUP=false``)."""
    return not config.get("OPEN_SIGNUP", True)


def invited_to_a_game(session: Session, email: str) -> bool:
    """Whether ``email`` is invited to a free seat of a game not started yet, or to take over
    a seat whose player left (services/absences.py), still open."""
    email = users.normalize_email(email)
    seat = session.exec(select(Seat.id).join(Game, Game.id == Seat.game_id).where(
        Seat.invite_email == email, Seat.user_id.is_(None), Game.status == "open")).first()
    if seat is not None:
        return True
    return session.exec(select(SeatAbsence.id).where(
        SeatAbsence.invite_email == email, SeatAbsence.status == "open")).first() is not None


_CODE_PATHS = (re.compile(r"/games/(\d+)/join\?(?:.*&)?code=([^&#]+)"),
               re.compile(r"/games/(\d+)/take-seat/([^/?#]+)"))


def holds_a_code(session: Session, next_path: str | None) -> bool:
    """Whether the page a sign-in returns to carries a game's invitation code that still
    opens a seat: a free seat's code of a game not started (``/games/<id>/join?code=``) or an
    open absence's replacement code (``/games/<id>/take-seat/<code>``)."""
    for kind, pattern in enumerate(_CODE_PATHS):
        found = pattern.fullmatch(next_path or "")
        if found is None:
            continue
        game_id, digest = int(found[1]), users.sha256_hex(unquote(found[2]))
        if kind == 0:
            return session.exec(select(Seat.id).join(Game, Game.id == Seat.game_id).where(
                Seat.game_id == game_id, Seat.invite_token_hash == digest,
                Seat.user_id.is_(None), Game.status == "open")).first() is not None
        return session.exec(select(SeatAbsence.id).where(
            SeatAbsence.game_id == game_id, SeatAbsence.invite_token_hash == digest,
            SeatAbsence.status == "open")).first() is not None
    return False


def account_for_sign_in(session: Session, email: str, locale: str, members_only: bool,
                        next_path: str | None = None) -> User | None:
    """The account a sign-in link goes to: the address's own; else one made now, when sign-up
    is open, the address is invited to a game, or the sign-in returns to a game's invitation
    code that still opens a seat (``next_path``); else None (a stranger to a members-only
    club: nothing is made). Flushes, no commit; comes before any other change of the
    session (a race lost rolls it back)."""
    user = users.find_user(session, email)
    if user is None and (not members_only or invited_to_a_game(session, email)
                         or holds_a_code(session, next_path)):
        try:
            user = users.create_user(session, email, locale=locale, commit=False)
        except IntegrityError:  # made meanwhile by the same request sent twice
            session.rollback()
            user = users.find_user(session, email)
    return user


def request_sign_in(session: Session, user: User | None, next_path: str = "/") -> None:
    """The sign-in outbox row: a member's mails the link; a stranger's (``user`` None) is
    written all the same and mails nothing (server/mail/recipients.py). No commit."""
    if user is not None:
        sign_in.request(session, user, next_path)
    else:
        session.add(OutboxMessage(kind="sign_in", payload={
            "user_id": None, "nonce": secrets.token_urlsafe(12),
            "next": sign_in.safe_next(next_path), "epoch": 0}))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite(session: Session, member: User, secret: str) -> str:
    """A new club invitation from ``member``: its token (shown once; only its hash is kept).
    Commits."""
    token = URLSafeTimedSerializer(secret, salt=SALT).dumps(
        {"m": member.id, "n": secrets.token_urlsafe(16)})
    session.add(ClubInvitation(token_hash=_digest(token), invited_by=member.id))
    session.commit()
    return token


def read(session: Session, secret: str, token: str) -> ClubInvitation:
    """The invitation of a link's token, unused; raise InvitationRefused."""
    try:
        URLSafeTimedSerializer(secret, salt=SALT).loads(token, max_age=INVITATION_DAYS * 86400)
    except SignatureExpired:
        raise InvitationRefused("expired") from None
    except BadSignature:
        raise InvitationRefused("tampered") from None
    invitation = session.exec(select(ClubInvitation).where(
        ClubInvitation.token_hash == _digest(token))).first()
    if invitation is None:
        raise InvitationRefused("tampered")
    if invitation.used_at is not None:
        raise InvitationRefused("used")
    from server.services.account_deletion import is_deleted   # (it imports users)
    inviter = session.get(User, invitation.invited_by)
    if inviter is None or is_deleted(inviter):   # a member who left invites nobody
        raise InvitationRefused("void")
    return invitation


def join(session: Session, secret: str, token: str, email: str, locale: str) -> None:
    """Use the invitation of ``token`` for ``email``: the address's account (made now if it
    has none) gets a sign-in link; the invitation is used up either way (the answer does not
    say whether the address had an account). Commits; raise InvitationRefused, changing
    nothing."""
    invitation_id = read(session, secret, token).id
    user = account_for_sign_in(session, email, locale, members_only=False)
    done = session.execute(update(ClubInvitation).where(
        ClubInvitation.id == invitation_id, ClubInvitation.used_at.is_(None))
        .values(used_at=utcnow()))
    if done.rowcount != 1:   # used meanwhile by another request
        session.rollback()
        raise InvitationRefused("used")
    sign_in.request(session, user, "/")
    session.commit()


def add_member(session: Session, email: str, display_name: str = "") -> User:
    """The operator's new member (raises users.EmailTaken, display_names.NameRefused).
    Commits."""
    return users.create_user(session, email, display_name=display_name)
