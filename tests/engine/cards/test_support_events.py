"""Card events of batch C (engine/games/tmotp/events/support_events.py): issue climbs, the issue
leaders' rewards, Gallup Poll, Swing State, Fifty Stars and the regional state support cards.

Each test sets a position, resolves the event (played, triggered or preempted) and checks the
exact result against the card's text (quoted from the card data's ``effect``).
"""
from itertools import permutations

from functools import partial

import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction
from engine.games.tmotp.data import CARDS, RULINGS, STATES_BY_REGION
from tests.engine.scenarios.helpers import EDITIONS, draws, force, setup, start, step

from . import helpers as cards
from .helpers import next_turn_is, support_states

FILL = {"kennedy": [60, 61, 62, 63, 64, 65], "nixon": [66, 67, 68, 69, 70, 73]}
first = partial(cards.first, fill=FILL)
event = partial(cards.event, fill=FILL)
triggered = partial(cards.triggered, fill=FILL)
ALL_STATES = sorted(st for r in STATES_BY_REGION.values() for st in r)


def empty_board(**extra):
    return {"clear_support": True, **extra}


def test_every_card_of_the_batch_has_an_event_and_a_test_here():
    from engine.games.tmotp.events import EVENTS
    from engine.games.tmotp.events import support_events
    batch = {3, 5, 8, 9, 10, 11, 12, 13, 21, 23, 24, 25, 36, 37, 40, 41, 43, 45, 46, 47, 48, 49, 50}
    assert set(support_events.EVENTS) == batch
    assert all(EVENTS[c] is support_events.EVENTS[c] for c in batch)
    src = open(__file__, encoding="utf-8").read()
    for cid in batch:
        slug = "".join(ch if ch.isalnum() else "_" for ch in CARDS[cid]["name"].lower())
        slug = "_".join(w for w in slug.split("_") if w)
        assert f"def test_{slug}_" in src, CARDS[cid]["name"]


# --- 3 Gallup Poll -----------------------------------------------------------------------------

def test_gallup_poll_the_player_puts_the_issues_in_any_order():
    """Gallup Poll: "The player may rearrange the three issue tiles on the Issue Track into any
    order he likes." The issue support cubes stay on their tiles."""
    g = event("kennedy", 3, issues={"defense": -2, "civil_rights": 1})
    assert step(g) == "gallup_poll" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == sorted("order " + " ".join(p) for p in permutations(
        ["defense", "economy", "civil_rights"]))
    assert len(g.legal_actions("kennedy")) == 6
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "order defense defense economy")
    force(g, ("kennedy", "order civil_rights economy defense"))
    assert g.s["issue_track"] == ["civil_rights", "economy", "defense"]
    assert g.s["issues"] == {"defense": -2, "economy": 0, "civil_rights": 1}
    assert 3 in g.s["removed"]
    next_turn_is(g, "nixon")


def test_gallup_poll_may_leave_the_track_as_it_is():
    g = event("nixon", 3)
    force(g, ("nixon", "order defense economy civil_rights"))
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    next_turn_is(g, "kennedy")


def test_gallup_poll_triggered_the_triggering_player_orders_the_track():
    g = triggered("nixon", 3)
    assert step(g) == "gallup_poll" and g.active() == ["kennedy"]
    force(g, ("kennedy", "order economy civil_rights defense"))
    assert g.s["issue_track"] == ["economy", "civil_rights", "defense"]
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 2}
    next_turn_is(g, "kennedy")


# --- 5 Volunteers ------------------------------------------------------------------------------

def test_volunteers_the_player_takes_a_momentum_marker():
    """Volunteers: "The player takes 1 momentum marker.\""""
    g = event("nixon", 5)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    next_turn_is(g, "kennedy")


def test_volunteers_triggered_benefit_the_triggering_player():
    g = triggered("kennedy", 5)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}     # Nixon paid 1 and took 1
    assert 5 in g.s["removed"] and 5 not in g.s["discard"]
    next_turn_is(g, "nixon")


