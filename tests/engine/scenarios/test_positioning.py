"""B3. Positioning on Issues, and the Restricted Positioning optional rule."""
import pytest

from engine.core.errors import IllegalAction

from .helpers import decline_trigger, EDITIONS, force, setup, start, step

# Kennedy's hand: 36 Henry Luce (2 CP, Defense), 38 High Hopes (2 CP, Civil Rights),
# 41 Pierre Salinger (3 CP, Civil Rights), 43 Catholic Support (4 CP, Economy),
# 49 Eleanor Roosevelt (3 CP, Economy), 51 Missile Gap (3 CP, Economy)


def kennedy_to_act(edition="gmt", **options):
    return start(edition, initiative="kennedy", start_player="kennedy", **options)


@pytest.mark.parametrize("edition", EDITIONS)
def test_positioning_first_cube_one_cp_each_further_cube_two_cp(edition):
    """"the first cube in an issue costing 1 CP and each additional cube in the same issue costing
    a further 2 CP.\" 3 CP: a single issue increased by two."""
    g = kennedy_to_act(edition)
    force(g, ("kennedy", "play 41 position"), ("kennedy", "position defense"))
    assert g.top["cp"] == 2
    force(g, ("kennedy", "position defense"))
    assert g.s["issues"]["defense"] == 2
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_positioning_three_issues_one_cube_each_for_three_cp():
    g = kennedy_to_act()
    force(g, ("kennedy", "play 41 position"), ("kennedy", "position defense"),
          ("kennedy", "position economy"), ("kennedy", "position civil_rights"))
    assert g.s["issues"] == {"defense": 1, "economy": 1, "civil_rights": 1}
    decline_trigger(g)
    assert step(g) == "activity"


def test_positioning_second_cube_unaffordable_with_one_cp_left():
    g = kennedy_to_act()
    force(g, ("kennedy", "play 38 position"), ("kennedy", "position economy"))
    # one CP left: another Economy cube costs 2, any other issue 1
    assert sorted(g.legal_actions("kennedy")) == ["done", "position civil_rights", "position defense"]
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "position economy")


def test_positioning_surcharge_only_within_the_same_action():
    """"An additional cube placed on that issue as part of a subsequent action costs only the
    normal 1 CP.\""""
    g = kennedy_to_act()
    force(g, ("kennedy", "play 41 position"), ("kennedy", "position defense"),
          ("kennedy", "position defense"))
    force(g, ("nixon", "play 4 campaign"), ("nixon", "done"), ("kennedy", "pass"))
    force(g, ("kennedy", "play 38 position"), ("kennedy", "position defense"))
    assert g.top["cp"] == 1
    assert g.s["issues"]["defense"] == 3


def test_positioning_removes_opposing_issue_cubes_first():
    g = kennedy_to_act()
    setup(g, issues={"economy": -2})
    force(g, ("kennedy", "play 43 position"), ("kennedy", "position economy"),
          ("kennedy", "position economy"))       # 1 + 2 CP
    assert g.s["issues"]["economy"] == 0
    force(g, ("kennedy", "position defense"))
    assert g.s["issues"]["defense"] == 1
    decline_trigger(g)
    assert step(g) == "activity"


def test_restricted_positioning_bans_the_cards_debate_issue():
    """Optional rule: "a player may not add Support to the issue corresponding to the debate icon
    featured on their card.\" Catholic Support shows Economy."""
    g = kennedy_to_act(restricted_positioning=True)
    force(g, ("kennedy", "play 43 position"))
    assert sorted(g.legal_actions("kennedy")) == ["done", "position civil_rights", "position defense"]
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "position economy")


def test_restricted_positioning_is_off_without_the_option():
    g = kennedy_to_act()
    force(g, ("kennedy", "play 43 position"))
    assert "position economy" in g.legal_actions("kennedy")


def test_restricted_positioning_applies_only_to_positioning():
    """"This restriction applies only to the Positioning on Issues action\": the same card may
    still campaign or advertise; the candidate card shows no debate icon."""
    g = kennedy_to_act(restricted_positioning=True)
    assert "play 43 campaign" in g.legal_actions("kennedy")
    force(g, ("kennedy", "play candidate position"))
    assert sorted(g.legal_actions("kennedy")) == ["done", "position civil_rights", "position defense",
                                                  "position economy"]
