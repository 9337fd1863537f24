"""Card events whose effects last until the end of the turn (issue 3, batch A).

Each test quotes the card (cards.json ``effect``) and checks the exact outcome; the rulings these
tests pin down are in engine/games/tmotp/data/rulings/turn_effects.json.
"""
import json
from pathlib import Path

import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction
from engine.games.tmotp import effects

from tests.engine.scenarios.helpers import (EDITIONS, decline_trigger, draws, end_turn, force,
                                            last_activity_phase, setup, start, step)

DATA = Path(__file__).resolve().parents[3] / "engine" / "games" / "tmotp" / "data"
STATES = {s["code"]: s for s in json.loads((DATA / "states.json").read_text())}
RULINGS = json.loads((DATA / "rulings" / "turn_effects.json").read_text())
SOUTH = sorted(c for c, s in STATES.items() if s["region"] == "south")
WEST_MIDWEST = sorted(c for c, s in STATES.items() if s["region"] in ("west", "midwest"))

# Hands used below (CP): Kennedy 20 (4), 26 (2), 31 (2), 54 (2), 55 (4), 65 (3), 74 (4),
# 79 (2), 81 (3), 85 (3), 2 (4), 6 (3), 43 (4), 41 (3), 38 (2); Nixon 4 (2), 19 (4), 30 (2),
# 69 (4), 87 (2), 88 (2), 25 (4), 28 (2), 44 (3), 71 (3), 72 (3).


def begin(kennedy, nixon, first="kennedy", edition="gmt"):
    """Turn 1, first Activity Phase: ``first`` has the initiative and plays first."""
    return start(edition, kennedy=kennedy, nixon=nixon, initiative=first, start_player=first)


def cp_play(g, seat, card, mode, *actions):
    """Play ``card`` for CP, make the action's choices, and let the opponent pass the trigger."""
    g.apply(seat, f"play {card} {mode}")
    for action in actions:
        g.apply(seat, action)
    decline_trigger(g)


def played_cp(g, seat, card, mode):
    """Play ``card`` (or "candidate") to Campaign or Position, return the CP it gives, spend none."""
    assert mode in ("campaign", "position")
    g.apply(seat, f"play {card} {mode}")
    assert step(g) == ("campaigning" if mode == "campaign" else "positioning")
    cp = g.top["cp"]
    g.apply(seat, "done")
    decline_trigger(g)
    return cp


def campaign_states(g, seat):
    return sorted({a.split()[1] for a in g.legal_actions(seat) if a.startswith("campaign")})


def refusal(g, seat, action):
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, action)
    return str(err.value)


def test_every_card_of_the_batch_has_a_ruling():
    assert sorted(map(int, RULINGS)) == [4, 19, 20, 26, 30, 31, 54, 55, 65, 69, 74, 79, 81, 85,
                                         87, 88]


# --- 4 Citizens for Nixon-Lodge --------------------------------------------------------------

def test_citizens_for_nixon_lodge_nixon_cards_count_one_cp_higher_never_above_five():
    """Citizens for Nixon-Lodge: "Until the turn ends, each card Nixon plays counts as 1 CP higher
    than printed, but never above 5 CP." The candidate card (5 CP) stays at 5."""
    g = begin([26, 31, 54, 55, 65, 85], [4, 30, 25, 69, 87, 88], first="nixon")
    force(g, ("nixon", "play 4 event"))
    assert g.s["effects"] == [4] and 4 in g.s["removed"]
    assert played_cp(g, "kennedy", 31, "campaign") == 2          # Kennedy: printed
    assert played_cp(g, "nixon", 30, "campaign") == 3            # 2 + 1
    assert played_cp(g, "kennedy", 26, "position") == 2
    assert played_cp(g, "nixon", 25, "position") == 5            # 4 + 1
    assert played_cp(g, "kennedy", 54, "campaign") == 2
    assert played_cp(g, "nixon", "candidate", "campaign") == 5   # 5 + 1, never above 5
    assert g.s["exhausted"]["nixon"] is True


def test_citizens_for_nixon_lodge_advertising_makes_one_more_support_check():
    g = begin([26, 31, 54, 55, 65, 85], [4, 30, 25, 69, 87, 88], first="nixon")
    force(g, ("nixon", "play 4 event"))
    cp_play(g, "kennedy", 31, "campaign", "done")
    force(g, ("nixon", "play 30 advertise"))
    assert g.top["step"] == "support_checks" and g.top["left"] == 3
    draws(g, "nixon", "kennedy", "kennedy")
    force(g, ("nixon", "media west"))
    assert g.s["media"]["west"] == -1


def test_citizens_for_nixon_lodge_triggered_by_nixon_still_helps_nixon_only():
    """Kennedy plays it for CP (no +1 yet: it is not in force); Nixon triggers it and from then on
    his cards count 1 CP higher, Kennedy's do not."""
    g = begin([4, 26, 31, 54, 55, 65], [30, 25, 69, 87, 88, 19])
    force(g, ("kennedy", "play 4 campaign"))
    assert g.top["cp"] == 2
    force(g, ("kennedy", "done"), ("nixon", "trigger"))
    assert g.s["effects"] == [4] and g.s["momentum"]["nixon"] == 1
    assert g.s["rest"]["kennedy"] == 2
    assert played_cp(g, "nixon", 30, "campaign") == 3
    assert played_cp(g, "kennedy", 26, "campaign") == 2