# --- 8 Soviet Economic Growth ------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_soviet_economic_growth_economy_climbs_and_its_leader_adds_support_in_new_york(edition):
    """Soviet Economic Growth: "Economy climbs one position on the Issue Track. Afterwards,
    whichever player leads Economy (if anyone) adds 1 state support cube to New York." Kennedy
    plays it; Nixon leads Economy and gains."""
    g = event("kennedy", 8, edition, issues={"economy": -1}, support={"NY": 0})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert g.s["support"]["NY"] == -1
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_soviet_economic_growth_support_check_where_the_opponent_carries_new_york(edition, checks):
    g = event("nixon", 8, edition, issues={"economy": -2}, support={"NY": 4})
    if checks:
        assert g.active() == [CHANCE] and g.top["where"] == "NY" and g.top["left"] == 1
        draws(g, "kennedy")
        assert g.s["support"]["NY"] == 4
    else:
        assert g.s["support"]["NY"] == 3
    next_turn_is(g, "kennedy")


def test_soviet_economic_growth_without_an_economy_leader_only_the_climb():
    g = event("kennedy", 8, issue_track=["civil_rights", "defense", "economy"])
    before = dict(g.s["support"])
    assert g.s["issue_track"] == ["civil_rights", "economy", "defense"]
    assert g.s["support"] == before
    next_turn_is(g, "nixon")


def test_soviet_economic_growth_economy_already_first_stays_first():
    g = event("kennedy", 8, issue_track=["economy", "defense", "civil_rights"],
              issues={"economy": 1}, support={"NY": 0})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert g.s["support"]["NY"] == 1


# --- 9 Baptist Ministers -----------------------------------------------------------------------

def test_baptist_ministers_nixon_strips_up_to_five_in_south_and_midwest_two_per_state():
    """Baptist Ministers: "Nixon may strip up to 5 of Kennedy's state support cubes in total from
    states in the South and/or the Midwest, taking no more than 2 from any one state.\""""
    g = event("nixon", 9, **empty_board(support={"TX": 3, "OH": 1, "MI": 2, "NY": 2, "CA": 1,
                                                  "FL": -2}))
    assert g.legal_actions("nixon") == ["done", "remove MI", "remove OH", "remove TX"]
    force(g, ("nixon", "remove TX"), ("nixon", "remove TX"))
    assert "remove TX" not in g.legal_actions("nixon")
    force(g, ("nixon", "remove OH"), ("nixon", "remove MI"), ("nixon", "remove MI"))
    assert {st: g.s["support"][st] for st in ("TX", "OH", "MI", "NY", "CA", "FL")} == \
        {"TX": 1, "OH": 0, "MI": 0, "NY": 2, "CA": 1, "FL": -2}
    next_turn_is(g, "kennedy")


def test_baptist_ministers_triggered_by_kennedy_nixon_still_chooses():
    g = triggered("nixon", 9, **empty_board(support={"TX": 2}))
    assert step(g) == "remove_support" and g.active() == ["nixon"]
    force(g, ("nixon", "remove TX"), ("nixon", "done"))
    assert g.s["support"]["TX"] == 1
    next_turn_is(g, "kennedy")


def test_baptist_ministers_unplayable_once_greater_houston_ministerial_association_is_in_effect():
    g = start("gmt", kennedy=[1, 60, 61, 62, 63, 64], nixon=[9, 66, 67, 68, 69, 70],
              initiative="kennedy", start_player="kennedy")
    force(g, ("kennedy", "play 1 event"), ("kennedy", "done"))
    legal = g.legal_actions("nixon")
    assert "play 9 event" not in legal and "play 9 campaign preempt" not in legal
    force(g, ("nixon", "play 9 campaign"), ("nixon", "done"))
    next_turn_is(g, "kennedy")                                  # no trigger offered
    assert g.s["discard"] == [9]


def test_baptist_ministers_playable_before_greater_houston():
    g = first("nixon", 9)
    assert "play 9 event" in g.legal_actions("nixon")


