"""Card events (issue 3, batch D): issue support, momentum, media and the issue leaders' events.

Each entry of ``EVENTS`` is card id -> tuple of stages ``fn(g, f)``; ``f["by"]`` resolves the
event ("the player", "the opponent" is the other seat). A card naming a candidate benefits him
whoever resolves it and he makes its choices; an issue's leader ("the Defense leader (if any)")
takes and decides, whoever resolves it. Losses are limited to what the loser has (Losing Support).
"""
from ..board import issue_leader, lose, own
from ..data import ISSUES, REGIONS, STATES, STATES_BY_REGION, other
from ..flow import Step, step
from ..messages import msg, of_event
from .common import (add_support, gain_issue, gain_momentum, lose_issue, lose_momentum,
                     move_issue, move_token, place_media, place_support, remove_support)

BIG_STATES = sorted(c for c, s in STATES.items() if s["ev"] >= 20)     # Suburban Voters


# --- building blocks ---------------------------------------------------------------------------

def _leader(g, issue):
    """The leader of ``issue`` now, or None (with a note: nobody benefits)."""
    seat = issue_leader(g.s, issue)
    if seat is None:
        g.note("Nobody leads {issue}: nobody benefits.", issue=issue)
    return seat


def _lose_each_issue(g, seat):
    """``seat`` loses 1 issue support cube in each of the three issues, as far as he has any."""
    for issue in ISSUES:
        lose_issue(g, seat, issue, 1)


# Issue support chosen one cube at a time: Herb Klein (gain) and Give 'Em Hell Harry (lose).

def choose_issue_cubes(g, seat: str, target: str, n: int, mode: str, then="event_continue") -> None:
    """``seat`` places (``mode`` "gain": ``position ISSUE``) or removes (``mode`` "lose": ``remove
    ISSUE``) ``n`` of ``target``'s issue support cubes, one at a time, on issues of his choice.
    Losses are limited to what ``target`` has; where the choice cannot matter it is made at once."""
    if n <= 0:
        return
    g.call("issue_cubes", then=then, seat=seat, target=target, left=n, mode=mode,
           card=g.top.get("card"))
    issue_cubes_continue(g)


def _removable_issues(g, f) -> list:
    return [i for i in ISSUES if own(g.s["issues"][i], f["target"])]


@step
class IssueCubes(Step):
    name = "issue_cubes"

    def actions(self, g, f, seat):
        if f["mode"] == "gain":
            return [f"position {i}" for i in ISSUES]
        return [f"remove {i}" for i in _removable_issues(g, f)]

    def do(self, g, f, seat, action):
        _one_issue_cube(g, f, action.split()[1])
        issue_cubes_continue(g)

    def prompt(self, g, f, seat):
        if f["mode"] == "gain" and f["left"] == 1:
            prompt = msg("Add {left} issue support cube for {seat} on the issue of your "
                         "choice.", left=f["left"], seat=f["target"])
        elif f["mode"] == "gain":
            prompt = msg("Add {left} issue support cubes for {seat}, one at a time, on the "
                         "issues of your choice.", left=f["left"], seat=f["target"])
        elif f["left"] == 1:
            prompt = msg("Remove {left} of {seat}'s issue support cubes from the issue of your "
                         "choice.", left=f["left"], seat=f["target"])
        else:
            prompt = msg("Remove {left} of {seat}'s issue support cubes, one at a time, from "
                         "the issues of your choice.", left=f["left"], seat=f["target"])
        return of_event(prompt, f.get("card"))


def _one_issue_cube(g, f, issue) -> None:
    if f["mode"] == "gain":
        gain_issue(g, f["target"], issue, 1)
    else:
        lose_issue(g, f["target"], issue, 1)
    f["left"] -= 1


def issue_cubes_continue(g) -> None:
    """End the step when it is done; remove cubes at once while only one issue holds any."""
    f = g.top
    if f["mode"] == "lose":
        while f["left"] > 0 and len(_removable_issues(g, f)) == 1:
            _one_issue_cube(g, f, _removable_issues(g, f)[0])
        if not _removable_issues(g, f):
            f["left"] = 0
    if f["left"] <= 0:
        g.end()


# Media support taken off the board: Herblock.

def remove_media(g, chooser: str, target: str, n: int, then="event_continue") -> None:
    """Let ``chooser`` take up to ``n`` of ``target``'s media support cubes off the board (``remove
    REGION``, or ``done``), limited to what ``target`` has."""
    if not any(own(g.s["media"][r], target) for r in REGIONS):
        g.note("{seat} has no media support cube to remove.", seat=target)
        return
    g.call("remove_media", then=then, seat=chooser, target=target, left=n, card=g.top.get("card"))


