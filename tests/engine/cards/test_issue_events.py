"""Card events of batch D (engine/games/tmotp/events/issue_events.py): issue support, momentum,
media and the issue leaders' events, including the six GMT-only cards (92-97, tested in GMT games).

Each test sets a position, resolves the event (played, triggered or preempted) and checks the
exact result against the card's text (quoted from the card data's ``effect``) or the module's
ruling (data/rulings/issue_events.json).
"""
import json
from functools import partial
from pathlib import Path

import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction
from engine.games.tmotp.data import CARDS, RULINGS, STATES, STATES_BY_REGION
from engine.games.tmotp.events import event_playable
from tests.engine.scenarios.helpers import EDITIONS, draws, force, setup, start, step

from . import helpers as cards
from .helpers import next_turn_is, support_states

# Cards held but never played here (none of this batch).
FILL = {"kennedy": [36, 38, 41, 43, 49, 54], "nixon": [4, 12, 25, 27, 29, 30]}
first = partial(cards.first, fill=FILL)
event = partial(cards.event, fill=FILL)
triggered = partial(cards.triggered, fill=FILL)
BATCH = {51, 52, 59, 60, 62, 63, 64, 67, 68, 70, 73, 75, 77, 78, 80, 82, 84, 86, 89,
         92, 93, 95, 96, 97}
ALL_STATES = sorted(STATES)


def removed_once(g, cid):
    """An event card played or triggered is removed from the game, never discarded."""
    return g.s["removed"].count(cid) == 1 and cid not in g.s["discard"]


def test_every_card_of_the_batch_has_an_event_and_a_test_here():
    from engine.games.tmotp.events import EVENTS, issue_events
    assert set(issue_events.EVENTS) == BATCH
    assert all(EVENTS[c] is issue_events.EVENTS[c] for c in BATCH)
    src = Path(__file__).read_text(encoding="utf-8")
    for cid in BATCH:
        slug = "".join(ch if ch.isalnum() else "_" for ch in CARDS[cid]["name"].lower())
        slug = "_".join(w for w in slug.split("_") if w)
        assert f"def test_{slug}_" in src, CARDS[cid]["name"]


def test_every_ruling_of_this_module_names_a_card_of_the_batch():
    path = Path(__file__).resolve().parents[3] / "engine/games/tmotp/data/rulings/issue_events.json"
    rulings = json.loads(path.read_text(encoding="utf-8"))
    assert rulings and {int(k) for k in rulings} <= BATCH
    assert all(RULINGS[int(k)] == v for k, v in rulings.items())


def test_the_gmt_only_cards_of_the_batch_are_dealt_only_in_gmt_games():
    g_gmt, g_zman = first("kennedy"), first("kennedy", edition="zman")
    for cid in (92, 93, 95, 96, 97):
        assert CARDS[cid]["edition"] == "gmt_2nd_only"
        assert cid in g_gmt.s["deck"] and cid not in g_zman.s["deck"]


# --- 51 Missile Gap ----------------------------------------------------------------------------

def test_missile_gap_kennedy_receives_three_defense_cubes():
    """Missile Gap: "Kennedy receives 3 issue support cubes in Defense." Opposing cubes go first."""
    g = event("kennedy", 51, issues={"defense": -1, "economy": -1})
    assert g.s["issues"] == {"defense": 2, "economy": -1, "civil_rights": 0}
    assert removed_once(g, 51)
    next_turn_is(g, "nixon")


def test_missile_gap_played_by_nixon_for_cp_and_triggered_by_kennedy():
    g = triggered("nixon", 51)
    assert g.s["issues"]["defense"] == 3
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 2}
    assert g.s["rest"] == {"kennedy": 0, "nixon": 1}        # rest cubes go to who played it
    assert removed_once(g, 51)
    next_turn_is(g, "kennedy")


def test_missile_gap_preempted_by_nixon_cannot_be_triggered():
    g = first("nixon", 51)
    force(g, ("nixon", "play 51 campaign preempt"), ("nixon", "done"))
    assert g.s["momentum"]["nixon"] == 0
    next_turn_is(g, "kennedy")                               # no trigger offered
    assert g.s["discard"] == [51] and 51 not in g.s["removed"]
    assert g.s["issues"]["defense"] == 0