# --- 10 Swing State ----------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_swing_state_five_support_in_a_state_the_opponent_leads_without_carrying(edition):
    """Swing State: "The player picks a single state that his opponent leads but does not carry,
    adds 5 state support there, and relocates his own candidate token to that state with no
    travel cost.\""""
    g = event("kennedy", 10, edition, **empty_board(support={"OH": -2, "PA": -4, "TX": 1,
                                                              "CA": -1}))
    assert g.legal_actions("kennedy") == ["choose CA", "choose OH"]
    force(g, ("kennedy", "choose OH"))
    assert g.s["support"]["OH"] == 3
    assert g.s["tokens"]["kennedy"] == "OH"
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_swing_state_support_checks_where_the_opponents_token_stands(edition, checks):
    g = event("kennedy", 10, edition, **empty_board(support={"OH": -2, "CA": -1}))
    force(g, ("kennedy", "choose CA"))                 # Nixon's token is in California
    if checks:
        assert g.active() == [CHANCE] and g.top["left"] == 5
        assert g.s["tokens"]["kennedy"] == "MA"        # the cubes come before the move
        draws(g, "kennedy", "kennedy", "nixon", "kennedy", "nixon")
        assert g.s["support"]["CA"] == 2
    else:
        assert g.s["support"]["CA"] == 4
    assert g.s["tokens"] == {"kennedy": "CA", "nixon": "CA"}
    next_turn_is(g, "nixon")


def test_swing_state_media_in_the_region_exempts_from_checks():
    g = event("kennedy", 10, "gmt", **empty_board(support={"OH": -2, "CA": -3}, media={"west": 1}))
    force(g, ("kennedy", "choose CA"))
    assert g.s["support"]["CA"] == 2 and g.s["tokens"]["kennedy"] == "CA"
    next_turn_is(g, "nixon")


def test_swing_state_with_no_such_state_does_nothing():
    g = event("kennedy", 10, **empty_board(support={"PA": -4, "TX": 2}))
    assert g.s["support"]["PA"] == -4 and g.s["tokens"]["kennedy"] == "MA"
    assert 10 in g.s["removed"]
    next_turn_is(g, "nixon")


def test_swing_state_triggered_the_triggering_player_picks_among_states_his_opponent_leads():
    g = triggered("kennedy", 10, **empty_board(support={"OH": 2, "TX": 1, "NY": 4, "CA": -1}))
    assert step(g) == "choose" and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == ["choose OH", "choose TX"]
    force(g, ("nixon", "choose TX"))
    assert g.s["support"]["TX"] == -4 and g.s["tokens"]["nixon"] == "TX"
    assert g.s["tokens"]["kennedy"] == "MA"
    next_turn_is(g, "nixon")


# --- 11 Sputnik V ------------------------------------------------------------------------------

def test_sputnik_v_defense_climbs_then_its_leader_places_three_one_per_state():
    """Sputnik V: "Defense climbs one position on the Issue Track. Afterwards, the Defense leader
    (if any) may place up to 3 state support cubes anywhere, never more than 1 in a single
    state." Kennedy plays it; Nixon leads Defense and places."""
    g = event("kennedy", 11, **empty_board(issue_track=["economy", "civil_rights", "defense"],
                                           issues={"defense": -1}))
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert step(g) == "place_support" and g.active() == ["nixon"]
    assert support_states(g, "nixon") == ALL_STATES
    assert "support OH 2" not in g.legal_actions("nixon")
    force(g, ("nixon", "support OH 1"), ("nixon", "support PA 1"), ("nixon", "support TX 1"))
    assert [g.s["support"][st] for st in ("OH", "PA", "TX")] == [-1, -1, -1]
    assert sum(abs(v) for v in g.s["support"].values()) == 3
    next_turn_is(g, "nixon")


def test_sputnik_v_without_a_defense_leader_only_the_climb():
    g = event("kennedy", 11, issue_track=["economy", "defense", "civil_rights"])
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    next_turn_is(g, "nixon")


# --- 12 Southern Strategy ----------------------------------------------------------------------

def test_southern_strategy_nixon_in_the_south_then_kennedy_civil_rights():
    """Southern Strategy: "Nixon may place up to 5 state support cubes in total in Southern
    states, no more than 2 in any one state. Kennedy then receives 1 issue support cube in Civil
    Rights." Kennedy's cube removes one of Nixon's first."""
    g = event("nixon", 12, **empty_board(issues={"civil_rights": -2}))
    assert support_states(g, "nixon") == list(STATES_BY_REGION["south"])
    assert "support TX 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "support TX 2"), ("nixon", "support FL 2"))
    assert g.s["issues"]["civil_rights"] == -2                  # not before Nixon is done
    force(g, ("nixon", "support GA 1"))
    assert [g.s["support"][st] for st in ("TX", "FL", "GA")] == [-2, -2, -1]
    assert g.s["issues"]["civil_rights"] == -1
    next_turn_is(g, "kennedy")


