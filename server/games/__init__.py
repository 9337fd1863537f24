"""How each game looks above its engine: one presentation package per game
(``server/games/<game>/``, its templates under ``templates/games/<game>/``), found here by the
engine's game id. The shared layers (``server/web``, ``server/mail``, ``templates/web``,
``templates/email``) never name a game: they ask ``presenter(game_id)``.

The built-in games' presenters are the packages named like the games of ``engine/games``; a
game registered from elsewhere (a test's game) registers its presenter with ``register``. A
game id without a presenter is an error (``UnknownGame``), never another game's looks.
"""

from __future__ import annotations

import importlib

import engine.core as game_engine
from engine.games import GAMES
from server.games.presenter import Presenter

_PRESENTERS: dict[str, Presenter] = {}


class UnknownGame(LookupError):
    """No presenter for this game id."""


def register(presenter: Presenter) -> Presenter:
    """Record a game's presenter (by its ``game`` id); returns it."""
    _PRESENTERS[presenter.game] = presenter
    return presenter


def unregister(game_id: str) -> None:
    """Forget a presenter registered from elsewhere than server/games (a test's game)."""
    _PRESENTERS.pop(game_id, None)


def presenter(game_id: str | None) -> Presenter:
    """The presenter of ``game_id``; UnknownGame if the game has none."""
    found = _PRESENTERS.get(game_id or "")
    if found is None and game_id:
        _load_builtin(game_id)
        found = _PRESENTERS.get(game_id)
    if found is None:
        raise UnknownGame(f"no presenter for the game {game_id!r}")
    return found


def presenters() -> list[Presenter]:
    """Every registered game's presenter: the built-in games in the order engine/games lists
    them (``GAMES``: the lobby's order), then any other registered game's, by id."""
    listed = {game_id: n for n, game_id in enumerate(GAMES)}
    found = []
    for game_id in sorted(game_engine.games(), key=lambda g: (listed.get(g, len(listed)), g)):
        try:
            found.append(presenter(game_id))
        except UnknownGame:
            continue
    return found


def _load_builtin(game_id: str) -> None:
    """Import ``server.games.<game_id>``, which registers its presenter (built-in games only:
    a name that is not a package here is simply not found)."""
    if not game_id.isidentifier():
        return
    try:
        importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{game_id}":
            raise