# --- 52 Hurricane Donna ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_hurricane_donna_the_player_moves_to_florida_takes_momentum_and_support(edition):
    """Hurricane Donna: "The player's candidate token is relocated to Florida with no travel cost;
    the player takes 1 momentum marker and gets 1 state support in Florida.\""""
    g = event("nixon", 52, edition)
    assert g.s["tokens"] == {"kennedy": "MA", "nixon": "FL"}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    assert g.s["support"]["FL"] == -1
    assert removed_once(g, 52)
    next_turn_is(g, "kennedy")


def test_hurricane_donna_triggered_benefits_the_triggering_player():
    g = triggered("nixon", 52, support={"FL": -1})
    assert g.s["tokens"] == {"kennedy": "FL", "nixon": "CA"}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}     # paid 1 to trigger, took 1
    assert g.s["support"]["FL"] == 0                          # removes Nixon's cube first
    next_turn_is(g, "kennedy")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_hurricane_donna_support_check_where_the_opponents_token_stands_gmt_only(edition, checks):
    g = event("kennedy", 52, edition, tokens={"nixon": "FL"})
    if checks:
        assert g.active() == [CHANCE] and g.top["where"] == "FL" and g.top["seat"] == "kennedy"
        draws(g, "nixon")
        assert g.s["support"]["FL"] == 0
    else:
        assert g.s["support"]["FL"] == 1
    assert g.s["tokens"]["kennedy"] == "FL" and g.s["momentum"]["kennedy"] == 3
    next_turn_is(g, "nixon")


def test_hurricane_donna_southern_media_exempts_from_the_check():
    g = event("kennedy", 52, support={"FL": -4}, media={"south": 1})
    assert g.s["support"]["FL"] == -3
    next_turn_is(g, "nixon")


# --- 59 Mid-Atlantic ---------------------------------------------------------------------------

def test_mid_atlantic_up_to_five_in_five_states_two_per_state():
    """Mid-Atlantic: "Kennedy may distribute up to 5 state support cubes, at most 2 per state,
    among these five states only: New York, Pennsylvania, New Jersey, Maryland and Delaware.\""""
    g = event("kennedy", 59, support={"PA": -1})
    assert support_states(g, "kennedy") == ["DE", "MD", "NJ", "NY", "PA"]
    assert "support NY 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support NY 2"), ("kennedy", "support PA 2"))
    assert "NY" not in support_states(g, "kennedy")
    assert g.legal_actions("kennedy") == ["done", "support DE 1", "support MD 1", "support NJ 1"]
    force(g, ("kennedy", "support DE 1"))
    assert {st: g.s["support"][st] for st in ("NY", "PA", "NJ", "MD", "DE")} == \
        {"NY": 2, "PA": 1, "NJ": 0, "MD": 0, "DE": 1}
    next_turn_is(g, "nixon")


def test_mid_atlantic_triggered_by_nixon_kennedy_still_places():
    g = triggered("kennedy", 59)
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    force(g, ("kennedy", "support NJ 1"), ("kennedy", "done"))
    assert g.s["support"]["NJ"] == 1 and g.s["momentum"]["nixon"] == 1
    next_turn_is(g, "nixon")


# --- 60 World Series Ends ----------------------------------------------------------------------

def test_world_series_ends_the_owner_of_eastern_media_places_up_to_five_in_the_east():
    """World Series Ends: "Whichever player owns the media support in the Eastern advertising box
    may place up to 5 state support cubes in total in Eastern states, no more than 2 in any one
    state." Kennedy plays it; Nixon owns the Eastern media and places."""
    g = event("kennedy", 60, media={"east": -1})
    assert step(g) == "place_support" and g.active() == ["nixon"]
    assert support_states(g, "nixon") == list(STATES_BY_REGION["east"])
    assert "support NY 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "support NY 2"), ("nixon", "support PA 2"), ("nixon", "support NJ 1"))
    assert (g.s["support"]["NY"], g.s["support"]["PA"], g.s["support"]["NJ"]) == (-2, -2, -1)
    next_turn_is(g, "nixon")


def test_world_series_ends_eastern_media_exempts_the_owner_from_checks():
    """GMT: the owner has media support in the East, so no support check even where the opponent
    carries the state (ruling)."""
    g = event("nixon", 60, support={"NY": 4}, tokens={"kennedy": "PA"}, media={"east": -2})
    force(g, ("nixon", "support NY 2"), ("nixon", "support PA 2"))
    assert g.s["support"]["NY"] == 2 and g.s["support"]["PA"] == -2
    force(g, ("nixon", "done"))
    next_turn_is(g, "kennedy")


