"""B1. Campaigning in States: cost, travel, the candidate token, support checks."""
import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction

from .helpers import decline_trigger, EDITIONS, draws, force, setup, start, step

# Kennedy: 43 (4 CP), 41 (3 CP), 38 (2 CP); Nixon: 25 (4 CP), 29 (3 CP), 30 (2 CP)


def kennedy_to_act(edition="gmt"):
    return start(edition, initiative="kennedy", start_player="kennedy")


def nixon_to_act(edition="gmt"):
    return start(edition, initiative="nixon", start_player="nixon")


def campaign_options(g, seat):
    return {a for a in g.legal_actions(seat) if a.startswith("campaign")}


def test_campaigning_one_cp_per_state_support_cube_in_the_token_region():
    """"Each Campaign Point may usually be spent to add one state support cube to any state in a
    candidate's current region.\""""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"))
    opts = campaign_options(g, "kennedy")
    assert {"campaign NY 4", "campaign NJ 4", "campaign MA 4"} <= opts
    assert "campaign NY 5" not in opts
    force(g, ("kennedy", "campaign NY 3"))
    assert g.s["support"]["NY"] == 3
    force(g, ("kennedy", "campaign PA 1"))
    assert g.s["support"]["PA"] == 1
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]     # all 4 CP spent
    assert g.s["discard"] == [43]


def test_travel_costs_one_cp_per_regional_boundary():
    """"he must pay travel costs of 1 CP each time he crosses a regional boundary.\" East borders
    the Midwest and the South."""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"))
    opts = campaign_options(g, "kennedy")
    assert "campaign IL 3" in opts and "campaign IL 4" not in opts
    assert "campaign SC 3" in opts and "campaign SC 4" not in opts
    force(g, ("kennedy", "campaign IL 3"))
    assert g.s["support"]["IL"] == 3 and g.s["tokens"]["kennedy"] == "IL"
    decline_trigger(g)
    assert step(g) == "activity"


def test_travel_between_west_and_east_costs_two_cp():
    """"travel between Western and Eastern regions requires crossing two such boundaries.\""""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"))
    opts = campaign_options(g, "kennedy")
    assert "campaign CA 2" in opts and "campaign CA 3" not in opts
    g2 = nixon_to_act()
    force(g2, ("nixon", "play 30 campaign"))          # 2 CP from California
    assert "travel NY" in g2.legal_actions("nixon")
    assert not any(a.startswith("campaign NY") for a in g2.legal_actions("nixon"))
    force(g2, ("nixon", "travel NY"))
    assert g2.s["tokens"]["nixon"] == "NY"
    force(g2, ("kennedy", "pass"))                      # Johnson Jeered's event is not triggered
    decline_trigger(g2)
    assert step(g2) == "activity" and g2.active() == ["kennedy"]


def test_rulebook_example_travel_midwest_to_east_then_campaign():
    """Example: token in Illinois, a 3-CP card: "1 CP in travel costs to cross from the Midwest
    into the East, and 2 CP in New York", or 1 CP in the Midwest before leaving it."""
    g = kennedy_to_act()
    setup(g, tokens={"kennedy": "IL"})
    force(g, ("kennedy", "play 41 campaign"))
    assert "campaign NY 2" in campaign_options(g, "kennedy")
    assert "campaign NY 3" not in campaign_options(g, "kennedy")
    force(g, ("kennedy", "campaign IL 1"), ("kennedy", "campaign NY 1"))
    assert g.s["support"]["IL"] == 1 and g.s["support"]["NY"] == 1
    assert g.s["tokens"]["kennedy"] == "NY"
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]


@pytest.mark.parametrize("origin,target,cost", [
    ("CA", "AK", 1), ("CA", "HI", 1), ("IL", "AK", 2), ("TX", "HI", 2), ("NY", "AK", 3),
    ("AK", "HI", 2), ("HI", "AK", 2), ("AK", "CA", 1), ("AK", "IL", 2), ("HI", "NY", 3),
])
def test_alaska_and_hawaii_reached_only_via_the_west(origin, target, cost):
    """"travel to or from Alaska or Hawaii can only be done via the Western region ... travel
    between the two would require crossing both of these boundaries at a cost of 2 CP.\""""
    g = kennedy_to_act()
    setup(g, tokens={"kennedy": origin})
    force(g, ("kennedy", "play 43 campaign"))       # 4 CP
    opts = campaign_options(g, "kennedy")
    assert f"campaign {target} {4 - cost}" in opts
    assert f"campaign {target} {4 - cost + 1}" not in opts


def test_alaska_is_its_own_travel_region_even_from_the_west():
    g = nixon_to_act()
    force(g, ("nixon", "play 30 campaign"))          # 2 CP, token in California
    assert "travel AK" in g.legal_actions("nixon")
    assert "campaign AK 2" not in campaign_options(g, "nixon")
    force(g, ("nixon", "campaign AK 1"))
    assert g.s["support"]["AK"] == -1 and g.s["tokens"]["nixon"] == "AK"


