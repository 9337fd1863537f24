"""Mr. President's names in the reader's words: its title, seats (Candidate 1 to 4), parties and
campaign cards (server/i18n/terms.py), and how its texts name what they speak of
(server/i18n/game_text.py). Mr. President (1965) has no translated rulebook: its campaign cards,
candidates, parties and states take their languages' words (issue 47: a player reads the whole
game in one language; a card's number goes with its name)."""

from __future__ import annotations

from engine.games.mrpresident.data import CARDS, PARTY_NAMES, SEAT_NAMES, STATES
from server.catalogue import N_
from server.i18n import gettext

TITLE = N_("Mr. President")
# A rating pool: the engine's "<n> candidates" (engine/games/mrpresident/__init__.py).
CANDIDATES = N_("%(n)s candidates")

WORDS = {"title_mrpresident": "Mr. President"}

# The states as the engine's data names them (English); Japanese and Spanish as 1960's
# (terms.<locale>.json, section "states", which also names the District of Columbia).
STATE_NAMES = {code: state["name"] for code, state in STATES.items()}

ENGLISH = {"seats": dict(SEAT_NAMES), "parties": dict(PARTY_NAMES),
           "campaigns": {card_id: card["name"] for card_id, card in CARDS.items()},
           "words": WORDS, "states": dict(STATE_NAMES)}


class Words:
    def title(self, loc: str) -> str:
        return gettext(TITLE, loc)

    def english_terms(self) -> dict[str, dict]:
        return ENGLISH

    def rating_role_name(self, role: str, loc: str) -> str:
        count = role.split(" ")[0]
        return gettext(CANDIDATES, loc) % {"n": count} if count.isdigit() else role

    def text_names(self, loc: str) -> dict:
        words = self.terms(loc)
        seats, campaigns, parties = words["seats"], words["campaigns"], words["parties"]
        return {"seat": lambda seat: seats.get(seat, seat),
                "campaign": lambda cid: campaigns[int(cid)],
                "state": words["states"].__getitem__, "party": parties.__getitem__,
                "side": lambda side: parties.get(side) or seats.get(side, side)}
