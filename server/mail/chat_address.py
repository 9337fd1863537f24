"""The reply address of a table-talk mail: ``r+c<game>-<p|s>-<user>-<mac>@<MAIL_DOMAIN>``.

Its purpose differs from a decision mail's (server/mail/reply_address.py), so neither is ever
read as the other: the token starts with "c" (a seat's starts with the game's digits, which
``reply_address.parse`` requires; this module's parser requires the "c"), and the mac is an
HMAC-SHA256 of a different message ("chat-address:<game>:<channel>:<user>"), so a seat's mac
never verifies here nor a chat mac there. A reply to it is posted to the chat, whatever its
lines say (an order written there is a line of talk, never applied); an order goes only by a
reply to a decision mail. Nothing is stored; 24 lower-case hex digits, like the seat's.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import NamedTuple

from server.secret_keys import Secret, any_matches, newest

MAC_LENGTH = 24
_LETTERS = {"players": "p", "spectators": "s"}
_CHANNELS = {v: k for k, v in _LETTERS.items()}
_TOKEN = re.compile(r"^c(\d+)-([ps])-(\d+)-([0-9a-f]{%d})$" % MAC_LENGTH)


class ChatToken(NamedTuple):
    game_id: int
    channel: str
    user_id: int
    mac: str


def _mac(secret: str, game_id: int, channel: str, user_id: int) -> str:
    message = f"chat-address:{game_id}:{channel}:{user_id}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:MAC_LENGTH]


def token(secret: Secret, game_id: int, channel: str, user_id: int) -> str:
    return (f"c{game_id}-{_LETTERS[channel]}-{user_id}-"
            f"{_mac(newest(secret), game_id, channel, user_id)}")


def address(secret: Secret, domain: str, game_id: int, channel: str, user_id: int) -> str:
    return f"r+{token(secret, game_id, channel, user_id)}@{domain}"


def parse(text: str | None) -> ChatToken | None:
    """The game, channel, user and mac a chat token names, or None when it is not one."""
    match = _TOKEN.match((text or "").strip().lower())
    if not match:
        return None
    return ChatToken(int(match[1]), _CHANNELS[match[2]], int(match[3]), match[4])


def verify(secret: Secret, parsed: ChatToken) -> bool:
    """Whether the token was made by this server (with any key of the ring) for its game,
    channel and user."""
    return any_matches(secret, parsed.mac, lambda key: _mac(key, parsed.game_id, parsed.channel,
                                                            parsed.user_id))
