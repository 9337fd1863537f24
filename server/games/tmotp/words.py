"""1960's names in the reader's words: its title, seats (Kennedy, Nixon), issues, regions, cards
and the rulebook's glossary, as the translated rulebooks print them (server/i18n/terms.py), and
how its texts name what they speak of (server/i18n/game_text.py)."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS, ISSUE_NAMES, REGION_NAMES, SEAT_NAMES, STATES
from server.catalogue import N_
from server.i18n import gettext

TITLE = N_("1960")

# The glossary in English: a message that uses one of these words must use the rulebook's word
# for it in every translation (tests/mail/test_translations.py).
WORDS = {"title": "1960: The Making of the President", "momentum": "Momentum",
         "endorsement": "Endorsement", "media": "Media", "issue": "Issue",
         "electoral_votes": "electoral votes", "support_cubes": "support cubes",
         "campaign_strategy": "Campaign Strategy", "debates": "Debates",
         "election_day": "Election Day", "candidate": "candidate", "hand": "hand", "turn": "turn",
         "leads": "leads", "carries": "carried"}

ENGLISH = {"seats": dict(SEAT_NAMES), "issues": dict(ISSUE_NAMES), "regions": dict(REGION_NAMES),
           "cards": {card_id: card["name"] for card_id, card in CARDS.items()}, "words": WORDS}

# State names stay as the engine's data prints them (English): neither translated rulebook names
# the states in its own language, and orders name them by their codes.
STATE_NAMES = {code: state["name"] for code, state in STATES.items()}


class Words:
    def title(self, loc: str) -> str:
        return gettext(TITLE, loc)

    def full_title(self, loc: str) -> str:
        return self.terms(loc)["words"]["title"]

    def english_terms(self) -> dict[str, dict]:
        return ENGLISH

    def text_names(self, loc: str) -> dict:
        words = self.terms(loc)
        seats, cards = words["seats"], words["cards"]
        return {"seat": lambda seat: seats.get(seat, seat), "card": lambda cid: cards[int(cid)],
                "state": STATE_NAMES.__getitem__, "issue": words["issues"].__getitem__,
                "region": words["regions"].__getitem__}