# --- 19 Old South ----------------------------------------------------------------------------

def test_old_south_civil_rights_leader_removes_five_southern_support_and_is_barred():
    """Old South: "The player leading Civil Rights must take 5 of his own state support cubes off
    Southern states, and for the rest of the turn he is barred from using CP to Campaign in any
    Southern state." He chooses the cubes; it is not optional."""
    g = begin([26, 31, 54, 55, 65, 85], [19, 30, 25, 69, 87, 88], first="nixon")
    setup(g, issues={"civil_rights": 1}, support={"TX": -2})
    force(g, ("nixon", "play 19 event"))
    assert step(g) == "remove_support" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == ["remove AL", "remove AR", "remove GA", "remove LA",
                                          "remove MS", "remove NC", "remove SC"]   # no "done"
    force(g, ("kennedy", "remove GA"), ("kennedy", "remove GA"), ("kennedy", "remove LA"),
          ("kennedy", "remove LA"), ("kennedy", "remove MS"))
    assert {st: g.s["support"][st] for st in ("GA", "LA", "MS", "AL", "TX")} == \
        {"GA": 0, "LA": 0, "MS": 1, "AL": 1, "TX": -2}
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert g.s["effects"] == [19] and g.s["effect_seats"] == {"19": "kennedy"}
    force(g, ("kennedy", "play 31 campaign"))
    states = campaign_states(g, "kennedy")
    assert not set(SOUTH) & set(states) and "NY" in states
    assert "travel GA" in g.legal_actions("kennedy")      # travel is not Campaigning
    assert "Old South" in refusal(g, "kennedy", "campaign GA 1")
    force(g, ("kennedy", "done"))
    decline_trigger(g)
    force(g, ("nixon", "play 30 campaign"))               # Nixon is not barred
    assert {"TX", "GA"} <= set(campaign_states(g, "nixon"))


def test_old_south_removal_limited_to_what_the_leader_has_in_the_south():
    """Nixon leads Civil Rights with 3 Southern cubes: he loses those 3 and the event ends."""
    g = begin([19, 26, 31, 54, 55, 65], [30, 25, 69, 87, 88, 4])
    setup(g, issues={"civil_rights": -2}, support={"TX": -2, "FL": -1})
    force(g, ("kennedy", "play 19 event"))
    assert g.active() == ["nixon"] and sorted(g.legal_actions("nixon")) == ["remove FL", "remove TX"]
    force(g, ("nixon", "remove TX"), ("nixon", "remove FL"), ("nixon", "remove TX"))
    assert g.s["support"]["TX"] == 0 and g.s["support"]["FL"] == 0
    assert g.s["support"]["GA"] == 2                       # Kennedy's cubes are untouched
    assert step(g) == "activity" and g.active() == ["nixon"]
    assert g.s["effect_seats"] == {"19": "nixon"}
    force(g, ("nixon", "play 30 campaign"))
    assert not set(SOUTH) & set(campaign_states(g, "nixon"))
    force(g, ("nixon", "done"))
    decline_trigger(g)
    force(g, ("kennedy", "play 31 campaign"))
    assert "GA" in campaign_states(g, "kennedy")


def test_old_south_leader_without_southern_support_loses_nothing_but_is_barred():
    g = begin([19, 26, 31, 54, 55, 65], [30, 25, 69, 87, 88, 4])
    setup(g, issues={"civil_rights": -1})
    before = dict(g.s["support"])
    force(g, ("kennedy", "play 19 event"))
    assert g.s["support"] == before and step(g) == "activity" and g.active() == ["nixon"]
    assert effects.campaign_barred(g, "nixon", "TX") and not effects.campaign_barred(g, "kennedy", "TX")


def test_old_south_without_a_civil_rights_leader_does_nothing():
    g = begin([19, 26, 31, 54, 55, 65], [30, 25, 69, 87, 88, 4])
    before = dict(g.s["support"])
    force(g, ("kennedy", "play 19 event"))
    assert g.s["support"] == before and g.s["effects"] == []
    assert 19 in g.s["removed"] and step(g) == "activity" and g.active() == ["nixon"]
    assert not effects.campaign_barred(g, "kennedy", "GA")


# --- 20 Nixon Egged in Michigan --------------------------------------------------------------

