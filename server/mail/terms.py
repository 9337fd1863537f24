"""The game's own words in the recipient's language: the names of seats, issues, regions and
cards, and the glossary of the rulebook's terms (momentum, endorsement, media, ...), each as the
translated GMT rulebook prints it. English comes from the engine's data; Japanese and Spanish
from `server/translations/terms.<locale>.json`, where every entry cites its rulebook line.

Card names: a card takes the translated rulebook's name only where that rulebook names the card
itself in its own language (in quotes beside the English title, or as a heading); every other card
keeps its English name, because the printed cards are English. See server/translations/README.md.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

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
         "leads": "leads", "carries": "carried"}

ENGLISH = {"seats": SEAT_NAMES, "issues": ISSUE_NAMES, "regions": REGION_NAMES,
           "cards": {card_id: card["name"] for card_id, card in CARDS.items()}, "words": WORDS}


def entries(locale: str) -> dict[str, dict[str, dict]]:
    """The terms file of a translated locale: section -> key -> {"text", "line" or "why"}."""
    return json.loads((TERMS / f"terms.{locale}.json").read_text("utf-8"))["terms"]


@lru_cache(maxsize=None)
def _terms(locale: str) -> dict[str, dict]:
    if locale == "en":
        return ENGLISH
    table = {section: {key: entry["text"] for key, entry in keyed.items()}
             for section, keyed in entries(locale).items()}
    table["cards"] = {**ENGLISH["cards"], **{int(k): v for k, v in table["cards"].items()}}
    return table


def terms(locale: str | None) -> dict[str, dict]:
    """{"seats", "issues", "regions", "cards", "words"}: key -> the word in that locale."""
    return _terms(supported(locale))
