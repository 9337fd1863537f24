"""The game's own texts in the reader's language: the engine's notes (what happened), prompts
(what is being decided) and reasons (why an order is refused), and the server's reasons that
travel with them. Each is a message (``engine.core.messages``): an English template, the id of
the ``game`` catalogue (``server/translations/<locale>/LC_MESSAGES/game.po``), and arguments
whose names are shown in the rulebook's words (``terms``). One naming table serves both games:
their kinds do not collide (1960's ``card``, Mr. President's ``campaign``, ``party`` and
``side``; seats kennedy/nixon and p1..p4).

Rulings:
- State names stay as the engines' data print them (English): neither translated rulebook names
  the states in its own language, and orders name them by their codes.
- A party's name carries its article, as the English does ("the Republican Party", "el Partido
  Republicano"): a text that begins with a party or a side begins with a capital, and Spanish
  contracts a preposition before the article ("de el" -> "del", "a el" -> "al"), as its grammar
  requires.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Union

from engine.core.messages import Message, data, kind, render
from engine.games.mrpresident.data import STATES as MRPRESIDENT_STATES
from engine.games.tmotp.data import STATES as TMOTP_STATES
from server.mail.render import supported, translations
from server.mail.terms import terms

# A message as it comes: a Message, its data form [template, args], or plain text (a template
# without arguments: translated when the catalogue has it, else shown as it is).
Text = Union[Message, list, tuple, str]

JOIN = {"en": ", ", "es": ", ", "ja": "、"}
# 1960's states and Mr. President's (the same 50, and the District of Columbia).
STATE_NAMES = {code: state["name"] for states in (MRPRESIDENT_STATES, TMOTP_STATES)
               for code, state in states.items()}
# Kinds whose names may begin a text in lower case (a party's article).
ARTICLED = ("party", "side")
CONTRACTIONS = {"es": ((re.compile(r"\bde el\b"), "del"), (re.compile(r"\ba el\b"), "al"))}
FIRST = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def _names(locale: str) -> dict:
    words = terms(locale)
    seats, cards, campaigns = words["seats"], words["cards"], words["campaigns"]
    parties = words["parties"]
    return {"seat": lambda seat: seats.get(seat, seat), "card": lambda cid: cards[int(cid)],
            "campaign": lambda cid: campaigns[int(cid)],
            "state": lambda code: STATE_NAMES[code], "issue": words["issues"].__getitem__,
            "region": words["regions"].__getitem__, "party": parties.__getitem__,
            "side": lambda side: parties.get(side) or seats.get(side, side)}


def initial(text: str) -> str:
    """``text`` with a capital first letter (a sentence that begins with a party's article)."""
    return text[:1].upper() + text[1:]


def contract(text: str, locale: str) -> str:
    """Spanish contracts a preposition with the article of a name after it ("de el Partido" ->
    "del Partido"); other languages as they are."""
    for pattern, contracted in CONTRACTIONS.get(supported(locale), ()):
        text = pattern.sub(contracted, text)
    return text


def _finish(text: str, template: str, locale: str) -> str:
    """A rendered text as the language writes it: its first letter a capital when it begins
    with an articled name, Spanish prepositions contracted with the article."""
    text = contract(text, locale)
    first = FIRST.match(template)
    named = kind(first.group(1)) if first else ""
    articled = named in ARTICLED or (named.endswith("s") and named[:-1] in ARTICLED)
    return initial(text) if articled else text


def text(value: Text | None, locale: str | None) -> str:
    """``value`` in ``locale``'s words ("" for None)."""
    if value is None:
        return ""
    template, args = data(value) if isinstance(value, str) else value
    locale = supported(locale)
    if locale == "en" and isinstance(value, str):
        return _finish(str(value), template, locale)
    separator = JOIN[locale]
    translate = translations(locale, "game").gettext
    return _finish(render(template, args, _names(locale), translate, separator.join),
                   translate(template), locale)


def texts(values, locale: str | None) -> list[str]:
    return [text(value, locale) for value in values]
