"""Mr. President (1965): the chalkboard (1st) edition's National Campaign (short and long) and
Nominee versions, and the dial (2nd) edition by popular or electoral vote (long and short)."""
from engine.bots import register as register_bot
from engine.core.registry import GameInfo, register

from . import bots, chalkboard, dial, election, rounds, setup  # noqa: F401  (steps register)
from .flow import STEPS, THEN
from .setup import new
from .state import GAME_ID, OPTION_DEFAULTS, MrPresidentState, check_options, seats_for

MrPresidentState.STEPS = STEPS
MrPresidentState.THEN = THEN
register(GAME_ID, new, MrPresidentState.from_dict, GameInfo(
    GAME_ID, min_players=2, max_players=4, simultaneous=True, check_options=check_options,
    seats_for=lambda options: seats_for(options["players"]), option_defaults=OPTION_DEFAULTS,
    # The seats are alike, but a race of three or four is another game than a duel: one pool
    # per number of candidates ("3 candidates").
    rating_role=lambda _options, _seat, players: f"{players} candidates"))
register_bot(GAME_ID, "greedy", lambda **budget: bots.GreedyBot())
register_bot(GAME_ID, "strong", lambda **budget: bots.StrongBot(**budget))

__all__ = ["GAME_ID", "MrPresidentState", "new"]
