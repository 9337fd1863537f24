"""The events built so far, keyed by card id, with the card's effect beside each handler.

Each entry is a tuple of stages ``fn(g, f)``; ``f["by"]`` resolves the event. The rest of the
deck's events come in the next issue; until then those cards can be played for CP only.
"""
from ..board import lose, own, states_led
from ..data import STATES, STATES_BY_REGION, other
from .common import (auto_support, gain_momentum, lose_momentum, move_token,
                     place_support, remove_support)


def _effect(cid):
    """A stage that puts a turn-long effect in force (the card stays in front of the player)."""
    def stage(g, f):
        g.s["effects"].append(cid)
    return stage


# 1 Greater Houston Ministerial Association (Kennedy, Prevention): Kennedy's token to Texas;
# Kennedy takes 1 momentum and may place up to 5 support anywhere, at most 1 per state.
# Then Puerto Rican Bishops, Baptist Ministers and Norman Vincent Peale are unplayable.
def _ghma(g, f):
    move_token(g, "kennedy", "TX")
    gain_momentum(g, "kennedy")
    place_support(g, "kennedy", 5, 1)


# 2 Nixon's Knee (Kennedy, turn): Nixon's token to Maryland; until the turn ends Nixon pays 1
# momentum each time he plays a card for a Campaigning action.
def _nixons_knee(g, f):
    move_token(g, "nixon", "MD")


# 6 New England (Kennedy): up to 5 support, at most 2 per state, in MA, CT, RI, VT, ME and NY.
def _new_england(g, f):
    place_support(g, "kennedy", 5, 2, ["MA", "CT", "RI", "VT", "ME", "NY"])


# 14-17 Gathering Momentum in a region (both): the player leading more of the region's states
# takes 1 momentum and 1 support in each of its states that holds no cubes.
def _gathering(region):
    def stage(g, f):
        k, n = states_led(g.s, "kennedy", region), states_led(g.s, "nixon", region)
        if k == n:
            g.note("Neither player leads more states there: nothing happens.")
            return
        seat = "kennedy" if k > n else "nixon"
        gain_momentum(g, seat)
        empty = [st for st in STATES_BY_REGION[region] if g.s["support"][st] == 0]
        auto_support(g, seat, empty)
    return stage


# 18 Dwight D. Eisenhower (Nixon, Prevention): up to 7 support anywhere, at most 1 per state;
# Eisenhower's Silence can no longer be played.
def _eisenhower(g, f):
    place_support(g, "nixon", 7, 1)


# 22 Gaffe (both): the opponent loses 1 momentum and 3 support in the state his token occupies.
def _gaffe(g, f):
    victim = other(f["by"])
    lose_momentum(g, victim)
    st = g.s["tokens"][victim]
    k = lose(g.s["support"], st, victim, 3)
    g.note("{card}: {seat} loses {n} state support in {state}.", card=f["card"], seat=victim, n=k,
           state=st)


# 28 Harry F. Byrd (Nixon): remove up to 3 Kennedy support from Oklahoma, Mississippi, Alabama.
def _harry_byrd(g, f):
    remove_support(g, "nixon", "kennedy", 3, 3, ["OK", "MS", "AL"])


# 71 Heartland of America (Nixon): up to 7 support, at most 1 per state, in Western and/or
# Midwestern states worth 10 electoral votes or fewer.
def _heartland(g, f):
    allowed = [c for c, s in STATES.items() if s["region"] in ("west", "midwest") and s["ev"] <= 10]
    place_support(g, "nixon", 7, 1, allowed)


# 72 Southern Revolt (Nixon): only if Kennedy leads Civil Rights: up to 5 support in the South,
# at most 2 per state.
def _southern_revolt(g, f):
    if own(g.s["issues"]["civil_rights"], "kennedy"):
        place_support(g, "nixon", 5, 2, STATES_BY_REGION["south"])
    else:
        g.note("{seat} does not lead {issue}: {card} has no effect.", seat="kennedy",
               issue="civil_rights", card=f["card"])


def _noop(g, f):
    """Persistent Debate and Election Day events act later; nothing happens when played."""


EVENTS = {
    1: (_ghma,),
    2: (_nixons_knee, _effect(2)),
    6: (_new_england,),
    7: (_noop,),        # Late Returns from Cook County: Election Day (election_day.py)
    14: (_gathering("south"),),
    15: (_gathering("east"),),
    16: (_gathering("midwest"),),
    17: (_gathering("west"),),
    18: (_eisenhower,),
    22: (_gaffe,),
    28: (_harry_byrd,),
    32: (_noop,),       # Early Returns from Connecticut: Election Day
    33: (_noop,),       # Unpledged Electors: Election Day, at the final tally
    34: (_noop,),       # Lazy Shave: Debates
    35: (_noop,),       # Harvard Brain Trust: Debates
    44: (_effect(44),),  # Puerto Rican Bishops: Kennedy cannot spend momentum this turn
    71: (_heartland,),
    72: (_southern_revolt,),
    76: (_effect(76),),  # Nixon's Pledge
    90: (_noop,),       # Recount: Election Day
}

