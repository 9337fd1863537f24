"""Card events (issue 3, batch C): issue climbs, issue leaders' rewards, state support by region.

Each entry of ``EVENTS`` is card id -> tuple of stages ``fn(g, f)``; ``f["by"]`` resolves the
event ("the player"). Cards naming a candidate benefit him whoever resolves them, and an issue's
leader ("the Defense leader (if any)") is the one who takes and decides, whoever resolves it.
"""
from itertools import permutations

from ..bag import place_endorsement
from ..board import carries, gain, issue_leader, leads, own
from ..data import ISSUES, REGIONS, SEAT_NAMES, STATES, STATES_BY_REGION, other
from ..flow import Step, step
from ..messages import msg
from .common import (add_support, choose, gain_issue, gain_momentum, lose_issue, move_issue,
                     move_token, place_support, remove_support)


# --- building blocks ---------------------------------------------------------------------------

def _climb(issue):
    """A stage: ``issue`` climbs one position on the Issues Track."""
    def stage(g, f):
        move_issue(g, issue, 1)
    return stage


def _leader_places(issue, total, per_state, allowed=None, momentum=False):
    """A stage: the leader of ``issue`` now (if any) takes a momentum marker if ``momentum``, then
    may place up to ``total`` state support cubes, at most ``per_state`` in a state, in
    ``allowed`` (anywhere if None). He decides where, whoever resolves the event."""
    def stage(g, f):
        seat = issue_leader(g.s, issue)
        if seat is None:
            g.note("Nobody leads {issue}: nobody benefits from the event.", issue=issue)
            return
        if momentum:
            gain_momentum(g, seat)
        place_support(g, seat, total, per_state, allowed)
    return stage


def _places(seat, total, per_state, allowed=None):
    """A stage: the candidate ``seat`` (named on the card) may place up to ``total`` cubes."""
    def stage(g, f):
        place_support(g, seat, total, per_state, allowed)
    return stage


def _issue_support(seat, issue, n):
    """A stage: ``seat`` receives n issue support cubes in ``issue`` ("by": whoever resolves)."""
    def stage(g, f):
        gain_issue(g, f["by"] if seat == "by" else seat, issue, n)
    return stage


# 3 Gallup Poll (both): the player may rearrange the three issue tiles in any order he likes.
def _gallup_poll(g, f):
    g.call("gallup_poll", then="event_continue", seat=f["by"], card=f["card"])


@step
class GallupPoll(Step):
    """Gallup Poll: the new order of the Issues Track, first place first (``order I1 I2 I3``)."""

    name = "gallup_poll"

    def actions(self, g, f, seat):
        return ["order " + " ".join(p) for p in permutations(ISSUES)]

    def do(self, g, f, seat, action):
        order = action.split()[1:]
        g.s["issue_track"] = order
        g.note("{card}: {seat} orders the Issues Track {issues}.", card=f["card"], seat=seat,
               issues=order)
        g.end()

    def prompt(self, g, f, seat):
        return msg("{card}: put the three issues on the Issues Track in any order, first place "
                   "first (now {issues}).", card=f["card"], issues=list(g.s["issue_track"]))


# 5 Volunteers (both): the player takes 1 momentum marker.
def _volunteers(g, f):
    gain_momentum(g, f["by"])


# 8 Soviet Economic Growth (both): Economy climbs one position; then the Economy leader (if
# anyone) adds 1 state support cube to New York (GMT: a support check where needed).
def _soviet_growth_new_york(g, f):
    seat = issue_leader(g.s, "economy")
    if seat is None:
        g.note("Nobody leads {issue}: nobody adds support in {state}.", issue="economy",
               state="NY")
        return
    add_support(g, seat, "NY", 1)


# 9 Baptist Ministers (Nixon): Nixon may strip up to 5 Kennedy cubes from the South and/or the
# Midwest, at most 2 from a state. (Prevented by Greater Houston Ministerial Association.)
def _baptist_ministers(g, f):
    allowed = STATES_BY_REGION["south"] + STATES_BY_REGION["midwest"]
    remove_support(g, "nixon", "kennedy", 5, 2, allowed)


# 10 Swing State (both): the player picks a state his opponent leads but does not carry, adds 5
# state support there, and moves his own token there at no travel cost.
def _swing_state_pick(g, f):
    opp = other(f["by"])
    options = [st for st in sorted(STATES) if leads(g.s, opp, st) and not carries(g.s, opp, st)]
    if not options:
        f["swing_state"] = None
        g.note("{seat} leads no state without carrying it: {card} has no effect.", seat=opp,
               card=f["card"])
        return
    choose(g, f["by"], options, "swing_state",
           msg("{card}: pick a state {seat} leads but does not carry; you add 5 state support "
               "there and move your candidate token there.", card=f["card"], seat=opp))


def _swing_state_support(g, f):
    if f.get("swing_state"):
        add_support(g, f["by"], f["swing_state"], 5)


def _swing_state_token(g, f):
    if f.get("swing_state"):
        move_token(g, f["by"], f["swing_state"])


# 12 Southern Strategy (Nixon): Nixon up to 5 in the South, at most 2 per state; then Kennedy
# receives 1 issue support cube in Civil Rights.