def _media_regions(g, f) -> list:
    return [r for r in REGIONS if own(g.s["media"][r], f["target"])]


@step
class RemoveMedia(Step):
    name = "remove_media"

    def actions(self, g, f, seat):
        return ["done"] + [f"remove {r}" for r in _media_regions(g, f)]

    def do(self, g, f, seat, action):
        if action == "done":
            g.end()
            return
        region = action.split()[1]
        lose(g.s["media"], region, f["target"], 1)
        f["left"] -= 1
        g.note("{seat} takes a {seat_target} media support cube off the board in {region}.",
               seat=seat, seat_target=f["target"], region=region)
        if f["left"] <= 0 or not _media_regions(g, f):
            g.end()

    def prompt(self, g, f, seat):
        return of_event(msg("Take up to {left} of {seat}'s media support cubes off the board, or "
                            "stop.", left=f["left"], seat=f["target"]), f.get("card"))


# --- the events --------------------------------------------------------------------------------

# 51 Missile Gap (Kennedy): Kennedy receives 3 issue support cubes in Defense.
def _missile_gap(g, f):
    gain_issue(g, "kennedy", "defense", 3)


# 52 Hurricane Donna (both): the player's token to Florida (no travel cost); he takes 1 momentum
# marker and 1 state support in Florida (GMT: a support check where the opponent carries or
# occupies Florida).
def _hurricane_donna(g, f):
    seat = f["by"]
    move_token(g, seat, "FL")
    gain_momentum(g, seat)
    add_support(g, seat, "FL", 1)


# 59 Mid-Atlantic (Kennedy): up to 5 support, at most 2 per state, in NY, PA, NJ, MD and DE.
def _mid_atlantic(g, f):
    place_support(g, "kennedy", 5, 2, ["NY", "PA", "NJ", "MD", "DE"])


# 60 World Series Ends (both): whoever owns the Eastern media support may place up to 5 support
# in Eastern states, at most 2 per state; an empty Eastern box: nothing happens.
def _world_series_ends(g, f):
    v = g.s["media"]["east"]
    if v == 0:
        g.note("The Eastern advertising box is empty: {card} has no effect.", card=f["card"])
        return
    place_support(g, "kennedy" if v > 0 else "nixon", 5, 2, STATES_BY_REGION["east"])


# 62 Trial of Gary Powers (both): Defense climbs two positions; then the Defense leader (if any)
# takes 1 momentum marker.
def _gary_powers(g, f):
    move_issue(g, "defense", 2)
    seat = _leader(g, "defense")
    if seat:
        gain_momentum(g, seat)


# 63 Give Me A Week (Kennedy): Nixon gives up 2 momentum markers and loses 1 issue support cube
# in each of the three issues.
def _give_me_a_week(g, f):
    lose_momentum(g, "nixon", 2)
    _lose_each_issue(g, "nixon")


# 64 Stump Speech (both): if the opponent holds more momentum markers than the player, the player
# takes markers until both hold the same number.
def _stump_speech(g, f):
    seat = f["by"]
    gap = g.s["momentum"][other(seat)] - g.s["momentum"][seat]
    if gap > 0:
        gain_momentum(g, seat, gap)
    else:
        g.note("{seat} holds no more momentum markers than {seat_player}: {card} has no effect.",
               seat=other(seat), seat_player=seat, card=f["card"])


# 67 Voter Registration Drive (both): the player may place up to 3 support, 1 per state, only in
# states holding no cubes of either player.
def _voter_registration_drive(g, f):
    empty = [st for st in sorted(STATES) if g.s["support"][st] == 0]
    place_support(g, f["by"], 3, 1, empty)


# 68 Peace Without Surrender (Nixon): Defense climbs one position; Nixon then receives 1 issue
# support cube in Defense.
def _peace_without_surrender(g, f):
    move_issue(g, "defense", 1)
    gain_issue(g, "nixon", "defense", 1)


# 70 The Old Nixon (Nixon): Nixon gives up 1 momentum marker and Kennedy gives up 3.
def _old_nixon(g, f):
    lose_momentum(g, "nixon", 1)
    lose_momentum(g, "kennedy", 3)


# 73 Norman Vincent Peale (Nixon): Nixon may strip up to 5 Kennedy support cubes anywhere, at
# most 1 per state. (Unplayable under Greater Houston Ministerial Association: event_playable.)
def _norman_vincent_peale(g, f):
    remove_support(g, "nixon", "kennedy", 5, 1)


# 75 Republican TV Spots (Nixon): Nixon's token to New York (no travel cost); Nixon puts 3 media
# support cubes into advertising boxes of his choice.
def _republican_tv_spots(g, f):
    move_token(g, "nixon", "NY")
    place_media(g, "nixon", 3)