def test_world_series_ends_with_an_empty_eastern_box_nothing_happens():
    g = event("kennedy", 60, media={"west": 2, "south": -1})
    assert removed_once(g, 60)
    next_turn_is(g, "nixon")


# --- 62 Trial of Gary Powers -------------------------------------------------------------------

def test_trial_of_gary_powers_defense_climbs_two_and_its_leader_takes_momentum():
    """Trial of Gary Powers: "Defense climbs two positions on the Issue Track. Afterwards, the
    Defense leader (if any) takes 1 momentum marker." Kennedy plays it; Nixon leads Defense."""
    g = event("kennedy", 62, issue_track=["economy", "civil_rights", "defense"],
              issues={"defense": -1})
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    next_turn_is(g, "nixon")


def test_trial_of_gary_powers_from_second_place_climbs_to_first():
    g = event("nixon", 62, issue_track=["civil_rights", "defense", "economy"],
              issues={"defense": 2})
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 2}


def test_trial_of_gary_powers_without_a_defense_leader_nobody_takes_momentum():
    g = event("nixon", 62, issue_track=["economy", "civil_rights", "defense"],
              issues={"economy": 1})
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "kennedy")


# --- 63 Give Me A Week -------------------------------------------------------------------------

def test_give_me_a_week_nixon_gives_up_two_momentum_and_a_cube_in_each_issue():
    """Give Me A Week: "Nixon gives up 2 momentum markers and loses 1 issue support cube from each
    of the three issues." Kennedy's cubes stay."""
    g = event("kennedy", 63, momentum={"nixon": 3},
              issues={"defense": -2, "economy": -1, "civil_rights": 1})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g.s["issues"] == {"defense": -1, "economy": 0, "civil_rights": 1}
    next_turn_is(g, "nixon")


def test_give_me_a_week_losses_limited_to_what_nixon_has():
    g = triggered("nixon", 63, momentum={"nixon": 1}, issues={"defense": 1, "economy": -1})
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 0}
    assert g.s["issues"] == {"defense": 1, "economy": 0, "civil_rights": 0}
    next_turn_is(g, "kennedy")


# --- 64 Stump Speech ---------------------------------------------------------------------------

def test_stump_speech_the_player_takes_markers_until_equal():
    """Stump Speech: "If the opponent holds more momentum markers than the player, the player
    takes markers until both hold the same number.\""""
    g = event("kennedy", 64, momentum={"kennedy": 1, "nixon": 5})
    assert g.s["momentum"] == {"kennedy": 5, "nixon": 5}
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("mine,theirs", [(3, 3), (4, 1)])
def test_stump_speech_nothing_when_the_opponent_holds_no_more(mine, theirs):
    g = event("nixon", 64, momentum={"nixon": mine, "kennedy": theirs})
    assert g.s["momentum"] == {"nixon": mine, "kennedy": theirs}
    next_turn_is(g, "kennedy")


def test_stump_speech_triggered_compares_after_the_trigger_is_paid():
    g = triggered("kennedy", 64, momentum={"kennedy": 4, "nixon": 2})
    assert g.s["momentum"] == {"kennedy": 4, "nixon": 4}     # 2 - 1 for the trigger, + 3
    next_turn_is(g, "nixon")


# --- 67 Voter Registration Drive ---------------------------------------------------------------

def test_voter_registration_drive_only_in_states_with_no_cubes_one_per_state():
    """Voter Registration Drive: "The player may place up to 3 state support cubes, 1 per state,
    and only in states that currently hold no cubes of either player.\""""
    g = event("nixon", 67, edition="zman")
    empty = sorted(st for st in ALL_STATES if g.s["support"][st] == 0)
    assert support_states(g, "nixon") == empty
    assert "MA" not in empty and "KS" not in empty and "TX" in empty
    assert not any(a.endswith(" 2") for a in g.legal_actions("nixon"))
    force(g, ("nixon", "support TX 1"), ("nixon", "support NY 1"))
    assert "TX" not in support_states(g, "nixon")
    force(g, ("nixon", "support IL 1"))
    assert (g.s["support"]["TX"], g.s["support"]["NY"], g.s["support"]["IL"]) == (-1, -1, -1)
    next_turn_is(g, "kennedy")


