"""Signed decision links: a choice in a mail that a click can commit.

A link names one game, seat, step and action, and the player it was made for, signed with the
installation's secret (itsdangerous, salted for this use) and timestamped: it expires after
LINK_MAX_AGE_SECONDS. Opening it (GET) only shows the decision with that choice described;
mail scanners open every link, so nothing changes until the page's form is sent (POST). A
link commits its order once: the sha256 of the token is stored with the order, in its
transaction, as the digest of what its signature covers (every encoding of one token is the
same link). A link is good for its own step only: opened after the step is over it shows what
happened since (the public notes) and the way to the game page, which needs a signed-in
session; it never makes fresh links (those come only in a new mail), so a link that leaked
gives nothing beyond its own step.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Callable

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import Session, select

from server.models import Seat, UsedLink
from server.parsing import whole
from server.secret_keys import Secret, any_matches, newest

SALT = "whistlestop.decision-link"


@dataclass(frozen=True)
class Link:
    game_id: int
    seat: str
    step: int
    action: str
    user_id: int
    notes: int  # how many notes the seat's view had when the link was made
    digest: str  # sha256 of the token


class LinkRefused(Exception):
    """Why a link cannot be used: ``kind`` is tampered, expired, other_game, other_player or
    used; ``link`` is the decoded link when its signature is good."""

    def __init__(self, kind: str, reason: str, link: Link | None = None):
        super().__init__(reason)
        self.kind, self.reason, self.link = kind, reason, link


def _serializer(secret: Secret) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def make(secret: Secret, game_id: int, seat: str, step: int, action: str, user_id: int,
         notes: int) -> str:
    return _serializer(secret).dumps({"g": game_id, "s": seat, "t": step, "a": action,
                                      "u": user_id, "n": notes})


def digest(token: str) -> str:
    """The sha256 of a token's text (kept for links used before canonical digests)."""
    return hashlib.sha256(token.encode()).hexdigest()


def canonical_digest(kind: str, data, timestamp) -> str:
    """The sha256 of what a token's signature covers, decoded: its payload (as canonical JSON)
    and its time. Every encoding of one token that the signature accepts (padding added,
    another base64 spelling of the same bytes) has this one digest, so "works once" holds
    for the token whatever text carries it."""
    import json
    stamp = int(timestamp.timestamp()) if hasattr(timestamp, "timestamp") else int(timestamp)
    body = json.dumps([kind, data, stamp], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def read(session: Session, secret: Secret, token: str, game_id: int, max_age: float) -> Link:
    """The link ``token`` makes, checked against the game in its URL, the seat's player now and
    the links used; raise LinkRefused."""
    try:
        data, signed_at = _serializer(secret).loads(token, max_age=max_age,
                                                     return_timestamp=True)
    except SignatureExpired:
        raise LinkRefused("expired", "This link has expired: links in mails work for "
                          f"{_days(max_age)}. The game page shows your decision now.") from None
    except BadSignature:
        raise LinkRefused("tampered", "This link is damaged or was not made by this server: "
                          "copy the whole link from the mail, or open the game page.") from None
    try:
        link = Link(int(data["g"]), str(data["s"]), int(data["t"]), str(data["a"]),
                    int(data["u"]), int(data["n"]), canonical_digest(SALT, data, signed_at))
    except (KeyError, TypeError, ValueError):
        raise LinkRefused("tampered", "This link is damaged or was not made by this server.")
    if link.game_id != game_id:
        raise LinkRefused("other_game", f"This link belongs to game {link.game_id}, not to "
                          f"game {game_id}.", link)
    holder = session.exec(select(Seat.user_id).where(Seat.game_id == game_id,
                                                     Seat.seat == link.seat)).first()
    if holder != link.user_id:
        raise LinkRefused("other_player", f"This link was made for the player who held "
                          f"{link.seat} then; the seat is someone else's now.", link)
    # The text's digest too: links used before digests were canonical were kept by it.
    if session.exec(select(UsedLink.id).where(
            UsedLink.digest.in_([link.digest, digest(token)]))).first():
        raise LinkRefused("used", "This link has been used already: each link commits its "
                          "choice once.", link)
    return link


def use(session: Session, link: Link) -> None:
    """Record, in the order's transaction, that the link has committed (unique: a second
    concurrent use fails its commit)."""
    session.add(UsedLink(digest=link.digest, game_id=link.game_id))


def _days(seconds: float) -> str:
    days = round(seconds / 86400)
    return f"{days} day{'s' if days != 1 else ''}" if days >= 1 else f"{int(seconds)} seconds"


def choice_url(secret: Secret, base_url: str, game_id: int, seat: str, step: int, user_id: int,
               notes: int) -> Callable[[str], str]:
    """The function giving the signed link of each action the seat may choose at ``step``."""
    def url_of(action: str) -> str:
        return url(base_url, game_id, make(secret, game_id, seat, step, action, user_id, notes))
    return url_of


def choices(secret: Secret, base_url: str, game_id: int, seat: str, step: int, legal: list[str],
            user_id: int, notes: int, limit: int) -> list[dict]:
    """A signed link for each of the first ``limit`` legal actions: [{action, url}]."""
    url_of = choice_url(secret, base_url, game_id, seat, step, user_id, notes)
    return [{"action": action, "url": url_of(action)} for action in legal[:limit]]


def url(base_url: str, game_id: int, token: str) -> str:
    return f"{base_url}/games/{game_id}/decide/{token}"


# --- the mail preferences link --------------------------------------------------------------
# Every mail's footer and its List-Unsubscribe header lead to the recipient's mail preferences
# without a login: ``/me/mail/<token>``, the token being the user id, the outbox row of the
# mail that carries it, and an HMAC of both. Each mail has its own (the links rotate); what a
# token may do is decided when it is used (services/preferences.power): the newest mail's
# token may reduce the user's mail, an older one (or one of the older form ``<user>.<mac>``,
# with no mail in it) may only stop mail, and anything more needs a signed-in session. It does
# not expire: an unsubscribe link must keep working.
PREFERENCES_KEY = b"whistlestop.mail-preferences:"


@dataclass(frozen=True)
class PreferencesLink:
    user_id: int
    mail: int | None  # the outbox row of the mail that carried it (None: the older form)


def _preferences_mac(secret: str, text: str) -> str:
    mac = hmac.new(PREFERENCES_KEY + secret.encode(), text.encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def preferences_token(secret: Secret, user_id: int, mail: int) -> str:
    """The token of the preferences link in the mail of outbox row ``mail`` to ``user_id``."""
    text = f"{user_id}.{mail}"
    return f"{text}.{_preferences_mac(newest(secret), text)}"


def preferences_link(secret: Secret, token: str) -> PreferencesLink | None:
    """What a preferences token names, or None if it was not made by this server."""
    *numbers, mac = token.split(".")
    if not 1 <= len(numbers) <= 2 or any(whole(n) is None for n in numbers):
        return None
    canonical = ".".join(str(int(n)) for n in numbers)
    if not any_matches(secret, mac, lambda key: _preferences_mac(key, canonical)):
        return None
    return PreferencesLink(int(numbers[0]), int(numbers[1]) if len(numbers) == 2 else None)


def preferences_url(secret: Secret, base_url: str, user_id: int, mail: int) -> str:
    return f"{base_url}/me/mail/{preferences_token(secret, user_id, mail)}"
