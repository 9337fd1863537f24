"""Mr. President's names in the reader's words: its title and seats (Candidate 1 to 4), and its
terms (server/mail/terms.py)."""

from __future__ import annotations

from engine.games.mrpresident.data import SEAT_NAMES
from server.catalogue import N_
from server.mail.render import gettext
from server.mail.terms import terms

TITLE = N_("Mr. President")


class Words:
    def title(self, loc: str) -> str:
        return gettext(TITLE, loc)

    def seat_names(self, loc: str) -> dict[str, str]:
        seats = terms(loc)["seats"]
        return {seat: seats[seat] for seat in SEAT_NAMES}
