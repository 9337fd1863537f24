"""The games' own words in the recipient's language: the names of seats, issues, regions, cards,
parties and campaign cards, and the glossary of the rulebook's terms (momentum, endorsement,
media, ...), each as the translated rulebook prints it. English comes from the engines' data;
Japanese and Spanish from `server/translations/terms.<locale>.json`, where every entry cites its
rulebook line, or says why none prints it.

One table serves both games: their kinds do not collide (1960's ``card`` is not Mr. President's
``campaign``; seats are kennedy/nixon and p1..p4).

Card names: a card takes the translated rulebook's name only where that rulebook names the card
itself in its own language (in quotes beside the English title, or as a heading); every other card
keeps its English name, because the printed cards are English. Mr. President (1965) has no
translated rulebook, so its campaign cards keep their printed names too. See
server/translations/README.md.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.games.mrpresident import data as mrpresident
from engine.games.tmotp.data import CARDS, ISSUE_NAMES, REGION_NAMES, SEAT_NAMES
from server.mail.render import supported

TERMS = Path(__file__).resolve().parents[1] / "translations"

# The glossary in English: a message that uses one of these words must use the rulebook's word
# for it in every translation (tests/mail/test_translations.py).
WORDS = {"title": "1960: The Making of the President", "momentum": "Momentum",
         "endorsement": "Endorsement", "media": "Media", "issue": "Issue",
         "electoral_votes": "electoral votes", "support_cubes": "support cubes",
         "campaign_strategy": "Campaign Strategy", "debates": "Debates",
         "election_day": "Election Day", "candidate": "candidate", "hand": "hand", "turn": "turn",
         "leads": "leads", "carries": "carried", "title_mrpresident": "Mr. President"}

ENGLISH = {"seats": {**SEAT_NAMES, **mrpresident.SEAT_NAMES}, "issues": ISSUE_NAMES,
           "regions": REGION_NAMES,
           "cards": {card_id: card["name"] for card_id, card in CARDS.items()},
           "campaigns": {card_id: card["name"] for card_id, card in mrpresident.CARDS.items()},
           "parties": dict(mrpresident.PARTY_NAMES), "words": WORDS}

# Sections keyed by a card's number (JSON keys are strings), and filled from the English where a
# locale keeps the printed name.
NUMBERED = ("cards", "campaigns")


def entries(locale: str) -> dict[str, dict[str, dict]]:
    """The terms file of a translated locale: section -> key -> {"text", "line" or "why"}."""
    return json.loads((TERMS / f"terms.{locale}.json").read_text("utf-8"))["terms"]


@lru_cache(maxsize=None)
def _terms(locale: str) -> dict[str, dict]:
    if locale == "en":
        return ENGLISH
    table = {section: {key: entry["text"] for key, entry in keyed.items()}
             for section, keyed in entries(locale).items()}
    for section in NUMBERED:
        table[section] = {**ENGLISH[section],
                          **{int(k): v for k, v in table.get(section, {}).items()}}
    return table


def terms(locale: str | None) -> dict[str, dict]:
    """{"seats", "issues", "regions", "cards", "campaigns", "parties", "words"}: key -> the word
    in that locale."""
    return _terms(supported(locale))