def test_candidate_token_moves_to_the_state_campaigned_in():
    """"Each time a player spends a Campaign Point to increase his State Support, his candidate
    token should be moved to the state in which he is Campaigning.\""""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"), ("kennedy", "campaign CT 1"))
    assert g.s["tokens"]["kennedy"] == "CT"
    force(g, ("kennedy", "campaign NJ 1"))
    assert g.s["tokens"]["kennedy"] == "NJ"
    force(g, ("kennedy", "campaign CT 1"))
    assert g.s["tokens"]["kennedy"] == "CT"


@pytest.mark.parametrize("edition", EDITIONS)
def test_support_checks_when_opponent_carries_the_state(edition):
    """Rulebook example: Kennedy carries New York with four; Nixon declares 4 CP there, draws two
    red and two blue: Kennedy is reduced to 2 and still leads."""
    g = nixon_to_act(edition)
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 4"))
    assert g.active() == [CHANCE] and g.top["step"] == "support_checks"
    assert g.top["left"] == 4
    draws(g, "nixon", "kennedy", "nixon", "kennedy")
    assert g.s["support"]["NY"] == 2
    assert g.s["tokens"]["nixon"] == "NY"
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_support_checks_when_opponent_token_is_in_the_state(edition):
    """A support check is needed "If the opposing player's candidate token is present in that
    state", even when the state is empty."""
    g = nixon_to_act(edition)
    setup(g, tokens={"nixon": "NJ", "kennedy": "NY"})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 2"))
    assert g.active() == [CHANCE]
    draws(g, "nixon", "nixon")
    assert g.s["support"]["NY"] == -2
    assert g.top["cp"] == 2
    assert "campaign NJ 2" in campaign_options(g, "nixon")


def test_no_support_checks_where_opponent_leads_without_carrying_or_token():
    g = nixon_to_act()
    setup(g, support={"NY": 3}, tokens={"nixon": "NJ", "kennedy": "MA"})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 4"))
    assert g.s["support"]["NY"] == -1
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_support_checks_with_own_media_support_in_the_region(edition):
    """"a player with media support cubes in a region does not have to conduct Support Checks
    ... his 4 CP would have instead reduced Kennedy's four Support in New York to zero.\""""
    g = nixon_to_act(edition)
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ", "kennedy": "NY"}, media={"east": -1})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 4"))
    assert g.s["support"]["NY"] == 0
    decline_trigger(g)
    assert step(g) == "activity"


def test_media_support_in_another_region_does_not_exempt():
    g = nixon_to_act()
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"}, media={"west": -3, "midwest": -1})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 1"))
    assert g.active() == [CHANCE]


def test_alaska_counts_as_the_west_for_media_support():
    """"For movement purposes only, Alaska and Hawaii are considered to be in their own regions;
    otherwise they are considered to be part of the Western region.\""""
    g = nixon_to_act()
    setup(g, support={"AK": 4}, media={"west": -1})
    force(g, ("nixon", "play 29 campaign"), ("nixon", "campaign AK 2"))
    assert g.s["support"]["AK"] == 2


def test_declared_state_is_closed_for_the_rest_of_the_action():
    """"Players Campaigning in a state where they are required to make Support Checks must first
    declare how many Campaign Points will be spent there during that Activity Phase.\""""
    g = nixon_to_act()
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 2"))
    draws(g, "nixon", "nixon")
    assert g.s["support"]["NY"] == 2               # no longer carried, but already declared
    opts = campaign_options(g, "nixon")
    assert not any(a.startswith("campaign NY") for a in opts)
    assert "campaign NJ 2" in opts
    with pytest.raises(IllegalAction):
        g.apply("nixon", "campaign NY 1")


def test_failed_support_checks_still_spend_the_declared_cp():
    g = nixon_to_act()
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 3"))
    draws(g, "kennedy", "kennedy", "kennedy")
    assert g.s["support"]["NY"] == 4
    assert g.top["cp"] == 1
    assert campaign_options(g, "nixon") >= {"campaign NJ 1"}


def test_state_without_checks_may_receive_cp_in_several_steps():
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"), ("kennedy", "campaign NJ 1"), ("kennedy", "campaign NY 1"),
          ("kennedy", "campaign NJ 1"))
    assert g.s["support"]["NJ"] == 2 and g.s["support"]["NY"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_campaigning_removes_opposing_cubes_first(edition):
    """"each cube gained there—instead of being placed in the location—allows you to remove one
    opposing cube ... remaining cubes are then added to the location normally.\""""
    g = kennedy_to_act(edition)
    setup(g, support={"NJ": -2})
    force(g, ("kennedy", "play 41 campaign"), ("kennedy", "campaign NJ 3"))
    assert g.s["support"]["NJ"] == 1


def test_unspent_campaign_points_may_be_left():
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 campaign"), ("kennedy", "campaign NY 1"), ("kennedy", "done"))
    assert g.s["support"]["NY"] == 1
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]