# 21 Fifty Stars (both): the candidate ahead in Alaska and Hawaii (more state support cubes in
# the two states together) may place up to 5 anywhere, at most 1 per state.
def _fifty_stars(g, f):
    count = {x: own(g.s["support"]["AK"], x) + own(g.s["support"]["HI"], x) for x in SEAT_NAMES}
    if count["kennedy"] == count["nixon"]:
        g.note("Neither candidate is ahead in {state} and {state2}: {card} has no effect.",
               state="AK", state2="HI", card=f["card"])
        return
    seat = "kennedy" if count["kennedy"] > count["nixon"] else "nixon"
    g.note("{seat} is ahead in {state} and {state2} ({n} state support to {n_other}).",
           seat=seat, state="AK", state2="HI", n=count[seat], n_other=count[other(seat)])
    place_support(g, seat, 5, 1)


# 24 East Harlem Pledge (Kennedy): Nixon loses 1 Civil Rights issue support; Kennedy may strip
# up to 5 Nixon cubes from the South, at most 2 from a state.
def _east_harlem_pledge(g, f):
    if not lose_issue(g, "nixon", "civil_rights", 1):
        g.note("{seat} has no issue support in {issue} to lose.", seat="nixon",
               issue="civil_rights")
    remove_support(g, "kennedy", "nixon", 5, 2, STATES_BY_REGION["south"])


# 36 Henry Luce (Kennedy): Kennedy puts 1 endorsement marker in a region of his choice (it
# removes a Nixon marker there instead, if any).
def _henry_luce_pick(g, f):
    choose(g, "kennedy", REGIONS, "luce_region",
           msg("{card}: choose the region for your endorsement marker (it removes a {seat} "
               "endorsement marker there instead, if there is one).", card=f["card"], seat="nixon"))


def _henry_luce_place(g, f):
    place_endorsement(g, "kennedy", f["luce_region"])


# 41 Pierre Salinger (Kennedy): 3 issue support cubes, all on one issue of Kennedy's choice.
def _salinger_pick(g, f):
    choose(g, "kennedy", ISSUES, "salinger_issue",
           msg("{card}: choose the issue that receives your 3 issue support cubes.",
               card=f["card"]))


def _salinger_place(g, f):
    gain_issue(g, "kennedy", f["salinger_issue"], 3)


# 45 Compact of Fifth Avenue (Nixon): Nixon's token to New York; then, in this order, +2 state
# support in New York, +1 issue support in Civil Rights, +1 media support in the East.
def _compact_new_york(g, f):
    move_token(g, "nixon", "NY")
    add_support(g, "nixon", "NY", 2)


def _compact_issue_and_media(g, f):
    gain_issue(g, "nixon", "civil_rights", 1)
    gain(g.s["media"], "east", "nixon", 1)
    g.note("{seat} adds media support in {region}.", seat="nixon", region="east")


# 46 Prime-Time Television (both): the player chooses a region where he has media support cubes
# and may place up to 5 in its states, at most 2 per state.
def _prime_time_pick(g, f):
    seat = f["by"]
    regions = [r for r in REGIONS if own(g.s["media"][r], seat)]
    if not regions:
        f["prime_time_region"] = None
        g.note("{seat} has no media support: {card} has no effect.", seat=seat, card=f["card"])
        return
    choose(g, seat, regions, "prime_time_region",
           msg("{card}: choose a region where you have media support; you may place up to 5 state "
               "support cubes in its states, at most 2 per state.", card=f["card"]))


def _prime_time_place(g, f):
    region = f.get("prime_time_region")
    if region:
        g.note("{card}: {seat} chooses {region}.", card=f["card"], seat=f["by"], region=region)
        place_support(g, f["by"], 5, 2, STATES_BY_REGION[region])


INDUSTRIAL_MIDWEST = ["IL", "IN", "MI", "MN", "OH", "WI"]

EVENTS = {
    3: (_gallup_poll,),
    5: (_volunteers,),
    8: (_climb("economy"), _soviet_growth_new_york),
    9: (_baptist_ministers,),
    10: (_swing_state_pick, _swing_state_support, _swing_state_token),
    11: (_climb("defense"), _leader_places("defense", 3, 1)),                    # Sputnik V
    12: (_places("nixon", 5, 2, STATES_BY_REGION["south"]),
         _issue_support("kennedy", "civil_rights", 1)),                         # Southern Strategy
    13: (_leader_places("defense", 3, 1, momentum=True),),                      # Nikita Kruschev
    21: (_fifty_stars,),
    23: (_climb("civil_rights"), _issue_support("by", "civil_rights", 3)),      # MLK Arrested
    24: (_east_harlem_pledge,),
    25: (_climb("civil_rights"), _issue_support("nixon", "civil_rights", 1)),   # Civil Rights Act
    36: (_henry_luce_pick, _henry_luce_place),
    37: (_climb("civil_rights"), _leader_places("civil_rights", 3, 1)),         # Lunch Counter
    40: (_leader_places("civil_rights", 5, 2, ["IL", "MI", "NY"]),),            # Northern Blacks
    41: (_salinger_pick, _salinger_place),
    43: (_places("kennedy", 7, 2),),                                            # Catholic Support
    45: (_compact_new_york, _compact_issue_and_media),
    46: (_prime_time_pick, _prime_time_place),
    47: (_leader_places("defense", 5, 1),),                                     # The Cold War
    48: (_climb("economy"), _issue_support("nixon", "economy", 2)),             # Rising Food Prices
    49: (_places("kennedy", 5, 2, STATES_BY_REGION["midwest"]),),               # Eleanor Roosevelt
    50: (_places("nixon", 5, 2, INDUSTRIAL_MIDWEST),),                          # Industrial Midwest
}
