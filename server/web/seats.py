"""The games' seats and titles in the reader's words, for the pages that list games or name a
seat whatever the game (the lobby, the open game, the game page, the link page, the replay)."""

from __future__ import annotations

from server.mail.terms import terms
from server.web import mrpresident_words
from server.web.words import _


def names(game_type: str, loc: str) -> dict[str, str]:
    """Seat id -> its name: Kennedy and Nixon in 1960, Candidate 1 ... 4 in Mr. President."""
    if game_type == "mrpresident":
        return mrpresident_words.seat_names(loc)
    return dict(terms(loc)["seats"])


def title(game_type: str) -> str:
    """The game's name, short."""
    return {"tmotp": _("1960"), "mrpresident": _("Mr. President")}.get(game_type, game_type)
