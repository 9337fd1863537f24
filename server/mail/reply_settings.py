"""Account settings a reply may carry beside its orders: ``timezone Asia/Tokyo`` (also ``time
zone ...``, ``time-zone ...``, and the word in any of the server's languages: ``タイムゾーン
Asia/Tokyo``, ``zona horaria Europe/Madrid``; any case, NFKC-normalised, so full-width letters
count) sets the zone every time of the player's mails and pages is shown in
(services/time_zones.py).

Like standing-order lines (services/standing.py), such lines are taken out of the reply before
its orders are read (server/mail/replies.py), changed in the order's own transaction and told
in the answer; a zone not taken refuses the whole reply, saying why, and nothing in it is done.
Only the seat's player's own reply gets here (replies._not_the_players)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from engine.core.messages import Message
from sqlmodel import Session

from server.catalogue import N_
from server.i18n import LOCALES, gettext
from server.models import User
from server.services import time_zones

WORD = N_("timezone")  # the setting's word as the help writes it, in each language


@lru_cache(maxsize=1)
def _line() -> re.Pattern:
    """The setting line: its word in any language (English "time zone" spelt three ways), then
    the zone. A word in Latin letters ends at a word boundary; a Japanese one may run on."""
    words = {"time zone"} | {gettext(WORD, locale) for locale in LOCALES}
    spelt = []
    for word in sorted(words, key=len, reverse=True):
        word = unicodedata.normalize("NFKC", word)
        pattern = r"[\s_-]*".join(re.escape(part) for part in word.split())
        if word.lower() == "timezone":
            pattern = r"time[\s_-]*zone"
        spelt.append(pattern + (r"\b" if word[-1].isascii() else ""))
    return re.compile(r"(?:" + "|".join(spelt) + r")[\s:=]*(?P<zone>.*)", re.IGNORECASE)


class Refused(ValueError):
    """A setting line not taken; ``reason``: why, in the order service's words (a message)."""

    def __init__(self, reason: Message):
        super().__init__(str(reason))
        self.reason = reason


def _match(line: str) -> re.Match | None:
    return _line().fullmatch(unicodedata.normalize("NFKC", line).strip())


def is_line(line: str) -> bool:
    """Whether the reply's line is a setting (``timezone ...``), not an order."""
    return _match(line) is not None


def split(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the setting lines, the other lines) of a reply, each in its order."""
    return [line for line in lines if is_line(line)], [line for line in lines
                                                       if not is_line(line)]


def read(lines: list[str]) -> dict[str, str]:
    """{"time_zone": the zone named} for the setting lines (the last one counts; {} for none);
    raise Refused."""
    found: dict[str, str] = {}
    for line in lines:
        try:
            found["time_zone"] = time_zones.check(_match(line).group("zone"))
        except time_zones.ZoneRefused as refused:
            raise Refused(refused.message) from None
    return found


def file(session: Session, user_id: int | None, settings: dict[str, str]) -> None:
    """Change the player's settings in the caller's transaction (it commits)."""
    if not settings or user_id is None:
        return
    user = session.get(User, user_id)
    if user is not None and "time_zone" in settings:
        time_zones.change(session, user, settings["time_zone"])
