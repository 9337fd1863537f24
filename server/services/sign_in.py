"""Signing in to the web pages by a link sent by mail (no password is ever kept).

A sign-in request writes a ``sign_in`` outbox row; its mail carries a link made when the mail
is rendered: the user id and the request's nonce, signed (itsdangerous) and expiring after
SIGN_IN_MAX_AGE_SECONDS. The link's GET shows a button and changes nothing (mail scanners open
every link); its POST signs the browser in and records the link's digest, so it works once.
A link of a deleted account is void, whenever it was mailed: deletion is for good. A link may
also carry the account's session epoch when it was asked for (the outbox row keeps it): a link
of an older epoch (the account signed out everywhere since, server/web/accounts.py) is void.
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import OutboxMessage, User, UsedSignIn
from server.secret_keys import Secret

SALT = "whistlestop.sign-in"


class SignInRefused(Exception):
    """A sign-in link that cannot be used; ``kind``: expired | tampered | used | void (the
    account signed out everywhere, or was deleted, since the link was mailed)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def request(session: Session, user: User, next_path: str = "/") -> None:
    """Write the sign-in mail's outbox row (committed by the caller)."""
    session.add(OutboxMessage(kind="sign_in", payload={
        "user_id": user.id, "nonce": secrets.token_urlsafe(12), "next": safe_next(next_path),
        "epoch": user.session_epoch or 0}))   # the link is void once the epoch moves on


def safe_next(path: str | None) -> str:
    """A page of this site to go to after signing in (never another site): a path starting with
    one slash, with no backslash, no white space or control character (browsers drop tabs and
    newlines from a URL, so "/\t/evil.example" would become "//evil.example"), at most 300
    characters; anything else goes to the lobby."""
    path = path if isinstance(path, str) else "/"
    if not path.startswith("/") or path.startswith("//") or "\\" in path or len(path) > 300 \
            or any(c.isspace() or ord(c) < 32 or 127 <= ord(c) < 160 for c in path):
        return "/"
    return path


def token(secret: Secret, user_id: int, nonce: str, next_path: str = "/",
          epoch: int | None = None) -> str:
    data = {"u": user_id, "n": nonce, "p": safe_next(next_path)}
    if epoch is not None:
        data["e"] = int(epoch)
    return URLSafeTimedSerializer(secret, salt=SALT).dumps(data)


def url(secret: Secret, base_url: str, user_id: int, nonce: str, next_path: str = "/",
        epoch: int | None = None) -> str:
    """The link of a sign-in mail; ``epoch``: the account's session epoch when the link was
    asked for (the outbox row's), checked when the link is used; None: not checked."""
    return f"{base_url}/sign-in/{token(secret, user_id, nonce, next_path, epoch)}"


def read(session: Session, secret: Secret, value: str, max_age: float) -> tuple[User, str, str]:
    """(the user, the page to go to, the token's digest); raise SignInRefused."""
    try:
        data, signed_at = URLSafeTimedSerializer(secret, salt=SALT).loads(
            value, max_age=max_age, return_timestamp=True)
        user_id, next_path = int(data["u"]), safe_next(str(data["p"]))
        epoch = None if data.get("e") is None else int(data["e"])
    except SignatureExpired:
        raise SignInRefused("expired") from None
    except (BadSignature, AttributeError, KeyError, TypeError, ValueError):
        raise SignInRefused("tampered") from None
    user = session.get(User, user_id)
    if user is None:
        raise SignInRefused("tampered")
    from server.services.account_deletion import is_deleted
    if is_deleted(user) or (epoch is not None and epoch != (user.session_epoch or 0)):
        raise SignInRefused("void")
    # What the signature covers, decoded: every encoding of one link is the same link.
    from server.services.links import canonical_digest
    digest = canonical_digest(SALT, data, signed_at)
    if session.exec(select(UsedSignIn.id).where(UsedSignIn.digest == digest)).first():
        raise SignInRefused("used")
    return user, next_path, digest


def use(session: Session, user: User, digest: str) -> None:
    """Record the link as used and commit; raise SignInRefused("used") if it was meanwhile.
    The link came by mail to the account's address: the address is proven by it."""
    from server.services.users import prove_address
    try:
        session.add(UsedSignIn(digest=digest, user_id=user.id))
        prove_address(session, session.get(User, user.id))
        session.commit()
    except IntegrityError:
        session.rollback()
        raise SignInRefused("used") from None
