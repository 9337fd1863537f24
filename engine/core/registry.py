"""The game registry: game ids to the functions that start and restore a game, and what each
game declares of itself (``GameInfo``), so that a lobby learns a game's seats and options
without building one. The games themselves are listed in ``engine/games/__init__.py``; a game
may also be registered from elsewhere (a test's game)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from .errors import OptionsError

_GAMES: dict = {}
_INFO: dict = {}


@dataclass(frozen=True)
class GameInfo:
    """What a game declares of itself.

    ``check_options(options) -> options``: the full option set (defaults filled in), or
    OptionsError naming what is wrong; ``seats_for(checked options) -> seats``;
    ``standing_policies``: {kind: values} of the standing orders a seat may file to answer a
    decision of the game in advance (``"ask"`` among the values files none); the state says
    which kind answers the decision a seat has now, and how
    (``GameState.standing_policy`` / ``standing_answer``). A game without such decisions
    declares none.
    ``rating_role(checked options, seat, players) -> str``: the role pool a seat's player is
    rated in (issue 27: ratings per role in an asymmetric game): players of one pool are
    compared with each other only. None: each seat is its own pool (its id)."""
    game_id: str
    min_players: int
    max_players: int
    simultaneous: bool  # whether some steps are sealed and resolved once every seat committed
    check_options: Callable[[dict], dict]
    seats_for: Callable[[dict], "list[str] | tuple[str, ...]"]
    option_defaults: Mapping[str, object] = field(default_factory=dict)
    standing_policies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rating_role: "Callable[[dict, str, int], str] | None" = None

    def role_of(self, options: dict | None, seat: str) -> str:
        """The rating pool of ``seat`` in a game with these options (OptionsError if bad)."""
        checked = self.check_options(dict(options or {}))
        players = len(tuple(self.seats_for(checked)))
        return self.rating_role(checked, seat, players) if self.rating_role else seat

    def seats(self, options: dict | None = None) -> tuple[str, ...]:
        """The seats of a game with these options (raises OptionsError if they are bad)."""
        return tuple(self.seats_for(self.check_options(dict(options or {}))))


def register(game_id: str, new, from_dict, info: GameInfo | None = None) -> None:
    """Record a game: ``new(seed=, players=, options=)`` and ``from_dict(data, copy=)``, and
    what it declares of itself."""
    _GAMES[game_id] = (new, from_dict)
    if info is not None:
        _INFO[game_id] = info


def unregister(game_id: str) -> None:
    """Forget a game registered from elsewhere than engine/games (a test's game)."""
    _GAMES.pop(game_id, None)
    _INFO.pop(game_id, None)


def games() -> list:
    """Return the registered game ids, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def info(game_id: str) -> GameInfo:
    """What ``game_id`` declares of itself; OptionsError naming the games if there is none."""
    _lookup(game_id)
    try:
        return _INFO[game_id]
    except KeyError:
        raise OptionsError(f"The game '{game_id}' declares no seats or options.") from None


def new_game(game_id: str, *, seed, players=None, options=None):
    """Return the opening state of ``game_id``."""
    return _lookup(game_id)[0](seed=seed, players=players, options=options or {})


def from_dict(data: dict, copy: bool = True):
    """Return the state stored in ``data`` (as made by ``state.to_dict()``).

    ``copy=False`` hands ``data`` over to the state instead of copying it: for a dict just
    decoded from storage that nothing else will use (the copy of a late game's state costs
    more than its view). The state may change it as it plays on."""
    return _lookup(data["game"])[1](data, copy=copy)


def _lookup(game_id):
    _load_builtin()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise OptionsError(f"No game '{game_id}'; the games are {', '.join(sorted(_GAMES))}.") from None


def _load_builtin() -> None:
    # Every time, not only when nothing is registered: one game imported on its own (its bots,
    # say) must not hide the others. A second import is a dictionary look-up.
    import engine.games  # noqa: F401  (the list of games; each registers itself)
