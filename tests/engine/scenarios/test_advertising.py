"""B2. Advertising in Regions."""
import pytest

from engine.core import CHANCE

from .helpers import decline_trigger, EDITIONS, draws, force, setup, start, step


def kennedy_to_act(edition="gmt"):
    return start(edition, initiative="kennedy", start_player="kennedy")


@pytest.mark.parametrize("edition", EDITIONS)
def test_advertising_makes_one_support_check_per_cp(edition):
    """"a player makes a number of Support Checks equal to the number of Campaign Points provided
    by his card.\""""
    g = kennedy_to_act(edition)
    force(g, ("kennedy", "play 43 advertise"))      # 4 CP
    assert g.active() == [CHANCE] and g.top["step"] == "support_checks"
    assert g.top["left"] == 4 and g.top["kind"] == "media"
    draws(g, "nixon", "nixon", "nixon", "nixon")
    assert all(v == 0 for v in g.s["media"].values())
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_advertising_own_colour_gives_a_media_cube_for_any_region():
    """"When a player draws a cube of his own color, it may be placed into any regional
    advertising box.\""""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 41 advertise"))       # 3 CP
    draws(g, "kennedy", "nixon", "kennedy")
    assert g.active() == ["kennedy"]
    assert sorted(g.legal_actions("kennedy")) == ["media east", "media midwest", "media south",
                                                  "media west"]
    force(g, ("kennedy", "media west"), ("kennedy", "media south"))
    assert g.s["media"] == {"west": 1, "midwest": 0, "south": 1, "east": 0}
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_advertising_removes_opposing_media_first():
    """Rulebook example: Nixon has one media cube in the East; Kennedy draws two red and one
    blue: the blue cube may remove Nixon's cube from the East; the red cubes go back to Nixon's
    supply."""
    g = kennedy_to_act()
    setup(g, media={"east": -1})
    bag = dict(g.s["bag"])
    force(g, ("kennedy", "play 41 advertise"))
    draws(g, "nixon", "kennedy", "nixon")
    force(g, ("kennedy", "media east"))
    assert g.s["media"]["east"] == 0
    assert g.s["bag"] == {"kennedy": bag["kennedy"] - 1, "nixon": bag["nixon"] - 2}
    decline_trigger(g)
    assert step(g) == "activity"


def test_advertising_several_cubes_in_one_region_remove_then_place():
    g = kennedy_to_act()
    setup(g, media={"east": -1})
    force(g, ("kennedy", "play 38 advertise"))       # 2 CP
    draws(g, "kennedy", "kennedy")
    force(g, ("kennedy", "media east"), ("kennedy", "media east"))
    assert g.s["media"]["east"] == 1


def test_advertising_failed_checks_place_nothing_and_cubes_leave_the_bag():
    g = kennedy_to_act()
    bag = dict(g.s["bag"])
    force(g, ("kennedy", "play 38 advertise"))
    draws(g, "nixon", "nixon")
    force(g, ("nixon", "pass"))                      # High Hopes' event is not triggered
    assert g.s["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 0}
    assert g.s["bag"] == {"kennedy": bag["kennedy"], "nixon": bag["nixon"] - 2}
    assert g.s["discard"] == [38] and g.s["rest"]["kennedy"] == 2