def test_nixon_egged_in_michigan_token_loss_and_midwest_bar():
    """Nixon Egged in Michigan: "Nixon's candidate token is relocated to Michigan with no travel
    cost. Nixon must remove 1 of his state support cubes from Michigan, and for the rest of the
    turn he is barred from using CP to Campaign in any Midwestern state.\""""
    g = begin([20, 26, 31, 54, 55, 65], [30, 25, 69, 87, 88, 4])
    setup(g, support={"MI": -2})
    force(g, ("kennedy", "play 20 event"))
    assert g.s["tokens"]["nixon"] == "MI" and g.s["support"]["MI"] == -1
    assert g.s["effects"] == [20]
    force(g, ("nixon", "play 25 campaign"))
    states = campaign_states(g, "nixon")
    assert not {"MI", "OH", "IL", "IA", "KY"} & set(states)
    assert {"NY", "CA", "TX"} <= set(states)               # one boundary away, 3 CP left
    assert "campaign NY 3" in g.legal_actions("nixon") and "campaign NY 4" not in g.legal_actions("nixon")
    assert "Nixon Egged in Michigan" in refusal(g, "nixon", "campaign MI 1")
    force(g, ("nixon", "done"))
    decline_trigger(g)
    force(g, ("kennedy", "play 31 campaign"))
    assert "MI" in campaign_states(g, "kennedy")           # Kennedy is not barred


def test_nixon_egged_in_michigan_triggered_and_nothing_to_lose():
    """Triggered by Kennedy off Nixon's CP play it hits Nixon just the same; with no Nixon cube in
    Michigan nothing is lost and Kennedy gains nothing (Losing Support)."""
    g = begin([26, 31, 54, 55, 65, 85], [20, 30, 25, 69, 87, 88], first="nixon")
    setup(g, support={"MI": 1})
    force(g, ("nixon", "play 20 campaign"), ("nixon", "campaign CA 4"), ("kennedy", "trigger"))
    assert g.s["support"]["MI"] == 1 and g.s["tokens"]["nixon"] == "MI"
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 2}
    assert effects.campaign_barred(g, "nixon", "WI") and not effects.campaign_barred(g, "kennedy", "WI")


# --- 26 Ken-Air ------------------------------------------------------------------------------

