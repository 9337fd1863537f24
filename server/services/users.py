"""Users and their API tokens. A token is shown once, when issued; only its sha256 is stored."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from sqlalchemy import bindparam
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, select

from server.models import ApiToken, User, aware, utcnow
from server.raw_sql import Raw

TOKEN_PREFIX = "ws_"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def normalize_email(email: str) -> str:
    return email.strip().lower()


class EmailTaken(ValueError):
    pass


def find_user(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == normalize_email(email))).first()


def create_user(session: Session, email: str, display_name: str = "", locale: str = "en",
                *, commit: bool = True) -> User:
    """Add a user; raise EmailTaken if the address already has one."""
    email = normalize_email(email)
    if find_user(session, email) is not None:
        raise EmailTaken(email)
    user = User(email=email, display_name=display_name or email.split("@")[0], locale=locale)
    session.add(user)
    if commit:
        session.commit()
        session.refresh(user)
    else:
        session.flush()
    return user


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


def user_for_token(session: Session, token: str) -> User | None:
    """The user a token belongs to, or None; compares hashes only."""
    return token_owner(session, token)[0]


def token_owner(session: Session, token: str) -> tuple[User | None, datetime | None]:
    """The token's user, detached (of no session: the caller keeps it past the session's
    commits and close), and when the token was last recorded as used; one query."""
    rows = _TOKEN_OWNER.rows(session.connection(), {"token_hash": sha256_hex(token)})
    if not rows:
        return None, None
    *columns, last_used = rows[0]
    user = User(**dict(zip(_USER_COLUMNS, columns)))
    make_transient_to_detached(user)  # a row of the database, as if loaded and expunged
    return user, last_used


def use_is_stale(last_used_at: datetime | None, every_seconds: float = 3600) -> bool:
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


def token_used(session: Session, token: str, every_seconds: float = 3600) -> None:
    """Record that a token was used (at most once per ``every_seconds``; never for a GET)."""
    row = session.exec(select(ApiToken).where(ApiToken.token_hash == sha256_hex(token))).first()
    if row is None:
        return
    if use_is_stale(row.last_used_at, every_seconds):
        row.last_used_at = utcnow()
        session.add(row)
        session.commit()