def test_voter_registration_drive_triggered_the_triggering_player_places():
    g = triggered("nixon", 67, clear_support=True, support={"NY": -1})
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    assert "NY" not in support_states(g, "kennedy") and len(support_states(g, "kennedy")) == 49
    force(g, ("kennedy", "support OH 1"), ("kennedy", "done"))
    assert g.s["support"]["OH"] == 1
    next_turn_is(g, "kennedy")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_voter_registration_drive_check_in_an_empty_state_the_opponent_occupies(edition, checks):
    g = event("kennedy", 67, edition)                    # Nixon's token in California (empty)
    assert g.s["support"]["CA"] == 0 and g.s["tokens"]["nixon"] == "CA"
    force(g, ("kennedy", "support CA 1"))
    if checks:
        assert g.active() == [CHANCE] and g.top["where"] == "CA"
        draws(g, "kennedy")
    assert g.s["support"]["CA"] == 1
    assert g.active() == ["kennedy"] and step(g) == "place_support"


# --- 68 Peace Without Surrender ----------------------------------------------------------------

def test_peace_without_surrender_defense_climbs_one_and_nixon_gains_a_defense_cube():
    """Peace Without Surrender: "Defense climbs one position on the Issue Track; Nixon then
    receives 1 issue support cube in Defense.\""""
    g = event("nixon", 68, issue_track=["economy", "civil_rights", "defense"],
              issues={"defense": 2})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert g.s["issues"]["defense"] == 1
    next_turn_is(g, "kennedy")


def test_peace_without_surrender_triggered_by_nixon_from_kennedys_play():
    g = triggered("kennedy", 68)
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]   # already first
    assert g.s["issues"]["defense"] == -1
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    next_turn_is(g, "nixon")


# --- 70 The Old Nixon --------------------------------------------------------------------------

def test_the_old_nixon_nixon_gives_up_one_and_kennedy_three():
    """The Old Nixon: "Nixon gives up 1 momentum marker and Kennedy gives up 3 momentum markers.\""""
    g = event("nixon", 70, momentum={"kennedy": 5, "nixon": 2})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    next_turn_is(g, "kennedy")


def test_the_old_nixon_losses_limited_to_what_each_holds():
    g = triggered("kennedy", 70, momentum={"kennedy": 2, "nixon": 1})
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 0}
    next_turn_is(g, "nixon")


# --- 73 Norman Vincent Peale -------------------------------------------------------------------

def test_norman_vincent_peale_nixon_strips_up_to_five_one_per_state():
    """Norman Vincent Peale: "Nixon may strip up to 5 of Kennedy's state support cubes in total
    from anywhere on the map, no more than 1 from any one state.\""""
    g = event("nixon", 73, clear_support=True,
              support={"GA": 2, "MA": 2, "TX": 1, "NY": 3, "IL": 1, "CA": 1, "OH": -2})
    assert g.legal_actions("nixon") == ["done", "remove CA", "remove GA", "remove IL",
                                        "remove MA", "remove NY", "remove TX"]
    force(g, ("nixon", "remove GA"))
    assert "remove GA" not in g.legal_actions("nixon")
    force(g, ("nixon", "remove MA"), ("nixon", "remove TX"), ("nixon", "remove NY"),
          ("nixon", "remove IL"))
    assert {st: g.s["support"][st] for st in ("GA", "MA", "TX", "NY", "IL", "CA", "OH")} == \
        {"GA": 1, "MA": 1, "TX": 0, "NY": 2, "IL": 0, "CA": 1, "OH": -2}
    next_turn_is(g, "kennedy")


def test_norman_vincent_peale_triggered_by_kennedy_nixon_still_chooses():
    g = triggered("nixon", 73, clear_support=True, support={"NY": 2})
    assert step(g) == "remove_support" and g.active() == ["nixon"]
    force(g, ("nixon", "remove NY"))
    assert g.s["support"]["NY"] == 1
    next_turn_is(g, "kennedy")


def test_norman_vincent_peale_unplayable_once_greater_houston_ministerial_association():
    g = start("gmt", kennedy=[1, 36, 38, 41, 43, 49], nixon=[73, 4, 12, 25, 27, 29],
              initiative="kennedy", start_player="kennedy")
    assert event_playable(g, 73)
    force(g, ("kennedy", "play 1 event"), ("kennedy", "done"))
    assert not event_playable(g, 73)
    legal = g.legal_actions("nixon")
    assert "play 73 event" not in legal and "play 73 campaign preempt" not in legal
    force(g, ("nixon", "play 73 campaign"), ("nixon", "done"))
    next_turn_is(g, "kennedy")                                # Kennedy is offered no trigger
    assert g.s["discard"] == [73] and 73 not in g.s["removed"]


