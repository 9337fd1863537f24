"""1960: The Making of the President (GMT 2nd edition and Z-Man 1st edition)."""
from engine.bots import register as register_bot
from engine.core.registry import GameInfo, register

from . import bag, bots, campaign_points, debates, election_day, momentum, strategy, turn  # noqa: F401
from .events import common  # noqa: F401
from .flow import STEPS, THEN
from .setup import new
from .standing import POLICIES
from .data import SEATS
from .state import GAME_ID, OPTION_DEFAULTS, TmotpState, check_options

TmotpState.STEPS = STEPS
TmotpState.THEN = THEN
register(GAME_ID, new, TmotpState.from_dict, GameInfo(
    GAME_ID, min_players=2, max_players=2, simultaneous=True, check_options=check_options,
    seats_for=lambda _options: SEATS, option_defaults=OPTION_DEFAULTS,
    standing_policies=POLICIES,
    # Kennedy and Nixon are rated apart: an asymmetric game's sides are different skills.
    rating_role=lambda _options, seat, _players: seat))
register_bot(GAME_ID, "greedy", lambda **budget: bots.GreedyBot())
register_bot(GAME_ID, "strong", lambda **budget: bots.StrongBot(**budget))

__all__ = ["GAME_ID", "TmotpState", "new"]
