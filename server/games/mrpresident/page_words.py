"""Mr. President's things in the reader's words, as only the pages need them: the candidates
(seats) and the campaign cards of the decision form (forms.py), the help page (help.py) and the
replay's hands. Every name is the game's own (words.py, as the mails and the log name them); the
other words (colour bands, places, the options) are the summary's (summary.py).
"""

from __future__ import annotations

from engine.games.mrpresident.data import CARD_VALUES, SEAT_NAMES
from server.games import presenter
import server.games.mrpresident.summary as summary_mrpresident
from server.web.words import _

SEATS = tuple(SEAT_NAMES)


def seat(seat_id: str | None, loc: str) -> str:
    """A candidate's name ("Candidate 1"), or "" for none."""
    return presenter("mrpresident").seat_names(loc).get(seat_id, seat_id) if seat_id else ""


def seat_names(loc: str) -> dict[str, str]:
    """Seat id -> name, Candidate 1 to 4."""
    return {s: seat(s, loc) for s in SEATS}


def card(cid: int, loc: str) -> dict:
    """A campaign card (summary_mrpresident.campaign), with its ``id`` and ``label`` for a form."""
    found = summary_mrpresident.campaign(int(cid), loc)
    return {**found, "id": found["number"],
            "label": _("%(name)s · %(points)s points", name=found["name"],
                       points=found["points"])}


def cards(ids, loc: str) -> list[dict]:
    return [card(c, loc) for c in ids]


def points(ids) -> int:
    return sum(CARD_VALUES[int(c)] for c in ids)
