"""1960's names in the reader's words: its title, seats (Kennedy, Nixon), issues, regions and
the rulebook's glossary, as the translated rulebooks print them (server/i18n/terms.py); its cards
(campaign, candidate and endorsement cards), each translated in those rulebooks' words
(server/games/tmotp/cards.py, server/translations/cards.<locale>.json); and how its texts name
what they speak of (server/i18n/game_text.py)."""

from __future__ import annotations

from functools import lru_cache

from engine.games.tmotp.data import (CANDIDATES, CARDS, ENDORSEMENTS, ISSUE_NAMES, REGION_NAMES,
                                     SEAT_NAMES, STATES)
from server.catalogue import N_
from server.games.tmotp import cards
from server.i18n import gettext, supported
from server.i18n import terms as term_tables

TITLE = N_("1960")

# The glossary in English: a message that uses one of these words must use the rulebook's word
# for it in every translation (tests/mail/test_translations.py).
WORDS = {"title": "1960: The Making of the President", "momentum": "Momentum",
         "endorsement": "Endorsement", "media": "Media", "issue": "Issue",
         "electoral_votes": "electoral votes", "support_cubes": "support cubes",
         "campaign_strategy": "Campaign Strategy", "debates": "Debates",
         "election_day": "Election Day", "candidate": "candidate", "hand": "hand", "turn": "turn",
         "leads": "leads", "carries": "carried"}

# The states' names (issue 47, item 5): Japanese and Spanish name them as their rulebooks do
# ("ニューヨーク州", "Nueva York"; terms.<locale>.json, section "states"); orders still name them by
# their codes (NY), the notation.
STATE_NAMES = {code: state["name"] for code, state in STATES.items()}

ENGLISH = {"seats": dict(SEAT_NAMES), "issues": dict(ISSUE_NAMES), "regions": dict(REGION_NAMES),
           "cards": {card_id: card["name"] for card_id, card in CARDS.items()}, "words": WORDS,
           "candidates": {seat: card["name"] for seat, card in CANDIDATES.items()},
           "endorsements": {eid: card["name"] for eid, card in ENDORSEMENTS.items()},
           "states": dict(STATE_NAMES)}


class Words:
    def title(self, loc: str) -> str:
        return gettext(TITLE, loc)

    def full_title(self, loc: str) -> str:
        return self.terms(loc)["words"]["title"]

    def english_terms(self) -> dict[str, dict]:
        return ENGLISH

    def terms(self, loc: str | None) -> dict[str, dict]:
        """The terms of server/i18n/terms.py, every card named in ``loc``'s words: ``cards``,
        ``candidates`` and ``endorsements`` from the game's card translations (cards.py)."""
        return _terms(supported(loc))

    def text_names(self, loc: str) -> dict:
        words = self.terms(loc)
        seats, card_names = words["seats"], words["cards"]
        return {"seat": lambda seat: seats.get(seat, seat),
                "card": lambda cid: card_names[int(cid)],
                "state": words["states"].__getitem__, "issue": words["issues"].__getitem__,
                "region": words["regions"].__getitem__}


@lru_cache(maxsize=None)
def _terms(loc: str) -> dict[str, dict]:
    found = term_tables.table(ENGLISH, loc)
    return {**found, **cards.names(loc, printed=found)}
