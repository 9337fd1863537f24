"""Users and their API tokens. A token is shown once, when issued; only its sha256 is stored.

An address counts only once proven: ``email_verified_at`` is set when its owner opens a link
mailed to it (a sign-in link: the sign-in page, or an API sign-up, which mails one). Until
then the account may create games and join with an invitation code, but its address claims
no seat reserved for it and shows it no private game. The first proof hands the account to
the address's owner: API tokens made before it (by whoever signed up with the address) are
revoked.

Addresses are compared in one normal form: surrounding white space dropped, the whole address
(domain and local part) in lower case. Mail systems treat the domain without case and, in
practice, the local part too; two accounts that differ only in case would be one person's.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import namedtuple
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete, or_, update
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

from server import db
from server.models import ApiToken, User, aware, utcnow
from server.raw_sql import Raw
from server.services import display_names

TOKEN_PREFIX = "ws_"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def normalize_email(email: str) -> str:
    """The one form addresses are stored and compared in (see the module's doc)."""
    return email.strip().lower()


# Top-level domains that never reach anybody's mailbox (RFC 2606 section 2, RFC 6761 section
# 6): no address in them can be proven, and ``deleted.invalid`` holds the tombstones of deleted
# accounts (services/account_deletion.py). An address in one is refused wherever an address is
# taken (sign-in, sign-up, an invitation), so that nobody can claim a deleted account's
# tombstone before its owner's deletion takes it. example.com, .net and .org are not refused:
# RFC 6761 section 6.5 asks applications not to treat them as special.
RESERVED_TLDS = ("invalid", "test", "example", "localhost")


class AddressRefused(ValueError):
    """An address no mail can reach: in a reserved top-level domain (``domain``)."""

    def __init__(self, domain: str):
        super().__init__(domain)
        self.domain = domain


def reserved_domain(email: str) -> str | None:
    """The reserved top-level domain an address is in (see RESERVED_TLDS), or None."""
    domain = normalize_email(email).rpartition("@")[2].rstrip(".")
    top = domain.rpartition(".")[2]
    return top if top in RESERVED_TLDS else None


def is_address(text: str) -> bool:
    """Whether ``text`` is an email address, as the API's schemas check one (marshmallow)."""
    from marshmallow import ValidationError, validate
    try:
        validate.And(validate.Length(max=320), validate.Email())(text)
        return True
    except ValidationError:
        return False


def check_address(email: str) -> str:
    """The address in its normal form; AddressRefused if it is in a reserved domain."""
    top = reserved_domain(email)
    if top is not None:
        raise AddressRefused(top)
    return normalize_email(email)


def proven(user) -> bool:
    """Whether the user's address is proven (a User row, or the web's signed-in reader)."""
    return getattr(user, "email_verified_at", None) is not None


def prove_address(session: Session, user: User) -> bool:
    """Record that ``user``'s address is proven (its owner opened a link mailed to it). The
    first proof revokes every API token made before it: whoever signed up with the address
    before its owner loses the account. Flushes, does not commit; True on the first proof."""
    if user.email_verified_at is not None:
        return False
    user.email_verified_at = utcnow()
    session.add(user)
    session.execute(delete(ApiToken).where(ApiToken.user_id == user.id))
    session.flush()
    return True


def tokens_of(session: Session, user_id: int) -> list[ApiToken]:
    """The user's API tokens (their ids and dates; the tokens themselves are never kept)."""
    return list(session.exec(select(ApiToken).where(ApiToken.user_id == user_id)
                             .order_by(ApiToken.id)).all())


def revoke_token(session: Session, user_id: int, token_id: int) -> bool:
    """Revoke one of the user's tokens; False when the user has no token of that id."""
    done = session.execute(delete(ApiToken).where(ApiToken.user_id == user_id,
                                                  ApiToken.id == token_id))
    session.commit()
    return done.rowcount == 1


class EmailTaken(ValueError):
    pass


def find_user(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == normalize_email(email))).first()


