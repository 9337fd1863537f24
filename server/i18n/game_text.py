"""A game's own texts in the reader's language: the engine's notes (what happened), prompts
(what is being decided) and reasons (why an order is refused), and the server's reasons that
travel with them. Each is a message (``engine.core.messages``): an English template, the id in
the game's catalogue (its presenter's ``catalogue``: the ``game`` catalogue of
``server/translations`` for the built-in games), and arguments whose names are shown in the
game's words (its presenter's ``text_names``, by the argument's kind).

Rulings:
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
from server.games import Presenter, presenter
from server.i18n import supported

# A message as it comes: a Message, its data form [template, args], or plain text (a template
# without arguments: translated when the catalogue has it, else shown as it is).
Text = Union[Message, list, tuple, str]

JOIN = {"en": ", ", "es": ", ", "ja": "、"}
# Kinds whose names may begin a text in lower case (a party's article).
ARTICLED = ("party", "side")
CONTRACTIONS = {"es": ((re.compile(r"\bde el\b"), "del"), (re.compile(r"\ba el\b"), "al"))}
FIRST = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def _names(shown: Presenter, locale: str) -> dict:
    return shown.text_names(locale)


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


def text(value: Text | None, locale: str | None, game: str) -> str:
    """``value``, a text of ``game``, in ``locale``'s words ("" for None)."""
    if value is None:
        return ""
    template, args = data(value) if isinstance(value, str) else value
    locale = supported(locale)
    if locale == "en" and isinstance(value, str):
        return _finish(str(value), template, locale)
    separator = JOIN[locale]
    translate = presenter(game).catalogue(locale).gettext
    return _finish(render(template, args, _names(presenter(game), locale), translate, separator.join),
                   translate(template), locale)


def texts(values, locale: str | None, game: str) -> list[str]:
    return [text(value, locale, game) for value in values]