def test_southern_strategy_kennedy_gets_his_cube_even_if_nixon_places_nothing():
    g = event("nixon", 12, issues={"civil_rights": 0})
    force(g, ("nixon", "done"))
    assert g.s["issues"]["civil_rights"] == 1
    next_turn_is(g, "kennedy")


# --- 13 Nikita Kruschev ------------------------------------------------------------------------

def test_nikita_kruschev_defense_leader_takes_momentum_and_places_three():
    """Nikita Kruschev: "The Defense leader (if any) takes 1 momentum marker and may place up to
    3 state support cubes anywhere, never more than 1 in a single state." Nixon plays it; Kennedy
    leads Defense."""
    g = event("nixon", 13, **empty_board(issues={"defense": 2}))
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 2}
    assert g.active() == ["kennedy"] and support_states(g, "kennedy") == ALL_STATES
    assert "support NY 2" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support NY 1"))
    assert "support NY 1" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support IL 1"), ("kennedy", "done"))
    assert g.s["support"]["NY"] == 1 and g.s["support"]["IL"] == 1
    next_turn_is(g, "kennedy")


def test_nikita_kruschev_without_a_defense_leader_does_nothing():
    g = event("nixon", 13, issues={"defense": 0})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "kennedy")


# --- 21 Fifty Stars ----------------------------------------------------------------------------

def test_fifty_stars_more_cubes_in_alaska_and_hawaii_wins_a_one_state_each_tie():
    """Fifty Stars: "Compare the two candidates in Alaska and Hawaii; the one ahead there may
    place up to 5 state support cubes anywhere, never more than 1 in a single state." Each leads
    one of them; Kennedy has more cubes (3 to 1), so he places, though Nixon plays the card."""
    g = event("nixon", 21, **empty_board(support={"AK": -1, "HI": 3}))
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    assert support_states(g, "kennedy") == ALL_STATES
    assert not any(a.endswith(" 2") for a in g.legal_actions("kennedy"))
    for st in ("NY", "PA", "OH", "MI", "IL"):
        force(g, ("kennedy", f"support {st} 1"))
    assert [g.s["support"][st] for st in ("NY", "PA", "OH", "MI", "IL")] == [1] * 5
    next_turn_is(g, "kennedy")


def test_fifty_stars_leading_both_states():
    g = event("kennedy", 21, **empty_board(support={"AK": -1, "HI": -1}))
    assert g.active() == ["nixon"]
    force(g, ("nixon", "support TX 1"), ("nixon", "done"))
    assert g.s["support"]["TX"] == -1
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("ak,hi", [(0, 0), (-2, 2), (3, -3)])
def test_fifty_stars_nobody_ahead_does_nothing(ak, hi):
    g = event("kennedy", 21, **empty_board(support={"AK": ak, "HI": hi}))
    assert sum(abs(v) for v in g.s["support"].values()) == abs(ak) + abs(hi)
    next_turn_is(g, "nixon")


# --- 23 Martin Luther King Arrested ------------------------------------------------------------

def test_martin_luther_king_arrested_civil_rights_climbs_and_the_player_gets_three():
    """Martin Luther King Arrested: "Civil Rights climbs one position on the Issue Track, and the
    player receives 3 issue support cubes in Civil Rights.\""""
    g = event("kennedy", 23, issues={"civil_rights": -1})
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.s["issues"]["civil_rights"] == 2
    next_turn_is(g, "nixon")


def test_martin_luther_king_arrested_triggered_by_nixon_gives_nixon_the_cubes():
    g = triggered("kennedy", 23, issues={"civil_rights": 1})
    assert g.s["issues"]["civil_rights"] == -2
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    next_turn_is(g, "nixon")


# --- 24 East Harlem Pledge ---------------------------------------------------------------------

