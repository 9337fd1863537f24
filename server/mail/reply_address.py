"""The reply address of a seat: ``r+<game>-<seat>-<mac>@<MAIL_DOMAIN>``.

Nothing is stored: the mac is an HMAC-SHA256 of the game, the seat and the user holding it,
keyed with the installation's secret, so a reply proves it answers a mail that seat's player
was sent; a seat handed to another player gets a new address. Lower-case hex, because some mail
systems fold the case of local parts; 24 hex digits (96 bits) keep the local part well under
RFC 5321's 64 characters.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import NamedTuple

from server.secret_keys import Secret, any_matches, newest

MAC_LENGTH = 24
_TOKEN = re.compile(r"^(\d+)-([a-z0-9_]+)-([0-9a-f]{%d})$" % MAC_LENGTH)


class ReplyToken(NamedTuple):
    game_id: int
    seat: str
    mac: str


def _mac(secret: str, game_id: int, seat: str, user_id: int) -> str:
    message = f"reply-address:{game_id}:{seat}:{user_id}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:MAC_LENGTH]


def token(secret: Secret, game_id: int, seat: str, user_id: int) -> str:
    return f"{game_id}-{seat}-{_mac(newest(secret), game_id, seat, user_id)}"


def address(secret: Secret, domain: str, game_id: int, seat: str, user_id: int) -> str:
    return f"r+{token(secret, game_id, seat, user_id)}@{domain}"


def parse(text: str | None) -> ReplyToken | None:
    """The game, seat and mac a token names, or None when it is not one of ours."""
    match = _TOKEN.match((text or "").strip().lower())
    return ReplyToken(int(match[1]), match[2], match[3]) if match else None


def verify(secret: Secret, parsed: ReplyToken, user_id: int | None) -> bool:
    """Whether the token was made for the seat's current player (with any key of the ring)."""
    return user_id is not None and any_matches(
        secret, parsed.mac, lambda key: _mac(key, parsed.game_id, parsed.seat, user_id))