# --- 75 Republican TV Spots --------------------------------------------------------------------

def test_republican_tv_spots_nixon_to_new_york_and_three_media_cubes():
    """Republican TV Spots: "Nixon's candidate token is relocated to New York with no travel cost,
    and Nixon gets to put 3 media support cubes into advertising boxes.\""""
    g = first("nixon", 75)
    setup(g, media={"east": 1})
    bag = dict(g.s["bag"])
    force(g, ("nixon", "play 75 event"))
    assert g.s["tokens"]["nixon"] == "NY"
    assert step(g) == "advertising" and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == ["media east", "media midwest", "media south", "media west"]
    force(g, ("nixon", "media east"), ("nixon", "media east"), ("nixon", "media south"))
    assert g.s["media"] == {"west": 0, "midwest": 0, "south": -1, "east": -1}
    assert g.s["bag"] == bag                                   # no support checks
    next_turn_is(g, "kennedy")


def test_republican_tv_spots_triggered_by_kennedy_benefits_nixon():
    g = triggered("nixon", 75)
    assert g.active() == ["nixon"] and g.s["tokens"]["nixon"] == "NY"
    force(g, ("nixon", "media west"), ("nixon", "media west"), ("nixon", "media west"))
    assert g.s["media"]["west"] == -3
    next_turn_is(g, "kennedy")


# --- 77 Suburban Voters ------------------------------------------------------------------------

def test_suburban_voters_states_of_twenty_electoral_votes_two_per_state():
    """Suburban Voters: "Kennedy may distribute up to 5 state support cubes, at most 2 per state,
    among states whose electoral value is at least 20.\""""
    g = event("kennedy", 77, edition="zman")
    assert support_states(g, "kennedy") == ["CA", "IL", "MI", "NY", "OH", "PA", "TX"]
    assert "support TX 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support OH 2"), ("kennedy", "support TX 2"), ("kennedy", "support CA 1"))
    assert (g.s["support"]["OH"], g.s["support"]["TX"], g.s["support"]["CA"]) == (1, 2, 1)
    next_turn_is(g, "nixon")


def test_suburban_voters_gmt_check_where_nixons_token_stands():
    g = event("kennedy", 77)
    force(g, ("kennedy", "support CA 2"))
    assert g.active() == [CHANCE] and g.top["left"] == 2
    draws(g, "kennedy", "nixon")
    assert g.s["support"]["CA"] == 1
    assert "CA" not in support_states(g, "kennedy")           # declared once
    force(g, ("kennedy", "done"))
    next_turn_is(g, "nixon")


# --- 78 Stock Market in Decline ----------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_stock_market_in_decline_economy_climbs_two_and_its_leader_adds_two_in_new_york(edition):
    """Stock Market in Decline: "Economy climbs two positions on the Issue Track. Afterwards, the
    Economy leader (if any) adds 2 state support cubes to New York." Kennedy plays it; Nixon
    leads Economy."""
    g = event("kennedy", 78, edition, issue_track=["defense", "civil_rights", "economy"],
              issues={"economy": -1}, support={"NY": 1})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    assert g.s["support"]["NY"] == -1
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_stock_market_in_decline_two_checks_where_the_opponent_carries_new_york(edition, checks):
    g = event("nixon", 78, edition, issues={"economy": 2}, support={"NY": -4})
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
    if checks:
        assert g.active() == [CHANCE] and g.top["seat"] == "kennedy" and g.top["left"] == 2
        draws(g, "kennedy", "nixon")
        assert g.s["support"]["NY"] == -3
    else:
        assert g.s["support"]["NY"] == -2
    next_turn_is(g, "kennedy")


def test_stock_market_in_decline_without_an_economy_leader_only_the_climb():
    g = event("nixon", 78, issue_track=["civil_rights", "economy", "defense"], support={"NY": 0})
    assert g.s["issue_track"] == ["economy", "civil_rights", "defense"]
    assert g.s["support"]["NY"] == 0
    next_turn_is(g, "kennedy")


