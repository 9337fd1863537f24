"""The game protocol shared by every game: state, actions, chance, errors, registry, driver."""
from . import history
from .driver import DeadEnd, advance_chance, chance_rng, play_random, replay, sample_chance
from .errors import ActionError, IllegalAction, MalformedAction, OptionsError
from .notation import Action
from .protocol import CHANCE, GameState, Outcome, Termination
from .retract import may_retract, why_final
from .registry import GameInfo, from_dict, games, info, new_game, register

__all__ = [
    "Action", "ActionError", "CHANCE", "DeadEnd", "GameInfo", "GameState", "IllegalAction",
    "MalformedAction", "OptionsError", "Outcome", "advance_chance", "chance_rng", "from_dict",
    "games", "history", "info", "may_retract", "new_game",
    "play_random", "register", "replay", "sample_chance", "Termination", "why_final",
]
