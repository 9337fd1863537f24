"""Sealed Bid, the game that lives only in the tests: its engine part (rules.py, NOTATION.md), its
presentation part (presenter.py, templates/, ja.po). ``register()`` makes it one of the server's
games, as a game of engine/games and server/games is; tests/conftest.py registers it for the
whole suite, so every shared page, mail and check runs with it too.

``FILES``: every file the game needed. None is under server/, workers/, templates/ or
engine/core/ (tests/games/test_sealed_bid.py checks it)."""

from __future__ import annotations

from pathlib import Path

import engine.core.registry as engine_registry
import server.games as presenters
from tests.games.sealedbid import rules
from tests.games.sealedbid.presenter import PRESENTER

HERE = Path(__file__).resolve().parent
FILES = sorted(str(path.relative_to(HERE.parents[2])) for path in HERE.rglob("*")
               if path.is_file() and "__pycache__" not in path.parts)


def register() -> None:
    """Make Sealed Bid one of the server's games: its rules and its looks."""
    rules.register_rules()
    presenters.register(PRESENTER)


def unregister() -> None:
    engine_registry.unregister(rules.GAME_ID)
    presenters.unregister(rules.GAME_ID)
