"""What a game's presentation package answers (``server/games/<game>/``): the shared layers ask
these and nothing else about a game. A game's presenter subclasses ``Presenter`` and is
registered with ``server.games.register``; every method without a body here must be given.

Sections: words (shared by mails and pages), mail, web. Every ``loc`` is a locale the server
supports ("en", "ja", "es"); every ``view`` is a seat's (or a spectator's) view, never a state.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

from babel.support import NullTranslations

from server.i18n import terms as term_tables
from server.i18n import supported, translations

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

    def english_terms(self) -> dict[str, dict]:
        """The game's own words in English by section ("seats", "cards", ...; "seats" at least,
        "words": its glossary), from its engine's data."""
        raise NotImplementedError

    def terms(self, loc: str | None) -> dict[str, dict]:
        """``english_terms`` in ``loc``'s words, as the translated rulebook prints them."""
        return _terms(self, supported(loc))

    def seat_names(self, loc: str | None) -> dict[str, str]:
        """Seat id -> the seat's name in ``loc``."""
        return dict(self.terms(loc)["seats"])

    def text_names(self, loc: str) -> dict[str, Callable]:
        """How the game's texts (engine messages, server/i18n/game_text.py) name their
        arguments, by kind ("seat", "card", "state", ...): kind -> a function of the argument."""
        seats = self.terms(loc)["seats"]
        return {"seat": lambda seat: seats.get(seat, seat)}

    def catalogue(self, loc: str) -> NullTranslations:
        """The translations of the game's texts (the notes, prompts and reasons of its engine):
        the ``game`` catalogue of server/translations."""
        return translations(supported(loc), "game")


@lru_cache(maxsize=None)
def _terms(presenter: Presenter, loc: str) -> dict[str, dict]:
    return term_tables.table(presenter.english_terms(), loc)
