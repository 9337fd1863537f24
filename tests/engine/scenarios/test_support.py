"""Losing Support: "this effect is always limited to what the player has on board. The opposing
player never gains support cubes, even if this means none of the penalty can be applied.\""""
import pytest

from .helpers import EDITIONS, force, setup, start, step

K_GAFFE = [22, 36, 38, 41, 43, 49]
N_BYRD = [4, 12, 25, 27, 28, 29]


def kennedy_to_act(edition="gmt", **kw):
    return start(edition, kennedy=K_GAFFE, nixon=N_BYRD, initiative="kennedy",
                 start_player="kennedy", **kw)


@pytest.mark.parametrize("edition", EDITIONS)
def test_gaffe_with_fewer_than_three_cubes_loses_only_those(edition):
    """Gaffe: the opponent loses 3 state support in the state his token occupies."""
    g = kennedy_to_act(edition)
    setup(g, support={"CA": -2})
    force(g, ("kennedy", "play 22 event"))
    assert g.s["support"]["CA"] == 0             # not +1: Kennedy never gains from Nixon's loss
    assert g.s["momentum"]["nixon"] == 1


def test_gaffe_with_more_than_three_cubes_loses_three():
    g = kennedy_to_act()
    setup(g, support={"CA": -5})
    force(g, ("kennedy", "play 22 event"))
    assert g.s["support"]["CA"] == -2


def test_gaffe_where_the_opponent_leads_changes_nothing():
    g = kennedy_to_act()
    setup(g, support={"NY": 3}, tokens={"nixon": "NY"})
    force(g, ("kennedy", "play 22 event"))
    assert g.s["support"]["NY"] == 3


def test_momentum_loss_limited_to_markers_held():
    g = kennedy_to_act()
    setup(g, momentum={"nixon": 0})
    force(g, ("kennedy", "play 22 event"))
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 0}


def test_harry_byrd_removes_only_kennedy_cubes_on_board():
    """Harry F. Byrd: up to 3 Kennedy support removed from Oklahoma, Mississippi, Alabama."""
    g = start("gmt", kennedy=K_GAFFE, nixon=N_BYRD, initiative="nixon", start_player="nixon")
    setup(g, support={"OK": 0, "MS": 1, "AL": -1})
    force(g, ("nixon", "play 28 event"))
    assert sorted(g.legal_actions("nixon")) == ["done", "remove MS"]
    force(g, ("nixon", "remove MS"))
    assert g.s["support"]["MS"] == 0
    assert g.s["support"]["AL"] == -1 and g.s["support"]["OK"] == 0   # Nixon gains nothing
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_harry_byrd_removes_at_most_three_in_total():
    g = start("gmt", kennedy=K_GAFFE, nixon=N_BYRD, initiative="nixon", start_player="nixon")
    setup(g, support={"OK": 2, "MS": 2, "AL": 2})
    force(g, ("nixon", "play 28 event"), ("nixon", "remove OK"), ("nixon", "remove OK"))
    assert "remove OK" not in g.legal_actions("nixon")
    force(g, ("nixon", "remove AL"))
    assert (g.s["support"]["OK"], g.s["support"]["MS"], g.s["support"]["AL"]) == (0, 2, 1)
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_harry_byrd_with_no_kennedy_cubes_there_does_nothing():
    g = start("gmt", kennedy=K_GAFFE, nixon=N_BYRD, initiative="nixon", start_player="nixon")
    setup(g, support={"OK": -1, "MS": 0, "AL": 0})
    force(g, ("nixon", "play 28 event"))
    assert (g.s["support"]["OK"], g.s["support"]["MS"], g.s["support"]["AL"]) == (-1, 0, 0)
    assert step(g) == "activity" and g.active() == ["kennedy"]
