"""The games' seats and titles in the reader's words, for the pages that list games or name a
seat whatever the game (the lobby, the open game, the game page, the link page, the replay)."""

from __future__ import annotations

from server.games import presenter
from server.web.words import locale


def names(game_type: str, loc: str) -> dict[str, str]:
    """Seat id -> its name, as the game's presenter gives them."""
    return presenter(game_type).seat_names(loc)


def title(game_type: str) -> str:
    """The game's name, short."""
    return presenter(game_type).title(locale())