def test_east_harlem_pledge_nixon_loses_civil_rights_and_kennedy_strips_the_south():
    """East Harlem Pledge: "Nixon loses 1 issue support cube in Civil Rights. Kennedy may then
    strip up to 5 of Nixon's state support cubes in total from Southern states, no more than 2
    from any one state.\""""
    g = event("kennedy", 24, **empty_board(issues={"civil_rights": -2},
                                           support={"TX": -3, "FL": -1, "OH": -2, "GA": 2}))
    assert g.s["issues"]["civil_rights"] == -1
    assert g.legal_actions("kennedy") == ["done", "remove FL", "remove TX"]
    force(g, ("kennedy", "remove TX"), ("kennedy", "remove TX"), ("kennedy", "remove FL"))
    # only three Nixon cubes could go: nothing more is removable, the event ends
    assert [g.s["support"][st] for st in ("TX", "FL", "OH", "GA")] == [-1, 0, -2, 2]
    next_turn_is(g, "nixon")


def test_east_harlem_pledge_losses_limited_to_what_nixon_has():
    """Losing Support (the rulebook's East Harlem Pledge example): Nixon with no Civil Rights
    cubes loses nothing and Kennedy gains nothing; with no Southern cubes nothing is stripped."""
    g = event("kennedy", 24, **empty_board(issues={"civil_rights": 1}, support={"TX": 2}))
    assert g.s["issues"]["civil_rights"] == 1
    assert g.s["support"]["TX"] == 2
    next_turn_is(g, "nixon")


def test_east_harlem_pledge_triggered_by_nixon_kennedy_still_strips():
    g = triggered("kennedy", 24, **empty_board(issues={"civil_rights": -1}, support={"TX": -2}))
    assert g.s["issues"]["civil_rights"] == 0
    assert step(g) == "remove_support" and g.active() == ["kennedy"]
    force(g, ("kennedy", "remove TX"), ("kennedy", "done"))
    assert g.s["support"]["TX"] == -1
    next_turn_is(g, "nixon")


# --- 25 1960 Civil Rights Act ------------------------------------------------------------------

def test_1960_civil_rights_act_civil_rights_climbs_and_nixon_gets_one():
    """1960 Civil Rights Act: "Civil Rights climbs one position on the Issue Track; Nixon then
    receives 1 issue support cube in Civil Rights.\""""
    g = event("nixon", 25, issues={"civil_rights": 2},
              issue_track=["civil_rights", "economy", "defense"])
    assert g.s["issue_track"] == ["civil_rights", "economy", "defense"]
    assert g.s["issues"]["civil_rights"] == 1
    next_turn_is(g, "kennedy")


def test_1960_civil_rights_act_triggered_by_kennedy_still_helps_nixon():
    g = triggered("nixon", 25, issues={"civil_rights": 0})
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.s["issues"]["civil_rights"] == -1
    next_turn_is(g, "kennedy")


def test_1960_civil_rights_act_is_worth_four_cp_as_in_the_data():
    """Ruling: the doubtful CP value is the card data's 4 (rest 0)."""
    assert (CARDS[25]["cp"], CARDS[25]["rest"]) == (4, 0)
    assert "4 CP" in RULINGS[25]
    g = first("nixon", 25)
    force(g, ("nixon", "play 25 campaign"))
    assert g.top["step"] == "campaigning" and g.top["cp"] == 4
    assert g.s["rest"]["nixon"] == 0


# --- 36 Henry Luce -----------------------------------------------------------------------------

def test_henry_luce_kennedy_puts_an_endorsement_marker_in_a_region():
    """Henry Luce: "Kennedy may put 1 endorsement marker into one region of his choice.\""""
    g = event("kennedy", 36)
    assert g.legal_actions("kennedy") == ["choose east", "choose midwest", "choose south",
                                          "choose west"]
    force(g, ("kennedy", "choose south"))
    assert g.s["endorsements"] == {"west": 0, "midwest": 0, "south": 1, "east": 0}
    next_turn_is(g, "nixon")


def test_henry_luce_removes_a_nixon_marker_instead():
    g = event("kennedy", 36, endorsements={"midwest": -2})
    force(g, ("kennedy", "choose midwest"))
    assert g.s["endorsements"]["midwest"] == -1


def test_henry_luce_triggered_by_nixon_kennedy_chooses_and_gains():
    g = triggered("kennedy", 36)
    assert step(g) == "choose" and g.active() == ["kennedy"]
    force(g, ("kennedy", "choose east"))
    assert g.s["endorsements"]["east"] == 1
    next_turn_is(g, "nixon")