# 77 Suburban Voters (Kennedy): up to 5 support, at most 2 per state, in states worth 20
# electoral votes or more.
def _suburban_voters(g, f):
    place_support(g, "kennedy", 5, 2, BIG_STATES)


# 78 Stock Market in Decline (both): Economy climbs two positions; then the Economy leader (if
# any) adds 2 state support cubes to New York.
def _stock_market_in_decline(g, f):
    move_issue(g, "economy", 2)
    seat = _leader(g, "economy")
    if seat:
        add_support(g, seat, "NY", 2)


# 80 Herblock (Kennedy): Kennedy may take up to 2 of Nixon's media support cubes off the board.
def _herblock(g, f):
    remove_media(g, "kennedy", "nixon", 2)


# 82 Fidel Castro (both): the Defense leader (if any) takes 1 momentum marker and 1 state support
# in Florida.
def _fidel_castro(g, f):
    seat = _leader(g, "defense")
    if seat:
        gain_momentum(g, seat)
        add_support(g, seat, "FL", 1)


# 84 Quemoy and Matsu (both): the Defense leader (if any) takes 1 momentum marker and may place
# up to 3 support anywhere, at most 1 per state.
def _quemoy_and_matsu(g, f):
    seat = _leader(g, "defense")
    if seat:
        gain_momentum(g, seat)
        place_support(g, seat, 3, 1)


# 86 Herb Klein (Nixon): Nixon receives 3 issue support cubes in total, on the issue(s) he chooses.
def _herb_klein(g, f):
    choose_issue_cubes(g, "nixon", "nixon", 3, "gain")


# 89 The New Nixon (Nixon): Nixon takes 1 momentum marker.
def _new_nixon(g, f):
    gain_momentum(g, "nixon")


# 92 Give 'Em Hell Harry (Nixon, GMT): if Kennedy leads two or more issues, Kennedy gives up 1
# momentum marker and must remove 2 of his issue support cubes in total (he chooses which).
def _give_em_hell_harry(g, f):
    led = sum(1 for i in ISSUES if issue_leader(g.s, i) == "kennedy")
    if led < 2:
        g.note("{seat} leads fewer than two issues: {card} has no effect.", seat="kennedy",
               card=f["card"])
        return
    lose_momentum(g, "kennedy", 1)
    choose_issue_cubes(g, "kennedy", "kennedy", 2, "lose")


# 93 Experience Counts (Nixon, GMT): Kennedy loses 1 issue support cube in each of the three
# issues; Nixon takes 1 momentum marker.
def _experience_counts(g, f):
    _lose_each_issue(g, "kennedy")
    gain_momentum(g, "nixon")


# 95 A Time for Greatness (Kennedy, GMT): Nixon loses 1 issue support cube in each of the three
# issues; Kennedy may place (up to) 3 support anywhere, at most 1 per state.
def _time_for_greatness(g, f):
    _lose_each_issue(g, "nixon")
    place_support(g, "kennedy", 3, 1)


# 96 Medal Count / 97 Cassius Clay Wins Gold (both, GMT): the leader of the first issue loses 1
# cube there and the Economy leader 1 in Economy; a player leading both also gives up 1 momentum.
def _leaders_lose(issue):
    def stage(g, f):
        first, econ = issue_leader(g.s, issue), issue_leader(g.s, "economy")
        for seat, which in ((first, issue), (econ, "economy")):
            if seat:
                lose_issue(g, seat, which, 1)
            else:
                g.note("Nobody leads {issue}.", issue=which)
        if first and first == econ:
            lose_momentum(g, first, 1)
    return stage


EVENTS = {
    51: (_missile_gap,),
    52: (_hurricane_donna,),
    59: (_mid_atlantic,),
    60: (_world_series_ends,),
    62: (_gary_powers,),
    63: (_give_me_a_week,),
    64: (_stump_speech,),
    67: (_voter_registration_drive,),
    68: (_peace_without_surrender,),
    70: (_old_nixon,),
    73: (_norman_vincent_peale,),
    75: (_republican_tv_spots,),
    77: (_suburban_voters,),
    78: (_stock_market_in_decline,),
    80: (_herblock,),
    82: (_fidel_castro,),
    84: (_quemoy_and_matsu,),
    86: (_herb_klein,),
    89: (_new_nixon,),
    92: (_give_em_hell_harry,),
    93: (_experience_counts,),
    95: (_time_for_greatness,),
    96: (_leaders_lose("civil_rights"),),
    97: (_leaders_lose("defense"),),
}
