"""Card events whose effects last until the end of the turn (issue 3, batch A).

Each entry: card id -> tuple of stages. The effects themselves are hooks in ``effects.py``; an
event puts its card in force (``s["effects"]``) and does whatever it does at once. Effects end
at the end of the turn (``effects.end_of_turn``).
"""
from ..board import issue_leader, lose
from ..data import STATES_BY_REGION
from ..effects import start_effect
from ..messages import msg
from .common import choose, move_token, remove_support


def _effect(cid, bound_to=None):
    """A stage that puts card ``cid``'s turn-long effect in force; ``bound_to(g, f)`` gives the
    seat it binds when the card names none ("the player")."""
    def stage(g, f):
        start_effect(g, cid, bound_to(g, f) if bound_to else None)
    return stage


def _lose_state_support(g, seat, state, n):
    k = lose(g.s["support"], state, seat, n)
    g.note("{seat} loses {n} state support in {state}.", seat=seat, n=k, state=state)


# 4 Citizens for Nixon-Lodge (Nixon): until the turn ends, each card Nixon plays counts as 1 CP
# higher than printed, never above 5 CP.                                     (effects.cp_value)

# 19 Old South (both): the Civil Rights leader takes 5 of his own state support cubes off
# Southern states (his choice, limited to what he has there) and is barred from Campaigning in
# the South for the rest of the turn. No leader: nothing happens.
def _old_south(g, f):
    seat = issue_leader(g.s, "civil_rights")
    if seat is None:
        g.note("Nobody leads {issue}: {card} has no effect.", issue="civil_rights", card=f["card"])
        return
    start_effect(g, 19, seat)
    g.note("{card}: {seat} leads {issue}: he takes 5 of his state support cubes off Southern "
           "states (as many as he has there) and may not Campaign in {region} this turn.",
           card=f["card"], seat=seat, issue="civil_rights", region="south")
    remove_support(g, seat, seat, 5, 5, STATES_BY_REGION["south"], optional=False)


# 20 Nixon Egged in Michigan (Kennedy): Nixon's token to Michigan; Nixon loses 1 support there;
# he may not Campaign in the Midwest for the rest of the turn.
def _nixon_egged(g, f):
    move_token(g, "nixon", "MI")
    _lose_state_support(g, "nixon", "MI", 1)


# 26 Ken-Air (Kennedy): until the turn ends, Kennedy pays no travel costs and each card he uses
# for a Campaigning action counts as 1 CP higher, never above 5.  (free_travel, cp_value)

# 30 Johnson Jeered in Dallas (Nixon): Kennedy loses 1 support in Texas and may not Campaign in
# the South for the rest of the turn.
def _johnson_jeered(g, f):
    _lose_state_support(g, "kennedy", "TX", 1)


# 31 Profiles in Courage (Kennedy): until the turn ends, Kennedy may draw again for any failed
# support check, once per check.                                      (bag.RedrawCheck)
# 54 Bobby Kennedy (Kennedy): each card Kennedy plays counts as 1 CP higher, never above 5.
# 55 Hostile Press Corps (Kennedy): Nixon Campaigns with support checks as if Kennedy carried
# every state.                                                   (effects.support_check_needed)
# 65 Joe Kennedy (Kennedy): Nixon cannot spend momentum markers.     (effects.momentum_banned)

# 69 Congressional Summer Session (Nixon): each card Kennedy plays counts as 2 CP lower, never
# below 1; Kennedy relocates his token to Maryland or Virginia (his choice), no travel cost.
def _summer_session_choice(g, f):
    choose(g, "kennedy", ["MD", "VA"], "state",
           msg("{card}: move your candidate token to {state} (choose MD) or {state2} (choose VA), "
               "with no travel cost.", card=f["card"], state="MD", state2="VA"))


def _summer_session_move(g, f):
    move_token(g, "kennedy", f["state"])


# 74 Eisenhower's Silence (Kennedy): Nixon may not spend CP to Campaign in states Kennedy leads.
# 79 Advance Men (both): the player pays no travel costs and makes no support checks when
# Campaigning.                                        (free_travel, support_check_needed)
# 81 Kennedy's Peace Corps (Kennedy): Kennedy preempts without momentum.   (preempt_cost)
# 85 Jackie Kennedy (Kennedy): Nixon pays 1 momentum to play a card as an event.
# 87 Stevenson Loyalists (Nixon): Kennedy may not Campaign in the West or the Midwest.
# 88 Stature Gap (Nixon): each card Kennedy uses to Position counts as 2 CP lower, never below 1.

EVENTS = {
    4: (_effect(4),),
    19: (_old_south,),
    20: (_nixon_egged, _effect(20)),
    26: (_effect(26),),
    30: (_johnson_jeered, _effect(30)),
    31: (_effect(31),),
    54: (_effect(54),),
    55: (_effect(55),),
    65: (_effect(65),),
    69: (_effect(69), _summer_session_choice, _summer_session_move),
    74: (_effect(74),),
    79: (_effect(79, bound_to=lambda g, f: f["by"]),),
    81: (_effect(81),),
    85: (_effect(85),),
    87: (_effect(87),),
    88: (_effect(88),),
}