def test_ken_air_free_travel_and_one_more_cp_for_campaigning_only():
    """Ken-Air: "Until the turn ends, Kennedy pays no travel costs, and each card he uses for a
    Campaigning action counts as 1 CP higher than printed, but never above 5 CP.\""""
    g = begin([26, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 26 event"))
    assert g.s["effects"] == [26]
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 38 campaign"))
    assert g.top["cp"] == 3
    assert "campaign WA 3" in g.legal_actions("kennedy")   # West from the East: no travel cost
    assert "campaign HI 3" in g.legal_actions("kennedy")
    force(g, ("kennedy", "campaign WA 3"))
    decline_trigger(g)
    assert g.s["support"]["WA"] == 3 and g.s["tokens"]["kennedy"] == "WA"
    force(g, ("nixon", "play 25 campaign"))
    assert "campaign NY 2" in g.legal_actions("nixon")     # Nixon still pays 2 to the East
    assert "campaign NY 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "done"))
    decline_trigger(g)
    assert played_cp(g, "kennedy", 41, "position") == 3    # Positioning: printed


def test_ken_air_free_travel_one_move_between_campaigns():
    """With free travel a second move in a row adds nothing: after a move Kennedy campaigns (then
    may move again) or stops, so the action always ends."""
    g = begin([26, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 26 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 41 campaign"), ("kennedy", "travel TX"))
    assert g.top["cp"] == 4 and g.s["tokens"]["kennedy"] == "TX"
    assert not any(a.startswith("travel") for a in g.legal_actions("kennedy"))
    assert "campaign NY 4" in g.legal_actions("kennedy")
    assert "free" in refusal(g, "kennedy", "travel CA")
    force(g, ("kennedy", "campaign IL 1"))
    assert "travel CA" in g.legal_actions("kennedy")
    force(g, ("kennedy", "travel CA"), ("kennedy", "done"))
    assert g.s["tokens"]["kennedy"] == "CA" and g.s["support"]["IL"] == 1


def test_ken_air_with_bobby_kennedy_adds_both_then_caps_at_five():
    g = begin([26, 54, 38, 43, 41, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 26 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 54 event"))
    cp_play(g, "nixon", 87, "campaign", "done")
    assert played_cp(g, "kennedy", 38, "campaign") == 4      # 2 + 1 + 1
    cp_play(g, "nixon", 88, "campaign", "done")
    assert played_cp(g, "kennedy", 43, "campaign") == 5      # 4 + 2, never above 5
    cp_play(g, "nixon", 25, "campaign", "done")
    assert played_cp(g, "kennedy", 41, "position") == 4      # Bobby only: 3 + 1


# --- 30 Johnson Jeered in Dallas -------------------------------------------------------------

def test_johnson_jeered_in_dallas_kennedy_loses_texas_cube_and_the_south():
    """Johnson Jeered in Dallas: "Kennedy must remove 1 of his state support cubes from Texas, and
    for the rest of the turn he is barred from using CP to Campaign in any Southern state.\""""
    g = begin([26, 31, 54, 55, 65, 85], [30, 25, 69, 87, 88, 4], first="nixon")
    setup(g, support={"TX": 2})
    force(g, ("nixon", "play 30 event"))
    assert g.s["support"]["TX"] == 1 and g.s["effects"] == [30]
    force(g, ("kennedy", "play 55 campaign"))
    states = campaign_states(g, "kennedy")
    assert not set(SOUTH) & set(states) and {"NY", "IL"} <= set(states)
    assert "Johnson Jeered in Dallas" in refusal(g, "kennedy", "campaign VA 1")
    force(g, ("kennedy", "done"))
    decline_trigger(g)
    force(g, ("nixon", "play 25 campaign"))
    assert "TX" in campaign_states(g, "nixon")


def test_johnson_jeered_in_dallas_nothing_to_lose_in_texas():
    g = begin([26, 31, 54, 55, 65, 85], [30, 25, 69, 87, 88, 4], first="nixon")
    setup(g, support={"TX": -2})
    force(g, ("nixon", "play 30 event"))
    assert g.s["support"]["TX"] == -2


# --- 31 Profiles in Courage ------------------------------------------------------------------

def test_profiles_in_courage_failed_check_drawn_again_once():
    """Profiles in Courage: "Until the turn ends, Kennedy may draw again for any support check
    that failed; a given failed check can be redrawn only one time." Advertising with 2 CP: the
    first check fails and succeeds when drawn again; the second fails twice."""
    g = begin([31, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 31 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    bag = dict(g.s["bag"])
    force(g, ("kennedy", "play 38 advertise"))
    draws(g, "nixon")
    assert step(g) == "redraw_check" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == ["choose accept", "choose redraw"]
    force(g, ("kennedy", "choose redraw"))
    draws(g, "kennedy")
    assert g.active() == [CHANCE] and g.top["left"] == 1 and g.top["hits"] == 1
    draws(g, "nixon")
    force(g, ("kennedy", "choose redraw"))
    draws(g, "nixon")                                      # the redraw failed: no second one
    assert step(g) == "advertising" and g.top["left"] == 1
    force(g, ("kennedy", "media east"))
    decline_trigger(g)
    assert g.s["media"]["east"] == 1
    assert g.s["bag"] == {"kennedy": bag["kennedy"] - 1, "nixon": bag["nixon"] - 3}


@pytest.mark.parametrize("edition", EDITIONS)
def test_profiles_in_courage_campaign_checks_kennedy_may_accept_the_failure(edition):
    g = begin([31, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4], edition=edition)
    setup(g, support={"NY": -4})
    force(g, ("kennedy", "play 31 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 38 campaign"), ("kennedy", "campaign NY 2"))
    draws(g, "nixon")
    force(g, ("kennedy", "choose accept"))
    assert g.active() == [CHANCE] and g.top["left"] == 1
    draws(g, "kennedy")
    assert g.s["support"]["NY"] == -3 and g.top["step"] in ("activity", "trigger")


def test_profiles_in_courage_does_not_help_nixon():
    g = begin([31, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    setup(g, support={"CA": 4})
    force(g, ("kennedy", "play 31 event"))
    force(g, ("nixon", "play 30 campaign"), ("nixon", "campaign CA 2"))
    draws(g, "kennedy")
    assert g.active() == [CHANCE] and g.top["left"] == 1     # straight on to the next check
    draws(g, "kennedy")
    assert g.s["support"]["CA"] == 4


def test_profiles_in_courage_applies_to_gmt_event_support_checks():
    """A support check made for an event (GMT) is a support check too."""
    g = begin([31, 6, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    setup(g, support={"NY": -4})
    force(g, ("kennedy", "play 31 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 6 event"), ("kennedy", "support NY 1"))
    draws(g, "nixon")
    force(g, ("kennedy", "choose redraw"))
    draws(g, "kennedy")
    assert g.s["support"]["NY"] == -3 and step(g) == "place_support"


def test_profiles_in_courage_triggered_by_kennedy_off_nixons_play():
    g = begin([38, 41, 43, 54, 55, 26], [31, 30, 25, 69, 87, 88], first="nixon")
    force(g, ("nixon", "play 31 campaign"), ("nixon", "done"), ("kennedy", "trigger"))
    assert g.s["effects"] == [31] and effects.may_redraw(g, "kennedy")
    assert not effects.may_redraw(g, "nixon")


# --- 54 Bobby Kennedy ------------------------------------------------------------------------

def test_bobby_kennedy_each_kennedy_card_one_cp_higher_never_above_five():
    """Bobby Kennedy: "Until the turn ends, each card Kennedy plays counts as 1 CP higher than
    printed, but never above 5 CP." For all three CP actions and the candidate card."""
    g = begin([54, 38, 41, 43, 55, 26], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 54 event"))
    assert played_cp(g, "nixon", 30, "campaign") == 2          # Nixon: printed
    assert played_cp(g, "kennedy", 38, "campaign") == 3
    cp_play(g, "nixon", 87, "campaign", "done")
    assert played_cp(g, "kennedy", 43, "position") == 5
    cp_play(g, "nixon", 88, "campaign", "done")
    force(g, ("kennedy", "play 41 advertise"))
    assert g.top["step"] == "support_checks" and g.top["left"] == 4
    draws(g, "nixon", "nixon", "nixon", "nixon")
    decline_trigger(g)
    cp_play(g, "nixon", 25, "campaign", "done")
    assert played_cp(g, "kennedy", "candidate", "campaign") == 5


def test_bobby_kennedy_with_congressional_summer_session_adds_then_bounds():
    """+1 and -2 together: add every change, then keep the total between 1 and 5 (the candidate
    card's 5 becomes 4, not 5 capped then 3)."""
    g = begin([54, 38, 41, 43, 55, 26], [69, 30, 25, 87, 88, 4])
    force(g, ("kennedy", "play 54 event"), ("nixon", "play 69 event"), ("kennedy", "choose MD"))
    assert g.s["effects"] == [54, 69]
    assert played_cp(g, "kennedy", "candidate", "campaign") == 4   # 5 + 1 - 2
    cp_play(g, "nixon", 30, "campaign", "done")
    assert played_cp(g, "kennedy", 43, "campaign") == 3           # 4 + 1 - 2
    cp_play(g, "nixon", 87, "campaign", "done")
    assert played_cp(g, "kennedy", 38, "position") == 1           # 2 + 1 - 2


# --- 55 Hostile Press Corps ------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_hostile_press_corps_nixon_checks_everywhere(edition):
    """Hostile Press Corps: "Until the turn ends, whenever Nixon Campaigns in any state he must
    make support checks exactly as if Kennedy were carrying that state." Even in an empty state;
    Kennedy campaigns normally."""
    g = begin([55, 38, 41, 43, 54, 26], [30, 25, 69, 87, 88, 4], edition=edition)
    force(g, ("kennedy", "play 55 event"))
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign CA 2"))
    assert g.active() == [CHANCE] and g.top["where"] == "CA" and g.top["left"] == 2
    draws(g, "nixon", "kennedy")
    force(g, ("nixon", "campaign NV 2"))
    draws(g, "nixon", "nixon")
    decline_trigger(g)
    assert g.s["support"]["CA"] == -1 and g.s["support"]["NV"] == -2
    force(g, ("kennedy", "play 43 campaign"), ("kennedy", "campaign NY 4"))
    assert g.s["support"]["NY"] == 4                       # no checks for Kennedy


def test_hostile_press_corps_nixon_media_in_the_region_still_exempts():
    """"Exactly as if Kennedy were carrying that state": in a carried state a player with media
    support in the region makes no checks, so neither does Nixon with media in the West."""
    g = begin([55, 38, 41, 43, 54, 26], [30, 25, 69, 87, 88, 4])
    setup(g, media={"west": -1})
    force(g, ("kennedy", "play 55 event"), ("nixon", "play 25 campaign"), ("nixon", "campaign CA 2"))
    assert g.s["support"]["CA"] == -2 and step(g) == "campaigning"


def test_hostile_press_corps_does_not_touch_event_support():
    """Only Campaigning: Heartland of America's cube in Iowa needs no check (GMT, nobody carries
    or occupies Iowa)."""
    g = begin([55, 38, 41, 43, 54, 26], [71, 30, 25, 69, 87, 88])
    force(g, ("kennedy", "play 55 event"), ("nixon", "play 71 event"), ("nixon", "support IA 1"))
    assert g.s["support"]["IA"] == -2 and step(g) == "place_support"


def test_hostile_press_corps_with_advance_men_for_nixon_no_checks():
    """Advance Men lets Nixon skip checks where his opponent carries the state; Hostile Press
    Corps only makes every state count as carried, so no checks are made."""
    g = begin([55, 38, 41, 43, 54, 26], [79, 30, 25, 69, 87, 88])
    force(g, ("kennedy", "play 55 event"), ("nixon", "play 79 event"))
    cp_play(g, "kennedy", 38, "campaign", "done")
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign CA 2"))
    assert g.s["support"]["CA"] == -2 and step(g) == "campaigning"


# --- 65 Joe Kennedy --------------------------------------------------------------------------

def test_joe_kennedy_nixon_cannot_trigger_or_preempt():
    """Joe Kennedy: "Until the turn ends, Nixon cannot spend momentum markers.\""""
    g = begin([65, 38, 41, 43, 54, 26], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 65 event"))
    legal = g.legal_actions("nixon")
    assert not any(a.endswith("preempt") for a in legal) and "play 30 campaign" in legal
    assert "cannot spend momentum" in refusal(g, "nixon", "play 30 campaign preempt")
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 54 campaign"), ("kennedy", "done"))
    assert step(g) == "activity" and g.active() == ["nixon"]     # no trigger offered
    assert g.s["momentum"]["nixon"] == 2 and g.s["discard"][-1] == 54


def test_joe_kennedy_with_nixons_knee_and_jackie_kennedy_nixon_cannot_campaign_or_play_events():
    g = begin([2, 85, 65, 38, 41, 43], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 2 event"))
    cp_play(g, "nixon", 30, "position", "done")
    force(g, ("kennedy", "play 85 event"))
    cp_play(g, "nixon", 87, "position", "done")
    force(g, ("kennedy", "play 65 event"))
    legal = g.legal_actions("nixon")
    assert g.s["momentum"]["nixon"] == 2
    assert not [a for a in legal if " campaign" in a or a.endswith(" event")]
    assert "play 25 position" in legal and "play candidate advertise" in legal


# --- 69 Congressional Summer Session ---------------------------------------------------------

def test_congressional_summer_session_kennedy_chooses_token_and_cards_two_cp_lower():
    """Congressional Summer Session: "Until the turn ends, each card Kennedy plays counts as 2 CP
    lower than printed, but never below 1 CP. Kennedy must also immediately relocate his candidate
    token, with no travel cost, to either Maryland or Virginia.\""""
    g = begin([38, 41, 43, 54, 55, 26], [69, 30, 25, 87, 88, 4], first="nixon")
    force(g, ("nixon", "play 69 event"))
    assert step(g) == "choose" and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == ["choose MD", "choose VA"]
    force(g, ("kennedy", "choose VA"))
    assert g.s["tokens"]["kennedy"] == "VA" and g.s["effects"] == [69]
    assert played_cp(g, "kennedy", 43, "campaign") == 2
    assert played_cp(g, "nixon", 30, "campaign") == 2               # Nixon: printed
    assert played_cp(g, "kennedy", 41, "position") == 1
    cp_play(g, "nixon", 87, "campaign", "done")
    force(g, ("kennedy", "play 38 advertise"))
    assert g.top["step"] == "support_checks" and g.top["left"] == 1  # 2 - 2, never below 1
    draws(g, "nixon")
    decline_trigger(g)
    cp_play(g, "nixon", 88, "campaign", "done")
    assert played_cp(g, "kennedy", "candidate", "campaign") == 3


def test_congressional_summer_session_triggered_by_nixon_kennedy_still_chooses():
    g = begin([69, 38, 41, 43, 54, 55], [30, 25, 87, 88, 4, 19])
    force(g, ("kennedy", "play 69 campaign"))
    assert g.top["cp"] == 4                                 # not in force yet
    force(g, ("kennedy", "done"), ("nixon", "trigger"))
    assert g.active() == ["kennedy"] and step(g) == "choose"
    force(g, ("kennedy", "choose MD"))
    assert g.s["tokens"]["kennedy"] == "MD" and g.s["effects"] == [69]
    assert step(g) == "activity" and g.active() == ["nixon"]


# --- 74 Eisenhower's Silence -----------------------------------------------------------------

def test_eisenhowers_silence_nixon_may_not_campaign_where_kennedy_leads():
    """Eisenhower's Silence: "Until the turn ends, Nixon may not spend CP to Campaign in any state
    where Kennedy currently leads.\""""
    g = begin([74, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 74 event"), ("nixon", "play 25 campaign"))
    states = set(campaign_states(g, "nixon"))
    assert not {"MA", "RI", "GA", "LA", "MO"} & states
    assert {"CA", "NY", "KS", "ME", "TX"} <= states
    assert "Eisenhower's Silence" in refusal(g, "nixon", "campaign MO 1")
    force(g, ("nixon", "done"))
    decline_trigger(g)
    force(g, ("kennedy", "play 43 campaign"))
    assert "campaign KS 2" in g.legal_actions("kennedy")     # Kennedy is not limited


def test_eisenhowers_silence_judged_at_each_campaign_action():
    """"Currently" is when Nixon campaigns: a state Kennedy leads later is closed to Nixon, one
    Kennedy no longer leads is open again."""
    g = begin([74, 38, 41, 43, 54, 55], [28, 30, 25, 69, 87, 88])
    force(g, ("kennedy", "play 74 event"))
    force(g, ("nixon", "play 28 event"), ("nixon", "remove MS"), ("nixon", "remove MS"),
          ("nixon", "done"))
    assert g.s["support"]["MS"] == 0
    cp_play(g, "kennedy", 43, "campaign", "campaign NY 1", "done")
    force(g, ("nixon", "play 25 campaign"))
    states = set(campaign_states(g, "nixon"))
    assert "MS" in states and "NY" not in states and "AL" not in states


# --- 79 Advance Men --------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_advance_men_no_travel_cost_and_no_checks_when_campaigning(edition):
    """Advance Men: "Until the turn ends, the player pays no travel costs, and when Campaigning he
    need not make support checks in states his opponent carries or where the opponent's candidate
    token stands.\""""
    g = begin([79, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4], edition=edition)
    setup(g, support={"CA": -4})
    force(g, ("kennedy", "play 79 event"))
    assert g.s["effect_seats"] == {"79": "kennedy"}
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 41 campaign"), ("kennedy", "campaign CA 3"))   # carried, token there
    decline_trigger(g)
    assert g.s["support"]["CA"] == -1 and g.s["tokens"]["kennedy"] == "CA"
    setup(g, support={"NY": 4})
    force(g, ("nixon", "play 25 campaign"))
    assert "campaign NY 2" in g.legal_actions("nixon") and "campaign NY 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "campaign CA 1"))
    assert g.active() == [CHANCE] and g.top["where"] == "CA"   # Kennedy's token is there


def test_advance_men_triggered_benefits_the_triggering_player():
    """"The player" is whoever resolves it: Nixon triggers it off Kennedy's CP play."""
    g = begin([79, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    setup(g, support={"NY": 4})
    force(g, ("kennedy", "play 79 campaign"), ("kennedy", "done"), ("nixon", "trigger"))
    assert g.s["effect_seats"] == {"79": "nixon"}
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 4"))
    decline_trigger(g)
    assert g.s["support"]["NY"] == 0 and g.s["tokens"]["nixon"] == "NY"
    force(g, ("kennedy", "play 41 campaign"))
    assert "campaign CA 1" in g.legal_actions("kennedy") and "campaign CA 2" not in g.legal_actions("kennedy")
    assert effects.support_check_needed(g, "kennedy", "NY")      # Nixon's token is there


def test_advance_men_does_not_waive_gmt_event_checks():
    g = begin([79, 6, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    setup(g, support={"NY": -4})
    force(g, ("kennedy", "play 79 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 6 event"), ("kennedy", "support NY 1"))
    assert g.active() == [CHANCE] and g.top["step"] == "support_checks"


# --- 81 Kennedy's Peace Corps ----------------------------------------------------------------

def test_kennedys_peace_corps_kennedy_preempts_for_free():
    """Kennedy's Peace Corps: "Until the turn ends, Kennedy may preempt the events on cards he
    plays without having to spend momentum markers for it.\""""
    g = begin([81, 38, 41, 43, 54, 55], [30, 25, 69, 87, 88, 4])
    force(g, ("kennedy", "play 81 event"))
    legal = g.legal_actions("nixon")
    assert "play 30 campaign preempt" in legal                # Nixon: still 2 markers
    force(g, ("nixon", "play 30 campaign preempt"), ("nixon", "done"))
    assert g.s["momentum"]["nixon"] == 0
    setup(g, momentum={"kennedy": 0})
    assert "play 38 campaign preempt" in g.legal_actions("kennedy")
    force(g, ("kennedy", "play 38 campaign preempt"), ("kennedy", "done"))
    assert g.s["momentum"]["kennedy"] == 0
    assert step(g) == "activity" and g.active() == ["nixon"] and g.s["discard"][-1] == 38


def test_kennedys_peace_corps_free_preempt_even_under_puerto_rican_bishops():
    """Preempting for free spends no momentum, so Puerto Rican Bishops ("Kennedy cannot spend
    momentum markers") does not stop it."""
    g = begin([81, 38, 41, 43, 54, 55], [44, 30, 25, 69, 87, 88])
    force(g, ("kennedy", "play 81 event"), ("nixon", "play 44 event"))
    assert g.s["effects"] == [81, 44]
    force(g, ("kennedy", "play 43 position preempt"), ("kennedy", "position defense"),
          ("kennedy", "position economy"), ("kennedy", "position civil_rights"))
    assert g.s["momentum"]["kennedy"] == 2 and step(g) == "activity" and g.active() == ["nixon"]


# --- 85 Jackie Kennedy -----------------------------------------------------------------------

def test_jackie_kennedy_nixon_pays_a_momentum_marker_for_each_event():
    """Jackie Kennedy: "Until the turn ends, Nixon has to pay 1 momentum marker every time he wants
    to use a card for its event.\""""
    g = begin([85, 6, 41, 43, 54, 55], [71, 72, 30, 25, 69, 87])
    force(g, ("kennedy", "play 85 event"), ("nixon", "play 71 event"), ("nixon", "done"))
    assert g.s["momentum"]["nixon"] == 1
    force(g, ("kennedy", "play 6 event"), ("kennedy", "done"))
    assert g.s["momentum"]["kennedy"] == 2                  # Kennedy plays events for free
    setup(g, momentum={"nixon": 0})
    legal = g.legal_actions("nixon")
    assert not any(a.endswith(" event") for a in legal) and "play 72 campaign" in legal
    assert "Jackie Kennedy" in refusal(g, "nixon", "play 72 event")


def test_jackie_kennedy_does_not_change_the_trigger_price():
    g = begin([85, 4, 41, 43, 54, 55], [30, 25, 69, 87, 88, 19])
    force(g, ("kennedy", "play 85 event"))
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 4 campaign"), ("kennedy", "done"), ("nixon", "trigger"))
    assert g.s["momentum"]["nixon"] == 1 and g.s["effects"] == [85, 4]


# --- 87 Stevenson Loyalists ------------------------------------------------------------------

def test_stevenson_loyalists_kennedy_barred_from_west_and_midwest_alaska_hawaii_included():
    """Stevenson Loyalists: "For the rest of the turn, Kennedy is barred from using CP to Campaign
    in Western or Midwestern states." Alaska and Hawaii are Western states."""
    g = begin([26, 38, 41, 43, 54, 55], [87, 30, 25, 69, 88, 4], first="nixon")
    force(g, ("nixon", "play 87 event"))
    force(g, ("kennedy", "play 26 event"))                  # Ken-Air: everything in reach
    cp_play(g, "nixon", 30, "campaign", "done")
    force(g, ("kennedy", "play 43 campaign"))
    states = set(campaign_states(g, "kennedy"))
    assert not set(WEST_MIDWEST) & states and {"AK", "HI"} <= set(WEST_MIDWEST)
    assert set(SOUTH) <= states and "NY" in states
    assert "Stevenson Loyalists" in refusal(g, "kennedy", "campaign HI 1")
    force(g, ("kennedy", "done"))
    decline_trigger(g)
    force(g, ("nixon", "play 25 campaign"))
    assert "CA" in campaign_states(g, "nixon")


# --- 88 Stature Gap --------------------------------------------------------------------------

def test_stature_gap_kennedy_positioning_two_cp_lower_only():
    """Stature Gap: "Until the turn ends, each card Kennedy uses for a Positioning action counts as
    2 CP lower than printed, but never below 1 CP.\""""
    g = begin([38, 41, 43, 54, 55, 26], [88, 30, 25, 69, 87, 4], first="nixon")
    force(g, ("nixon", "play 88 event"))
    assert played_cp(g, "kennedy", 43, "position") == 2
    assert played_cp(g, "nixon", 30, "position") == 2       # Nixon: printed
    assert played_cp(g, "kennedy", 38, "position") == 1     # never below 1
    cp_play(g, "nixon", 87, "campaign", "done")
    assert played_cp(g, "kennedy", 41, "campaign") == 3     # Campaigning: printed
    cp_play(g, "nixon", 25, "campaign", "done")
    assert played_cp(g, "kennedy", "candidate", "position") == 3


# --- every effect ends with the turn ---------------------------------------------------------

def _barred(seat, state):
    return lambda g: effects.campaign_barred(g, seat, state)


ENDS = {
    # card: (who plays it, what the effect does while in force)
    4: ("nixon", lambda g: effects.cp_value(g, "nixon", 30, "campaign") == 3),
    19: ("kennedy", _barred("kennedy", "GA")),
    20: ("kennedy", _barred("nixon", "OH")),
    26: ("kennedy", lambda g: effects.free_travel(g, "kennedy")
         and effects.cp_value(g, "kennedy", 38, "campaign") == 3),
    30: ("nixon", _barred("kennedy", "TX")),
    31: ("kennedy", lambda g: effects.may_redraw(g, "kennedy")),
    54: ("kennedy", lambda g: effects.cp_value(g, "kennedy", 38, "advertise") == 3),
    55: ("kennedy", lambda g: effects.support_check_needed(g, "nixon", "WY")),
    65: ("kennedy", lambda g: effects.momentum_banned(g, "nixon")),
    69: ("nixon", lambda g: effects.cp_value(g, "kennedy", 43, "campaign") == 2),
    74: ("kennedy", _barred("nixon", "MA")),
    79: ("nixon", lambda g: effects.free_travel(g, "nixon")),
    81: ("kennedy", lambda g: effects.preempt_cost(g, "kennedy") == 0),
    85: ("kennedy", lambda g: effects.event_momentum_cost(g, "nixon") == 1),
    87: ("nixon", _barred("kennedy", "HI")),
    88: ("nixon", lambda g: effects.cp_value(g, "kennedy", 43, "position") == 2),
}


@pytest.mark.parametrize("cid", sorted(ENDS))
def test_turn_effect_ends_at_the_end_of_the_turn(cid):
    """"If the Event has an effect which lasts for the remainder of the turn, the card should be
    kept in front of the affected player as a reminder until the end of the turn." Played in the
    fifth Activity Phase, it is gone by the next turn's first Activity Phase."""
    seat, in_force = ENDS[cid]
    other = "nixon" if seat == "kennedy" else "kennedy"
    pools = {"kennedy": [36, 38, 41, 43, 49, 51], "nixon": [12, 25, 27, 28, 71, 72]}
    hands = {seat: [cid, *pools[seat][:5]], other: pools[other]}
    g = begin(hands["kennedy"], hands["nixon"], first=seat)
    if cid == 19:
        setup(g, issues={"civil_rights": 1})
    last_activity_phase(g)
    assert not in_force(g)
    force(g, (seat, f"play {cid} event"))
    if cid == 19:
        for _ in range(5):
            g.apply("kennedy", g.legal_actions("kennedy")[0])
    if cid == 69:
        force(g, ("kennedy", "choose MD"))
    assert cid in g.s["effects"] and in_force(g)
    keep = {x: g.s["hands"][x][-1] for x in ("kennedy", "nixon")}
    end_turn(g, [keep["kennedy"]], [keep["nixon"]])
    assert g.s["turn"] == 2 and g.s["effects"] == [] and g.s["effect_seats"] == {}
    assert not in_force(g)
