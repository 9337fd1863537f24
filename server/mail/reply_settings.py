"""Account settings a reply may carry beside its orders: ``timezone Asia/Tokyo`` (also ``time
zone ...``, ``time-zone ...``; any case, NFKC-normalised, so full-width letters count) sets the
zone every time of the player's mails and pages is shown in (services/time_zones.py).

Like standing-order lines (services/standing.py), such lines are taken out of the reply before
its orders are read (server/mail/replies.py), changed in the order's own transaction and told
in the answer; a zone not taken refuses the whole reply, saying why, and nothing in it is done.
Only the seat's player's own reply gets here (replies._not_the_players)."""

from __future__ import annotations

import re
import unicodedata

from engine.core.messages import Message
from sqlmodel import Session

from server.models import User
from server.services import time_zones

LINE = re.compile(r"time[\s_-]*zone\b[\s:=]*(?P<zone>.*)", re.IGNORECASE)


class Refused(ValueError):
    """A setting line not taken; ``reason``: why, in the order service's words (a message)."""

    def __init__(self, reason: Message):
        super().__init__(str(reason))
        self.reason = reason


def _match(line: str) -> re.Match | None:
    return LINE.fullmatch(unicodedata.normalize("NFKC", line).strip())


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
