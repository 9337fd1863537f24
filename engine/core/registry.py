"""The game registry: game ids to the functions that start and restore a game."""
from .errors import OptionsError

_GAMES: dict = {}


def register(game_id: str, new, from_dict) -> None:
    """Record a game: ``new(seed=, players=, options=)`` and ``from_dict(data, copy=)``."""
    _GAMES[game_id] = (new, from_dict)


def games() -> list:
    """Return the registered game ids, sorted."""
    _load_builtin()
    return sorted(_GAMES)


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
    from engine.games import mrpresident, tmotp  # noqa: F401  (register themselves)