# --- 37 Lunch Counter Sit-Ins ------------------------------------------------------------------

def test_lunch_counter_sit_ins_civil_rights_climbs_then_its_leader_places_three():
    """Lunch Counter Sit-Ins: "Civil Rights climbs one position on the Issue Track. Afterwards, the
    Civil Rights leader (if any) may place up to 3 state support cubes anywhere, never more than 1
    in a single state." Nixon plays it; Kennedy leads Civil Rights."""
    g = event("nixon", 37, **empty_board(issues={"civil_rights": 1}))
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.active() == ["kennedy"] and "support NY 2" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support NY 1"), ("kennedy", "support TX 1"), ("kennedy", "support FL 1"))
    assert [g.s["support"][st] for st in ("NY", "TX", "FL")] == [1, 1, 1]
    next_turn_is(g, "kennedy")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_lunch_counter_sit_ins_leader_makes_checks_where_the_opponent_carries(edition, checks):
    g = event("nixon", 37, edition, **empty_board(issues={"civil_rights": 1}, support={"TX": -4}))
    force(g, ("kennedy", "support TX 1"))
    if checks:
        assert g.active() == [CHANCE]
        draws(g, "kennedy")
    assert g.s["support"]["TX"] == -3
    assert g.active() == ["kennedy"]


def test_lunch_counter_sit_ins_without_a_leader_only_the_climb():
    g = event("nixon", 37, issues={"civil_rights": 0})
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    next_turn_is(g, "kennedy")


# --- 40 Northern Blacks ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_northern_blacks_civil_rights_leader_in_new_york_illinois_michigan(edition):
    """Northern Blacks: "The Civil Rights leader (if any) may distribute up to 5 state support
    cubes, at most 2 per state, among three states only: New York, Illinois and Michigan." Kennedy
    plays it; Nixon leads Civil Rights; Kennedy carries New York (GMT: checks there)."""
    g = event("kennedy", 40, edition, **empty_board(issues={"civil_rights": -1},
                                                    support={"NY": 4}))
    assert g.active() == ["nixon"] and support_states(g, "nixon") == ["IL", "MI", "NY"]
    assert "support IL 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "support NY 2"))
    if edition == "gmt":
        assert g.top["step"] == "support_checks" and g.top["left"] == 2
        draws(g, "nixon", "kennedy")
        assert g.s["support"]["NY"] == 3
    else:
        assert g.s["support"]["NY"] == 2
    force(g, ("nixon", "support IL 2"), ("nixon", "support MI 1"))
    assert (g.s["support"]["IL"], g.s["support"]["MI"]) == (-2, -1)
    next_turn_is(g, "nixon")


def test_northern_blacks_without_a_civil_rights_leader_does_nothing():
    g = event("kennedy", 40, issues={"civil_rights": 0})
    next_turn_is(g, "nixon")


# --- 41 Pierre Salinger ------------------------------------------------------------------------

def test_pierre_salinger_three_issue_support_on_one_issue():
    """Pierre Salinger: "Kennedy receives 3 issue support cubes, all placed on a single issue of
    his choice.\""""
    g = event("kennedy", 41, issues={"economy": -1})
    assert g.legal_actions("kennedy") == ["choose civil_rights", "choose defense", "choose economy"]
    force(g, ("kennedy", "choose economy"))
    assert g.s["issues"] == {"defense": 0, "economy": 2, "civil_rights": 0}
    next_turn_is(g, "nixon")


def test_pierre_salinger_triggered_by_nixon_still_kennedys():
    g = triggered("kennedy", 41)
    assert g.active() == ["kennedy"]
    force(g, ("kennedy", "choose defense"))
    assert g.s["issues"]["defense"] == 3
    next_turn_is(g, "nixon")


def test_pierre_salinger_preempted_cannot_be_triggered():
    g = first("kennedy", 41)
    force(g, ("kennedy", "play 41 position preempt"), ("kennedy", "position economy"),
          ("kennedy", "position economy"))
    next_turn_is(g, "nixon")
    assert g.s["momentum"]["kennedy"] == 0 and g.s["discard"] == [41]
    assert g.s["issues"]["economy"] == 2


