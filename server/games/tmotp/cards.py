"""1960's cards in the reader's language: every campaign card's name and event text, the two
candidate cards' and the sixteen endorsement cards' names, from
``server/translations/cards.<locale>.json`` (its shape: ``campaign`` id -> {"name", "event"},
``candidates`` seat -> {"name"}, ``endorsements`` id -> {"name"}; ids are strings). The
translations use the translated rulebook's words (the glossary of server/translations/README.md)
and keep the names that rulebook prints for a card itself; the files keep the states' English
names, which ``event`` gives in the reader's words (terms.<locale>.json, "states").

English comes from the engine's data (engine/games/tmotp/data): for ``en``, for a locale without
a file, and for any entry a file lacks."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from engine.games.tmotp.data import CANDIDATES, CARDS, ENDORSEMENTS, STATES
from server.i18n import TRANSLATIONS, supported
from server.i18n import terms as term_tables


def path(locale: str) -> Path:
    """Where a locale's card translations are kept."""
    return TRANSLATIONS / f"cards.{locale}.json"


@lru_cache(maxsize=None)
def translated(locale: str) -> dict:
    """The card file of a supported locale as it is kept, or {} (English, or no file)."""
    if locale == "en" or not path(locale).is_file():
        return {}
    return json.loads(path(locale).read_text("utf-8"))


def _entry(section: str, key, locale: str | None) -> dict:
    return translated(supported(locale)).get(section, {}).get(str(key)) or {}


def name(card_id: int, locale: str | None = "en") -> str:
    """A campaign card's name (no number)."""
    return _entry("campaign", card_id, locale).get("name") or CARDS[int(card_id)]["name"]


def event(card_id: int, locale: str | None = "en") -> str:
    """A campaign card's event text, the states it names in ``locale``'s words."""
    text = _entry("campaign", card_id, locale).get("event")
    if text:
        return _states_named(text, supported(locale))
    return CARDS[int(card_id)].get("effect") or ""


@lru_cache(maxsize=None)
def _state_names(locale: str) -> tuple[re.Pattern, dict[str, str]] | None:
    """A pattern finding the states' English names, longest first ("West Virginia" before
    "Virginia"), and each one's name in ``locale`` (terms.<locale>.json, "states")."""
    words = term_tables.table({"states": {c: s["name"] for c, s in STATES.items()}}, locale)
    names = {STATES[code]["name"]: said for code, said in words["states"].items()
             if said != STATES[code]["name"]}
    if not names:
        return None
    found = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, found)) + r")(?![A-Za-z])"), names


def _states_named(text: str, locale: str) -> str:
    """A translated event text as the reader reads it: the card files keep the states' English
    names (the translations were checked against them, tests/i18n); the reader sees the names
    of their language (issue 47, item 5), as in the log and the mails."""
    pattern = _state_names(locale)
    return pattern[0].sub(lambda m: pattern[1][m.group(0)], text) if pattern else text


def candidate_name(seat: str, locale: str | None = "en") -> str:
    """A candidate card's name ("John F. Kennedy")."""
    return _entry("candidates", seat, locale).get("name") or CANDIDATES[seat]["name"]


def endorsement_name(endorsement_id: int, locale: str | None = "en") -> str:
    """An endorsement card's name ("Endorsement in the West", "Major Endorsement")."""
    return (_entry("endorsements", endorsement_id, locale).get("name")
            or ENDORSEMENTS[int(endorsement_id)]["name"])


def names(locale: str | None, printed: dict[str, dict] | None = None) -> dict[str, dict]:
    """Every card's name in ``locale``, as sections of the game's terms: ``cards`` (campaign
    card id -> name), ``candidates`` (seat -> name), ``endorsements`` (id -> name). Where the
    file has no entry, the name ``printed`` gives (section -> key -> name: the terms file's,
    server/i18n/terms.py), else the English."""
    printed = printed or {}
    sections = {"cards": ("campaign", CARDS, name), "candidates": ("candidates", CANDIDATES,
                                                                   candidate_name),
                "endorsements": ("endorsements", ENDORSEMENTS, endorsement_name)}
    found = {}
    for section, (kept, keys, english) in sections.items():
        found[section] = {key: _entry(kept, key, locale).get("name")
                          or printed.get(section, {}).get(key) or english(key)
                          for key in keys}
    return found
