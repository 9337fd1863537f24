"""The game's own texts in the reader's language: the engine's notes (what happened), prompts
(what is being decided) and reasons (why an order is refused), and the server's reasons that
travel with them. Each is a message (``engine.core.messages``): an English template, the id of
the ``game`` catalogue (``server/translations/<locale>/LC_MESSAGES/game.po``), and arguments
whose names are shown in the rulebook's words (``terms``).

Ruling: state names stay as the engine's data prints them (English): neither translated
rulebook names the states in its own language, and orders name them by their codes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Union

from engine.core.messages import Message, data, render
from engine.games.tmotp.data import STATES
from server.mail.render import supported, translations
from server.mail.terms import terms

# A message as it comes: a Message, its data form [template, args], or plain text (a template
# without arguments: translated when the catalogue has it, else shown as it is).
Text = Union[Message, list, tuple, str]

JOIN = {"en": ", ", "es": ", ", "ja": "、"}


@lru_cache(maxsize=None)
def _names(locale: str) -> dict:
    words = terms(locale)
    seats, cards = words["seats"], words["cards"]
    return {"seat": lambda seat: seats.get(seat, seat), "card": lambda cid: cards[int(cid)],
            "state": lambda code: STATES[code]["name"], "issue": words["issues"].__getitem__,
            "region": words["regions"].__getitem__}


def text(value: Text | None, locale: str | None) -> str:
    """``value`` in ``locale``'s words ("" for None)."""
    if value is None:
        return ""
    template, args = data(value) if isinstance(value, str) else value
    locale = supported(locale)
    if locale == "en" and isinstance(value, str):
        return str(value)
    separator = JOIN[locale]
    return render(template, args, _names(locale), translations(locale, "game").gettext,
                  separator.join)


def texts(values, locale: str | None) -> list[str]:
    return [text(value, locale) for value in values]