# --- 43 Catholic Support -----------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_catholic_support_seven_anywhere_two_per_state(edition):
    """Catholic Support: "Kennedy may place up to 7 state support cubes anywhere, with no state
    receiving more than 2." GMT: Nixon's token in California calls for checks there."""
    g = event("kennedy", 43, edition, **empty_board())
    assert support_states(g, "kennedy") == ALL_STATES
    assert "support NY 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support CA 2"))
    if edition == "gmt":
        draws(g, "kennedy", "nixon")
        assert g.s["support"]["CA"] == 1
    else:
        assert g.s["support"]["CA"] == 2
    force(g, ("kennedy", "support NY 2"), ("kennedy", "support PA 2"), ("kennedy", "support IL 1"))
    assert [g.s["support"][st] for st in ("NY", "PA", "IL")] == [2, 2, 1]
    next_turn_is(g, "nixon")


# --- 45 Compact of Fifth Avenue ----------------------------------------------------------------

def test_compact_of_fifth_avenue_new_york_civil_rights_and_eastern_media():
    """Compact of Fifth Avenue: "Nixon's candidate token is relocated to New York with no travel
    cost. Nixon then adds 2 state support cubes to New York, 1 issue support cube to Civil Rights,
    and 1 media support cube to the Eastern advertising box.\""""
    g = event("nixon", 45, support={"NY": 1}, issues={"civil_rights": 0}, media={"east": 2})
    assert g.s["tokens"]["nixon"] == "NY"
    assert g.s["support"]["NY"] == -1
    assert g.s["issues"]["civil_rights"] == -1
    assert g.s["media"]["east"] == 1                 # removes one of Kennedy's two first
    next_turn_is(g, "kennedy")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_compact_of_fifth_avenue_checks_in_new_york_before_the_media_cube(edition, checks):
    g = event("nixon", 45, edition, support={"NY": 4}, media={"east": 0})
    if checks:
        assert g.active() == [CHANCE] and g.top["left"] == 2
        assert g.s["media"]["east"] == 0 and g.s["tokens"]["nixon"] == "NY"
        draws(g, "nixon", "kennedy")
        assert g.s["support"]["NY"] == 3
    else:
        assert g.s["support"]["NY"] == 2
    assert g.s["media"]["east"] == -1 and g.s["issues"]["civil_rights"] == -1
    next_turn_is(g, "kennedy")


def test_compact_of_fifth_avenue_preempted_costs_two_momentum_and_is_discarded():
    g = first("nixon", 45)
    force(g, ("nixon", "play 45 campaign preempt"), ("nixon", "done"))
    next_turn_is(g, "kennedy")
    assert g.s["momentum"]["nixon"] == 0 and g.s["discard"] == [45]
    assert g.s["tokens"]["nixon"] == "CA"


# --- 46 Prime-Time Television ------------------------------------------------------------------

def test_prime_time_television_region_with_media_up_to_five_two_per_state():
    """Prime-Time Television: "The player chooses one region in which he has media support cubes
    and may place up to 5 state support cubes in total in that region's states, no more than 2 in
    any one state." Kennedy's media exempts him from checks (Nixon carries Ohio)."""
    g = event("kennedy", 46, **empty_board(media={"midwest": 1, "west": 2, "east": -1},
                                           support={"OH": -4}))
    assert g.legal_actions("kennedy") == ["choose midwest", "choose west"]
    force(g, ("kennedy", "choose midwest"))
    assert support_states(g, "kennedy") == list(STATES_BY_REGION["midwest"])
    assert "support IL 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support OH 2"))
    assert g.active() == ["kennedy"] and g.s["support"]["OH"] == -2     # no checks
    force(g, ("kennedy", "support IL 2"), ("kennedy", "support MI 1"))
    assert (g.s["support"]["IL"], g.s["support"]["MI"]) == (2, 1)
    next_turn_is(g, "nixon")


def test_prime_time_television_without_media_does_nothing():
    g = first("kennedy", 46)
    setup(g, media={"east": -1, "west": -2})
    before = dict(g.s["support"])
    force(g, ("kennedy", "play 46 event"))
    assert g.s["support"] == before
    assert 46 in g.s["removed"]
    next_turn_is(g, "nixon")