# --- 80 Herblock -------------------------------------------------------------------------------

def test_herblock_kennedy_takes_up_to_two_nixon_media_cubes_off_the_board():
    """Herblock: "Kennedy may take up to 2 of Nixon's media support cubes off the board.\""""
    g = event("kennedy", 80, media={"east": -2, "south": -1, "west": 1})
    assert step(g) == "remove_media" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == ["done", "remove east", "remove south"]
    force(g, ("kennedy", "remove east"), ("kennedy", "remove east"))
    assert g.s["media"] == {"west": 1, "midwest": 0, "south": -1, "east": 0}
    next_turn_is(g, "nixon")


def test_herblock_kennedy_may_stop_early():
    g = event("kennedy", 80, media={"midwest": -3})
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "remove west")
    force(g, ("kennedy", "remove midwest"), ("kennedy", "done"))
    assert g.s["media"]["midwest"] == -2
    next_turn_is(g, "nixon")


def test_herblock_limited_to_nixons_media_cubes():
    g = triggered("nixon", 80, media={"west": -1, "east": 2})
    assert g.legal_actions("kennedy") == ["done", "remove west"]
    force(g, ("kennedy", "remove west"))                      # none left: over
    assert g.s["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 2}
    next_turn_is(g, "kennedy")


def test_herblock_without_nixon_media_nothing_happens():
    g = event("kennedy", 80, media={"east": 1})
    assert g.s["media"]["east"] == 1 and removed_once(g, 80)
    next_turn_is(g, "nixon")


# --- 82 Fidel Castro ---------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_fidel_castro_the_defense_leader_takes_momentum_and_florida_support(edition):
    """Fidel Castro: "The Defense leader (if any) takes 1 momentum marker and gets 1 state support
    in Florida." Nixon plays it; Kennedy leads Defense."""
    g = event("nixon", 82, edition, issues={"defense": 1}, support={"FL": -1})
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 2}
    assert g.s["support"]["FL"] == 0
    next_turn_is(g, "kennedy")


def test_fidel_castro_without_a_defense_leader_nothing_happens():
    g = event("kennedy", 82, issues={"economy": 2})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2} and g.s["support"]["FL"] == 0
    next_turn_is(g, "nixon")


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_fidel_castro_check_where_the_opponent_carries_florida(edition, checks):
    g = event("kennedy", 82, edition, issues={"defense": -1}, support={"FL": 5})
    assert g.s["momentum"]["nixon"] == 3
    if checks:
        assert g.active() == [CHANCE] and g.top["seat"] == "nixon" and g.top["left"] == 1
        draws(g, "nixon")
    assert g.s["support"]["FL"] == 4
    next_turn_is(g, "nixon")


# --- 84 Quemoy and Matsu -----------------------------------------------------------------------

def test_quemoy_and_matsu_the_defense_leader_takes_momentum_and_places_three():
    """Quemoy and Matsu: "The Defense leader (if any) takes 1 momentum marker and may place up to
    3 state support cubes anywhere, never more than 1 in a single state." Kennedy plays it; Nixon
    leads Defense and places."""
    g = event("kennedy", 84, edition="zman", issues={"defense": -2})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    assert step(g) == "place_support" and g.active() == ["nixon"]
    assert support_states(g, "nixon") == ALL_STATES
    assert not any(a.endswith(" 2") for a in g.legal_actions("nixon"))
    force(g, ("nixon", "support OH 1"), ("nixon", "support MI 1"), ("nixon", "support MA 1"))
    assert (g.s["support"]["OH"], g.s["support"]["MI"], g.s["support"]["MA"]) == (-2, -1, 1)
    next_turn_is(g, "nixon")


def test_quemoy_and_matsu_without_a_defense_leader_nothing_happens():
    g = event("nixon", 84)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "kennedy")


# --- 86 Herb Klein -----------------------------------------------------------------------------

def test_herb_klein_nixon_places_three_issue_cubes_where_he_chooses():
    """Herb Klein: "Nixon receives 3 issue support cubes in total, placed on whichever issue or
    issues he chooses.\""""
    g = event("nixon", 86, issues={"defense": 1, "economy": 0})
    assert step(g) == "issue_cubes" and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == ["position civil_rights", "position defense",
                                        "position economy"]
    force(g, ("nixon", "position defense"), ("nixon", "position defense"))
    assert g.s["issues"]["defense"] == -1                    # Kennedy's cube removed first
    force(g, ("nixon", "position economy"))
    assert g.s["issues"] == {"defense": -1, "economy": -1, "civil_rights": 0}
    next_turn_is(g, "kennedy")


