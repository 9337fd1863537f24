"""What a game's presentation package answers (``server/games/<game>/``): the shared layers ask
these and nothing else about a game. A game's presenter subclasses ``Presenter`` and is
registered with ``server.games.register``; every method without a body here must be given.

Sections: words (shared by mails and pages), mail, web. Every ``loc`` is a locale the server
supports ("en", "ja", "es"); every ``view`` is a seat's (or a spectator's) view, never a state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]


class Presenter:
    game: str = ""  # the engine's game id

    @property
    def templates(self) -> Path:
        """The folder of the game's template parts: ``web/`` and ``email/`` under it."""
        return ROOT / "templates" / "games" / self.game

    def part(self, name: str) -> str:
        """The name a shared template includes the game's part ``name`` by
        (server/games/templates.py finds it in the layer's folder of ``templates``)."""
        return f"games/{self.game}/{name}"

    # ---- Words ---------------------------------------------------------------------------
    def title(self, loc: str) -> str:
        """The game's name, short ("1960")."""
        raise NotImplementedError

    def full_title(self, loc: str) -> str:
        """The game's name as its box prints it."""
        return self.title(loc)

    def seat_names(self, loc: str) -> dict[str, str]:
        """Seat id -> the seat's name in ``loc``."""
        raise NotImplementedError

    def terms(self, loc: str) -> dict[str, dict]:
        """The game's own words in ``loc`` by section ("seats", "cards", ...), as the translated
        rulebook prints them; "seats" at least."""
        return {"seats": self.seat_names(loc)}

    def text_names(self, loc: str) -> dict[str, Callable]:
        """How the game's texts (engine messages) name their arguments, by kind ("seat",
        "card", "state", ...): kind -> a function of the argument."""
        seats = self.seat_names(loc)
        return {"seat": lambda seat: seats.get(seat, seat)}