def test_prime_time_television_triggered_uses_the_triggering_players_media():
    g = triggered("kennedy", 46, **empty_board(media={"south": -1, "east": 2}))
    assert step(g) == "place_support" and g.active() == ["nixon"]     # one region: no question
    assert support_states(g, "nixon") == list(STATES_BY_REGION["south"])
    force(g, ("nixon", "support TX 2"), ("nixon", "done"))
    assert g.s["support"]["TX"] == -2
    next_turn_is(g, "nixon")


# --- 47 The Cold War ---------------------------------------------------------------------------

def test_the_cold_war_defense_leader_places_five_one_per_state():
    """The Cold War: "The Defense leader (if any) may place up to 5 state support cubes anywhere,
    never more than 1 in a single state." Kennedy plays it; Nixon leads Defense."""
    g = event("kennedy", 47, **empty_board(issues={"defense": -3}))
    assert g.active() == ["nixon"] and not any(a.endswith(" 2") for a in g.legal_actions("nixon"))
    for st in ("OH", "PA", "NY", "IL", "TX"):
        force(g, ("nixon", f"support {st} 1"))
    assert sum(abs(v) for v in g.s["support"].values()) == 5
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "nixon")


def test_the_cold_war_without_a_defense_leader_does_nothing():
    g = event("kennedy", 47, issues={"defense": 0})
    next_turn_is(g, "nixon")


# --- 48 Rising Food Prices ---------------------------------------------------------------------

def test_rising_food_prices_economy_climbs_and_nixon_gets_two():
    """Rising Food Prices: "Economy climbs one position on the Issue Track; Nixon then receives 2
    issue support cubes in Economy.\""""
    g = event("nixon", 48, issues={"economy": 1})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert g.s["issues"]["economy"] == -1
    next_turn_is(g, "kennedy")


def test_rising_food_prices_triggered_by_kennedy_still_helps_nixon():
    g = triggered("nixon", 48, issue_track=["defense", "civil_rights", "economy"])
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    assert g.s["issues"]["economy"] == -2
    next_turn_is(g, "kennedy")


# --- 49 Eleanor Roosevelt's Speaking Tour ------------------------------------------------------

def test_eleanor_roosevelt_s_speaking_tour_five_in_the_midwest_two_per_state():
    """Eleanor Roosevelt's Speaking Tour: "Kennedy may place up to 5 state support cubes in total
    in Midwestern states, no more than 2 in any one state.\""""
    g = event("kennedy", 49, **empty_board())
    assert support_states(g, "kennedy") == list(STATES_BY_REGION["midwest"])
    assert "support OH 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support OH 2"), ("kennedy", "support MO 2"), ("kennedy", "support KY 1"))
    assert [g.s["support"][st] for st in ("OH", "MO", "KY")] == [2, 2, 1]
    next_turn_is(g, "nixon")


# --- 50 Industrial Midwest ---------------------------------------------------------------------

def test_industrial_midwest_six_named_states_two_per_state():
    """Industrial Midwest: "Nixon may distribute up to 5 state support cubes, at most 2 per state,
    among these six states only: Ohio, Michigan, Illinois, Indiana, Wisconsin and Minnesota.\""""
    g = event("nixon", 50, **empty_board())
    assert support_states(g, "nixon") == ["IL", "IN", "MI", "MN", "OH", "WI"]
    assert "support OH 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "support OH 2"), ("nixon", "support WI 2"), ("nixon", "support MN 1"))
    assert [g.s["support"][st] for st in ("OH", "WI", "MN")] == [-2, -2, -1]
    next_turn_is(g, "kennedy")


def test_industrial_midwest_triggered_by_kennedy_nixon_still_places():
    g = triggered("nixon", 50, **empty_board())
    assert g.active() == ["nixon"] and step(g) == "place_support"
    force(g, ("nixon", "support IL 1"), ("nixon", "done"))
    assert g.s["support"]["IL"] == -1
    next_turn_is(g, "kennedy")


# --- rulings -----------------------------------------------------------------------------------

def test_every_ruling_of_this_module_names_a_card_of_the_batch():
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[3] / "engine/games/tmotp/data/rulings/support_events.json"
    rulings = json.loads(path.read_text(encoding="utf-8"))
    from engine.games.tmotp.events import support_events
    assert {int(k) for k in rulings} <= set(support_events.EVENTS)
    assert all(RULINGS[int(k)] == v for k, v in rulings.items())