def create_user(session: Session, email: str, display_name: str = "", locale: str = "en",
                *, commit: bool = True) -> User:
    """Add a user; raise EmailTaken if the address already has one, NameRefused
    (display_names) if the name breaks the rule. No name is no name: others see a neutral one
    (display_names.shown), never the address's local part."""
    email = normalize_email(email)
    display_name = display_names.check(display_name) if display_name else ""
    if find_user(session, email) is not None:
        raise EmailTaken(email)
    user = User(email=email, display_name=display_name, locale=locale)
    session.add(user)
    if commit:
        session.commit()
        session.refresh(user)
    else:
        session.flush()
    return user


def rename(session: Session, user: User, display_name: str) -> str:
    """Give ``user`` the display name (checked and normalised by the rule of names: raises
    NameRefused saying why, changing nothing); "" takes the name away, and others see the
    neutral "Player <id>" again (display_names.shown). No commit."""
    name = display_names.check(display_name) if display_name.strip() else ""
    user.display_name = name
    session.add(user)
    return name


def find_or_create_user(session: Session, email: str, locale: str = "en") -> User:
    """The user of an address, created (without a token, reading ``locale``) on first use;
    flushes, no commit."""
    user = find_user(session, email)
    if user is None:
        user = create_user(session, email, locale=locale, commit=False)
    return user


def issue_token(session: Session, user_id: int) -> str:
    """Make a new API token for the user, store its hash, and return the token itself."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user_id, token_hash=sha256_hex(token)))
    session.commit()
    return token


# Every API request reads its token: one statement, built once, run on the driver's cursor.
_TOKEN_OWNER = Raw(select(*User.__table__.c, ApiToken.last_used_at)
                   .join(ApiToken, ApiToken.user_id == User.id)
                   .where(ApiToken.token_hash == bindparam("token_hash")))
_USER_COLUMNS = tuple(User.__table__.c.keys())  # the order of the row's first columns

Caller = namedtuple("Caller", _USER_COLUMNS)
Caller.__doc__ = """An account as its token's read found it: the User's columns, by the same
names, read-only and of no session (nothing to save by accident). What an API request knows of
its caller: building a User there, an ORM object with its instrumentation, was a twentieth of
an order's time (bench/order_throughput.py). Code that changes an account reads it afresh."""


def user_for_token(session: Session, token: str) -> Caller | None:
    """The account a token belongs to, or None; compares hashes only."""
    return token_owner(session, token)[0]


def token_owner(session: Session, token: str) -> tuple[Caller | None, datetime | None]:
    """The token's account (a ``Caller``), and when the token was last recorded as used; one
    query."""
    rows = _TOKEN_OWNER.rows(db.connection(session), {"token_hash": sha256_hex(token)})
    if not rows:
        return None, None
    *columns, last_used = rows[0]
    return Caller._make(columns), last_used


# A token's use is recorded at most this often (seconds): a write per request would cost more
# than the record is worth.
TOKEN_USE_EVERY = 3600


def use_is_stale(last_used_at: datetime | None, every_seconds: float = TOKEN_USE_EVERY) -> bool:
    """Whether a token's last recorded use is older than ``every_seconds`` (or never)."""
    if last_used_at is None:
        return True
    return (utcnow() - aware(last_used_at)).total_seconds() >= every_seconds


def revoke_tokens(session: Session, user_id: int) -> int:
    rows = session.exec(select(ApiToken).where(ApiToken.user_id == user_id)).all()
    for row in rows:
        session.delete(row)
    session.commit()
    return len(rows)


_TOKEN_USED = Raw(update(ApiToken)
                  .where(ApiToken.token_hash == bindparam("hash_of"),
                         or_(ApiToken.last_used_at.is_(None),
                             ApiToken.last_used_at <= bindparam("stale_before")))
                  .values(last_used_at=bindparam("now")))


def token_used(connection: Connection, token: str,
               every_seconds: float = TOKEN_USE_EVERY) -> None:
    """Record that a token was used (at most once per ``every_seconds``; never for a GET), in
    the connection's transaction: one UPDATE, which changes nothing when the recorded use is
    recent or the token is gone."""
    now = utcnow()
    _TOKEN_USED.execute(connection, {"hash_of": sha256_hex(token), "now": now,
                                     "stale_before": now - timedelta(seconds=every_seconds)})
