"""Reseeding the Bag: "If the Political Capital Bag becomes depleted of cubes at any point before
the Campaign Strategy phase on Election Day at the end of the game, it should be reseeded with
twelve cubes from each player.\" (Z-Man: ten.)"""
import pytest

from engine.core import CHANCE

from .helpers import (draws, force, last_activity_phase, play_activity_phases_out,
                      reach_election_day, setup, start, step)

RESEED = [("gmt", 12), ("zman", 10)]


@pytest.mark.parametrize("edition,n", RESEED)
def test_bag_emptied_by_a_support_check_is_reseeded(edition, n):
    g = start(edition, initiative="nixon", start_player="nixon")
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"}, bag={"kennedy": 0, "nixon": 1})
    force(g, ("nixon", "play 25 campaign"), ("nixon", "campaign NY 3"))
    draws(g, "nixon")
    assert g.s["bag"] == {"kennedy": n, "nixon": n}
    draws(g, "kennedy", "nixon")
    assert g.s["support"]["NY"] == 2
    assert g.s["bag"] == {"kennedy": n - 1, "nixon": n - 1}


@pytest.mark.parametrize("edition,n", RESEED)
def test_empty_bag_is_reseeded_before_the_initiative_check(edition, n):
    g = start(edition)
    last_activity_phase(g)
    play_activity_phases_out(g)
    setup(g, bag={"kennedy": 0, "nixon": 0}, rest={"kennedy": 0, "nixon": 0})
    g.apply("kennedy", f"strategy {g.s['hands']['kennedy'][0]}")
    g.apply("nixon", f"strategy {g.s['hands']['nixon'][0]}")
    assert g.s["bag"] == {"kennedy": 0, "nixon": 0}
    while g.legal_actions(CHANCE)[0].startswith("deal"):
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    assert g.s["bag"] == {"kennedy": n, "nixon": n}
    assert sorted(g.legal_actions(CHANCE)) == ["draw kennedy", "draw nixon"]


@pytest.mark.parametrize("edition,n", RESEED)
def test_bag_emptied_during_an_initiative_check_is_reseeded(edition, n):
    g = start(edition)
    last_activity_phase(g)
    play_activity_phases_out(g)
    setup(g, bag={"kennedy": 1, "nixon": 0}, rest={"kennedy": 0, "nixon": 1})
    g.apply("kennedy", f"strategy {g.s['hands']['kennedy'][0]}")
    g.apply("nixon", f"strategy {g.s['hands']['nixon'][0]}")
    while g.legal_actions(CHANCE)[0].startswith("deal"):
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    draws(g, "kennedy", "nixon")
    assert g.s["bag"] == {"kennedy": n, "nixon": n}
    draws(g, "nixon")
    assert g.s["initiative"] == "nixon"


@pytest.mark.parametrize("edition", ["gmt", "zman"])
def test_bag_not_reseeded_from_election_day_campaign_strategy_on(edition):
    """Election Day, 3. Campaign Strategy: "If the Political Capital Bag runs out of cubes at this
    point, it is not refilled.\" The remaining support checks are lost."""
    def board(g):
        setup(g, bag={"kennedy": 3, "nixon": 1}, rest={"kennedy": 0, "nixon": 0},
              momentum={"kennedy": 0, "nixon": 0})

    # Kennedy's strategy cards: 65 (GA), 64 (OH), 63 (OH), 66 (MA)
    g = reach_election_day([65, 64, 63, 66], [45, 46, 47, 48], edition, before_strategy=board)
    assert g.s["bag"] == {"kennedy": 3, "nixon": 1}
    georgia = g.s["support"]["GA"]
    draws(g, "kennedy", "kennedy")                  # initiative to Kennedy: he checks first
    assert g.s["bag"] == {"kennedy": 1, "nixon": 1}
    if edition == "zman":                           # "in any order desired": Georgia first
        assert g.active() == ["kennedy"] and step(g) == "election_day_strategy_order"
        g.apply("kennedy", "resolve 65")
    assert g.top["step"] == "support_checks" and g.top["seat"] == "kennedy"
    assert g.top["where"] == "GA"
    draws(g, "kennedy", "nixon")
    assert g.s["bag"] == {"kennedy": 0, "nixon": 0}
    assert g.s["support"]["GA"] == georgia + 1
    assert step(g) == "over"                         # every further check is lost
    assert g.s["result"] is not None
