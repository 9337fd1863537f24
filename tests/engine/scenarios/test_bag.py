"""The Political Capital Bag: Support Checks and Initiative Checks."""
import pytest

from engine.core import CHANCE

from .helpers import EDITIONS, draws, force, new, setup, start, step


def _nixon_campaigns_in_carried_ny(g, cp_card=29):
    """Nixon (to act) campaigns 3 CP in New York, which Kennedy carries: support checks."""
    setup(g, support={"NY": 4}, tokens={"nixon": "NJ"})
    force(g, ("nixon", f"play {cp_card} campaign"), ("nixon", "campaign NY 3"))


def test_support_check_own_colour_becomes_support_opposing_colour_returns_to_supply():
    """"If the player draws a cube of his own color, he may place it as a support cube in the
    appropriate location. If it is the opposing player's color, it must be returned to that
    player's cube supply.\""""
    g = start("gmt", initiative="nixon", start_player="nixon")
    _nixon_campaigns_in_carried_ny(g)
    bag = dict(g.s["bag"])
    assert g.active() == [CHANCE] and g.top["step"] == "support_checks"
    draws(g, "nixon", "kennedy", "nixon")
    # two own-colour cubes each removed one Kennedy cube; the Kennedy cube went to his supply
    assert g.s["support"]["NY"] == 2
    assert g.s["bag"] == {"kennedy": bag["kennedy"] - 1, "nixon": bag["nixon"] - 2}


def test_support_check_draws_are_weighted_by_the_cubes_in_the_bag():
    g = start("gmt", initiative="nixon", start_player="nixon")
    setup(g, bag={"kennedy": 5, "nixon": 1})
    _nixon_campaigns_in_carried_ny(g)
    assert dict(g.chance_outcomes()) == pytest.approx({"draw kennedy": 5 / 6, "draw nixon": 1 / 6})


@pytest.mark.parametrize("edition", EDITIONS)
def test_initiative_check_draws_until_two_cubes_of_one_colour(edition):
    """"draw cubes from the bag one at a time until two cubes of the same color have been drawn;
    the player who had two of their own cubes drawn gains the initiative.\""""
    g = new(edition)
    for _ in range(12):
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    start_bag = dict(g.s["bag"])
    draws(g, "kennedy", "nixon")
    assert g.active() == [CHANCE]          # split: a third cube is drawn
    draws(g, "nixon")
    assert g.s["initiative"] == "nixon"
    assert g.active() == ["nixon"] and step(g) == "choose_start_player"
    # "All cubes drawn from the bag during an Initiative Check are returned to the player's supply."
    assert g.s["bag"] == {"kennedy": start_bag["kennedy"] - 1, "nixon": start_bag["nixon"] - 2}


def test_initiative_check_two_first_cubes_same_colour_end_it():
    g = new("gmt")
    for _ in range(12):
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    draws(g, "kennedy", "kennedy")
    assert g.s["initiative"] == "kennedy"
    assert g.active() == ["kennedy"]
    assert g.s["bag"] == {"kennedy": 10, "nixon": 12}