def test_herb_klein_all_three_on_one_issue_triggered_by_kennedy_nixon_chooses():
    g = triggered("nixon", 86)
    assert g.active() == ["nixon"] and "done" not in g.legal_actions("nixon")
    force(g, ("nixon", "position economy"), ("nixon", "position economy"),
          ("nixon", "position economy"))
    assert g.s["issues"]["economy"] == -3
    next_turn_is(g, "kennedy")


def test_herb_klein_restricted_positioning_does_not_bar_its_debate_issue():
    """Restricted Positioning "does not affect Issue Support granted by Events": Herb Klein's
    debate issue is Civil Rights."""
    g = first("nixon", 86, restricted_positioning=True)
    assert CARDS[86]["issue"] == "civil_rights"
    force(g, ("nixon", "play 86 event"))
    for _ in range(3):
        force(g, ("nixon", "position civil_rights"))
    assert g.s["issues"]["civil_rights"] == -3


# --- 89 The New Nixon --------------------------------------------------------------------------

def test_the_new_nixon_nixon_takes_a_momentum_marker():
    """The New Nixon: "Nixon takes 1 momentum marker.\""""
    g = event("nixon", 89)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    next_turn_is(g, "kennedy")


def test_the_new_nixon_triggered_by_nixon_from_kennedys_play():
    g = triggered("kennedy", 89)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    assert removed_once(g, 89)
    next_turn_is(g, "nixon")


# --- 92 Give 'Em Hell Harry (GMT) --------------------------------------------------------------

def test_give_em_hell_harry_kennedy_leading_two_issues_loses_momentum_and_two_cubes():
    """Give 'Em Hell Harry: "If Kennedy is leading in two or more issues, Kennedy gives up 1
    momentum marker and must remove 2 of his issue support cubes in total." Kennedy chooses."""
    g = event("nixon", 92, issues={"defense": 2, "economy": 1, "civil_rights": -1})
    assert g.s["momentum"]["kennedy"] == 1
    assert step(g) == "issue_cubes" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == ["remove defense", "remove economy"]
    force(g, ("kennedy", "remove defense"))
    assert g.legal_actions("kennedy") == ["remove defense", "remove economy"]
    force(g, ("kennedy", "remove defense"))
    assert g.s["issues"] == {"defense": 0, "economy": 1, "civil_rights": -1}
    next_turn_is(g, "kennedy")


def test_give_em_hell_harry_second_cube_forced_when_one_issue_is_left():
    g = event("nixon", 92, issues={"defense": 2, "economy": 1})
    force(g, ("kennedy", "remove economy"))                   # only Defense left: taken at once
    assert g.s["issues"] == {"defense": 1, "economy": 0, "civil_rights": 0}
    next_turn_is(g, "kennedy")


def test_give_em_hell_harry_kennedy_leading_one_issue_nothing_happens():
    g = event("nixon", 92, issues={"defense": 3, "economy": -1, "civil_rights": 0})
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    assert g.s["issues"] == {"defense": 3, "economy": -1, "civil_rights": 0}
    next_turn_is(g, "kennedy")


def test_give_em_hell_harry_triggered_by_nixon_limited_losses():
    g = triggered("kennedy", 92, momentum={"kennedy": 0},
                  issues={"defense": 1, "economy": 1, "civil_rights": 1})
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 1}
    assert g.active() == ["kennedy"]
    force(g, ("kennedy", "remove civil_rights"), ("kennedy", "remove economy"))
    assert g.s["issues"] == {"defense": 1, "economy": 0, "civil_rights": 0}
    next_turn_is(g, "nixon")


# --- 93 Experience Counts (GMT) ----------------------------------------------------------------

def test_experience_counts_kennedy_loses_a_cube_in_each_issue_nixon_takes_momentum():
    """Experience Counts: "Kennedy loses 1 issue support cube from each of the three issues, and
    Nixon takes 1 momentum marker.\""""
    g = event("nixon", 93, issues={"defense": 2, "economy": 1, "civil_rights": -2})
    assert g.s["issues"] == {"defense": 1, "economy": 0, "civil_rights": -2}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 3}
    next_turn_is(g, "kennedy")


