"""Bots: players that decide for one seat from that seat's view only.

A bot is an object with ``choose(view, rng) -> str``: ``view`` is ``state.view(seat)`` (the
same dict the API, the pages and the mails render, with the seat's ``legal_actions``), ``rng``
a ``random.Random`` the caller seeds (so a bot's decision is reproducible, and logged like any
other order). A bot never sees the state: it cannot read another seat's hand or sealed cards.
Its budget is a number of iterations, never a clock (the engine has none).

``make(game_id, level, **budget)`` returns a bot: ``random`` for every game; the games add their
own (``greedy``, ``strong``) by ``register``.
"""
from __future__ import annotations

import random

from engine.core.errors import OptionsError

_BOTS: dict = {}


class RandomBot:
    """A uniformly random legal action: the baseline every game has."""

    level = "random"

    def choose(self, view: dict, rng: random.Random) -> str:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("the seat has nothing to decide")
        return rng.choice(legal)


def register(game_id: str, level: str, factory) -> None:
    """Record ``factory(**budget)`` as the bot ``level`` of ``game_id``."""
    _BOTS[(game_id, level)] = factory


def levels(game_id: str) -> list:
    """The bot levels ``game_id`` offers, weakest first."""
    _load_builtin()
    return ["random"] + [lv for g, lv in _BOTS if g == game_id]


def make(game_id: str, level: str = "random", **budget):
    """Return a bot of ``level`` for ``game_id``; OptionsError names the levels there are."""
    _load_builtin()
    if level == "random":
        return RandomBot()
    try:
        factory = _BOTS[(game_id, level)]
    except KeyError:
        raise OptionsError(f"No bot '{level}' for {game_id}; there are "
                           f"{', '.join(levels(game_id))}.") from None
    return factory(**budget)


def decision_rng(seed, log_length: int, seat: str) -> random.Random:
    """The generator of a bot's decision at a log position: from the game's seed (kept secret
    until the game ends), the position and the seat, so a retried decision is the same."""
    return random.Random(f"bot/{seed}/{log_length}/{seat}")


def play_match(game_id: str, seed, bots: dict, *, options=None, decide=None):
    """Play a whole game with a bot in every seat (``bots``: seat -> bot); return the final
    state. Chance is drawn from the seed, as the server draws it; each bot sees only its view.
    ``decide(seat, bot, view, rng)`` (optional) stands for ``bot.choose(view, rng)``, to time it."""
    from engine.core import CHANCE, DeadEnd, new_game, sample_chance
    state = new_game(game_id, seed=seed, options=options)
    while True:
        active = state.active()
        if not active:
            return state
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
            continue
        for seat in active:
            view = state.view(seat)
            if not view["legal_actions"]:
                raise DeadEnd(f"{seat} must act but has no legal action")
            rng = decision_rng(seed, state.log_length(), seat)
            bot = bots[seat]
            action = decide(seat, bot, view, rng) if decide else bot.choose(view, rng)
            state.apply(seat, action)
            if state.active() != active:
                break


def _load_builtin() -> None:
    from engine.core.registry import games
    games()     # the games register their bots as they load
