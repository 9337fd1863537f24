"""1960's names in the reader's words: its title and seats (Kennedy, Nixon), and its terms as the
translated rulebooks print them (server/mail/terms.py)."""

from __future__ import annotations

from server.catalogue import N_
from server.mail.render import gettext
from server.mail.terms import terms

TITLE = N_("1960")


class Words:
    def title(self, loc: str) -> str:
        return gettext(TITLE, loc)

    def full_title(self, loc: str) -> str:
        return terms(loc)["words"]["title"]

    def seat_names(self, loc: str) -> dict[str, str]:
        seats = terms(loc)["seats"]
        return {seat: seats[seat] for seat in ("kennedy", "nixon")}
