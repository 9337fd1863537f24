"""A game's own words in the reader's language: the names of its seats and pieces, and the
glossary of its rulebook's terms, each as the translated rulebook prints it. The English comes
from the game's presenter (``english_terms``, from its engine's data); Japanese and Spanish from
`server/translations/terms.<locale>.json`, where every entry cites its rulebook line, or says
why none prints it. A word the file does not hold keeps its English.

Card names: the ``cards`` section of a terms file holds only the names a translated rulebook
prints for a card itself (in quotes beside the English title, or as a heading), each with its
line. A game whose cards are all translated, names and event texts in the rulebook's words, keeps
them in a file of its own under server/translations that its presenter lays over this table,
keeping the rulebook's names; a game without one keeps the names printed on its cards. See
server/translations/README.md.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from server.i18n import supported

TERMS = Path(__file__).resolve().parents[1] / "translations"


def entries(locale: str) -> dict[str, dict[str, dict]]:
    """The terms file of a translated locale: section -> key -> {"text", "line" or "why"}."""
    return json.loads((TERMS / f"terms.{locale}.json").read_text("utf-8"))["terms"]


@lru_cache(maxsize=None)
def _translated(locale: str) -> dict[str, dict[str, str]]:
    if locale == "en":
        return {}
    return {section: {key: entry["text"] for key, entry in keyed.items()}
            for section, keyed in entries(locale).items()}


def table(english: dict[str, dict], locale: str | None) -> dict[str, dict]:
    """``english`` (section -> key -> word) in ``locale``'s words, key by key (a JSON key is the
    string of a card's number)."""
    found = _translated(supported(locale))
    return {section: {key: found.get(section, {}).get(str(key), word)
                      for key, word in words.items()}
            for section, words in english.items()}
