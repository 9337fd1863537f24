"""Reply lines that ask for, answer or end a pause or an extension (issue 27, item 4):
``pause`` (ask to pause the game), ``pause yes`` / ``pause no`` (agree or refuse), ``resume``,
``extend`` (ask for more time), ``extend yes`` / ``extend no`` (grant or refuse), in any of the
server's languages (their translations: ``中断 いいえ``, ``prórroga sí`` ...). Any case,
NFKC-normalised (full-width letters and spaces count), accents, quotes and a closing full stop
or exclamation mark ignored; a Japanese command may leave out the space.

A reply whose first line is one of these does that and nothing else (issue 46, item 3: the
lines after it - a sentence to the other player, a sign-off - are not read;
server/mail/replies.py); the players are told by the "pause" or "extension" mail that follows,
or, when it is refused, the reply is answered with the reason. A line that is also an order of
the game is never read as one of these: these words are not in any game's notation."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from functools import lru_cache
from typing import Callable

from sqlmodel import Session

from server.catalogue import N_
from server.i18n import LOCALES, gettext
from server.services import extensions, pauses

# The commands as the help and the answers write them (translated: each language's players
# write their own words; English is read from every player).
_ACTIONS: dict[str, Callable] = {
    N_("pause"): lambda s, g, seat, now: pauses.ask(s, g, seat, now),
    N_("pause yes"): lambda s, g, seat, now: pauses.answer(s, g, seat, True, now),
    N_("pause no"): lambda s, g, seat, now: pauses.answer(s, g, seat, False, now),
    N_("resume"): lambda s, g, seat, now: pauses.resume(s, g, seat, now),
    N_("extend"): lambda s, g, seat, now: extensions.ask(s, g, seat, now),
    N_("extend yes"): lambda s, g, seat, now: extensions.answer(s, g, seat, True, now),
    N_("extend no"): lambda s, g, seat, now: extensions.answer(s, g, seat, False, now),
}
COMMANDS = tuple(_ACTIONS)

_AROUND = "\"'“”‘’「」『』«»()[].!！。．¡¿?？ \t"


def _normal(text: str) -> str:
    """The line without case, accents, spacing or the quotes and marks around it."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"\s+", "", text.strip(_AROUND))


@lru_cache(maxsize=1)
def _words() -> dict[str, str]:
    """{every spelling of a command, normalised: the command}."""
    found = {}
    for command in COMMANDS:
        for spelling in [command] + [gettext(command, locale) for locale in LOCALES]:
            found.setdefault(_normal(spelling), command)
    return found


def command_of(line: str) -> str | None:
    """The command (its English word, a key of the table) the line is, or None."""
    return _words().get(_normal(line))


def is_ask(line: str) -> bool:
    """Whether the line asks the other players something (a pause, more time)."""
    return command_of(line) in ("pause", "extend")


def is_line(line: str) -> bool:
    """Whether the reply's line is one of these."""
    return command_of(line) is not None


def apply(session: Session, game_id: int, seat: str, line: str, now: datetime) -> None:
    """Do what the line says for the seat; commits. Raise pauses.PauseError (extensions'
    errors are PauseErrors too)."""
    _ACTIONS[command_of(line)](session, game_id, seat, now)