def test_experience_counts_triggered_by_nixon_from_kennedys_play():
    g = triggered("kennedy", 93, issues={"economy": 3})
    assert g.s["issues"] == {"defense": 0, "economy": 2, "civil_rights": 0}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "nixon")


# --- 95 A Time for Greatness (GMT) -------------------------------------------------------------

def test_a_time_for_greatness_nixon_loses_a_cube_in_each_issue_kennedy_places_three():
    """A Time for Greatness: "Nixon loses 1 issue support cube from each of the three issues, and
    Kennedy may place 3 state support cubes anywhere, never more than 1 in a single state.\""""
    g = event("kennedy", 95, issues={"defense": -1, "economy": 2, "civil_rights": -3})
    assert g.s["issues"] == {"defense": 0, "economy": 2, "civil_rights": -2}
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    assert support_states(g, "kennedy") == ALL_STATES
    assert not any(a.endswith(" 2") for a in g.legal_actions("kennedy"))
    force(g, ("kennedy", "support IL 1"), ("kennedy", "support MI 1"), ("kennedy", "support TX 1"))
    assert (g.s["support"]["IL"], g.s["support"]["MI"], g.s["support"]["TX"]) == (1, 1, 1)
    next_turn_is(g, "nixon")


def test_a_time_for_greatness_may_place_fewer_than_three():
    g = triggered("nixon", 95, issues={"economy": -1})
    assert g.s["issues"]["economy"] == 0
    assert g.active() == ["kennedy"] and "done" in g.legal_actions("kennedy")
    force(g, ("kennedy", "support NY 1"), ("kennedy", "done"))
    assert g.s["support"]["NY"] == 1
    next_turn_is(g, "kennedy")


# --- 96 Medal Count, 97 Cassius Clay Wins Gold (GMT) -------------------------------------------

def test_medal_count_each_leader_loses_a_cube():
    """Medal Count: "The Civil Rights leader loses 1 issue support cube in Civil Rights and the
    Economy leader loses 1 in Economy; when one player holds the lead in both of these issues, he
    additionally gives up 1 momentum marker.\""""
    g = event("kennedy", 96, issues={"civil_rights": 2, "economy": -2, "defense": 1})
    assert g.s["issues"] == {"civil_rights": 1, "economy": -1, "defense": 1}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "nixon")


def test_medal_count_a_player_leading_both_also_gives_up_momentum():
    g = event("nixon", 96, issues={"civil_rights": -2, "economy": -1, "defense": 1})
    assert g.s["issues"] == {"civil_rights": -1, "economy": 0, "defense": 1}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    next_turn_is(g, "kennedy")


def test_medal_count_leaders_found_before_the_cubes_are_removed():
    g = triggered("nixon", 96, issues={"civil_rights": 1, "economy": 1})
    assert g.s["issues"] == {"civil_rights": 0, "economy": 0, "defense": 0}
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 2}      # 1 to trigger, 1 for leading both
    next_turn_is(g, "kennedy")


def test_medal_count_with_no_leaders_nothing_happens():
    g = event("kennedy", 96, issues={"defense": -2})
    assert g.s["issues"] == {"civil_rights": 0, "economy": 0, "defense": -2}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}


def test_cassius_clay_wins_gold_defense_and_economy_leaders_lose_a_cube():
    """Cassius Clay Wins Gold: "The Defense leader loses 1 issue support cube in Defense and the
    Economy leader loses 1 in Economy; when one player holds the lead in both of these issues, he
    additionally gives up 1 momentum marker.\""""
    g = event("nixon", 97, issues={"defense": -3, "economy": 1, "civil_rights": 2})
    assert g.s["issues"] == {"defense": -2, "economy": 0, "civil_rights": 2}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "kennedy")


def test_cassius_clay_wins_gold_a_player_leading_both_also_gives_up_momentum():
    g = event("kennedy", 97, momentum={"kennedy": 3},
              issues={"defense": 2, "economy": 3, "civil_rights": -1})
    assert g.s["issues"] == {"defense": 1, "economy": 2, "civil_rights": -1}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    next_turn_is(g, "nixon")


def test_cassius_clay_wins_gold_only_economy_led():
    g = event("kennedy", 97, momentum={"nixon": 0}, issues={"economy": -1})
    assert g.s["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 0}
    next_turn_is(g, "nixon")
