"""Golden test: the GMT manual's "A Sample Turn" (turn 1), played with the described draws.

The sample does not name the sixth card of each hand (the one kept for Campaign Strategy); we
deal Catholic Support to Kennedy and Herb Klein to Nixon. Everything the text states is asserted.
"""
import pytest

from engine.core import IllegalAction

from .golden_helpers import act, deal_hands, draws, game, support

HEARTLAND, NEW_ENGLAND, SOUTHERN_REVOLT, GAFFE, HARVARD = 71, 6, 72, 22, 35
NIXONS_PLEDGE, NIXONS_KNEE, HARRY_BYRD, GM_WEST, PR_BISHOPS = 76, 2, 28, 17, 44
CATHOLIC_SUPPORT, HERB_KLEIN = 43, 86
SOUTH_ENDORSEMENT, MAJOR_ENDORSEMENT = 7, 13


def sample_turn(upto=None, edition="gmt"):
    g = game(edition)
    deal_hands(g, [NIXONS_PLEDGE, NIXONS_KNEE, HARRY_BYRD, GM_WEST, PR_BISHOPS, CATHOLIC_SUPPORT],
               [HEARTLAND, NEW_ENGLAND, SOUTHERN_REVOLT, GAFFE, HARVARD, HERB_KLEIN])
    # Initiative: one blue and one red, then a second blue: Kennedy; he makes Nixon play first.
    draws(g, "k", "n", "k")
    assert g.s["initiative"] == "kennedy"
    act(g, "kennedy", "start nixon")
    steps = [
        phase1_heartland_positioning_and_pledge,
        phase2_new_england_triggered_and_knee,
        phase3_southern_revolt_advertising_and_byrd,
        phase4_gaffe_and_gathering_momentum,
        phase5_harvard_and_bishops,
    ]
    for step in steps[:upto]:
        step(g)
    return g


def phase1_heartland_positioning_and_pledge(g):
    act(g, "nixon", f"play {HEARTLAND} position", "position defense", "position defense")
    act(g, "kennedy", "pass")                      # Kennedy does not trigger Heartland
    act(g, "kennedy", f"play {NIXONS_PLEDGE} event")


def phase2_new_england_triggered_and_knee(g):
    act(g, "nixon", f"play {NEW_ENGLAND} campaign", "campaign CA 3")
    act(g, "kennedy", "trigger", "support NY 2", "support MA 2", "support CT 1")
    act(g, "kennedy", f"play {NIXONS_KNEE} event")


def phase3_southern_revolt_advertising_and_byrd(g):
    act(g, "nixon", f"play {SOUTHERN_REVOLT} advertise")
    draws(g, "n", "k", "k")
    act(g, "nixon", "media east")
    act(g, "kennedy", "pass")                      # no reason to trigger a Nixon event
    act(g, "kennedy", f"play {HARRY_BYRD} campaign", "campaign NY 2")
    act(g, "nixon", "trigger", "remove MS", "remove MS", "remove AL")


def phase4_gaffe_and_gathering_momentum(g):
    act(g, "nixon", f"play {GAFFE} event")
    act(g, "kennedy", f"play {GM_WEST} campaign", "campaign NY 3", "campaign PA 1")
    act(g, "nixon", "trigger")


def phase5_harvard_and_bishops(g):
    act(g, "nixon", f"play {HARVARD} campaign", "campaign NY 2", "campaign PA 2")
    act(g, "kennedy", "trigger")
    act(g, "kennedy", f"play {PR_BISHOPS} position", "position defense", "position economy",
        "position civil_rights")


def test_initiative_and_first_phase():
    g = sample_turn(upto=1)
    assert g.s["issues"]["defense"] == -2                 # Nixon: 2 issue support in Defense
    assert g.s["rest"] == {"kennedy": 0, "nixon": 1}       # one rest cube for Heartland
    assert g.s["effects"] == [NIXONS_PLEDGE]
    assert g.s["bag"] == {"kennedy": 10, "nixon": 11}      # initiative cubes go back to supply


def test_new_england_triggered_and_nixons_knee():
    g = sample_turn(upto=2)
    assert support(g, "CA") == ("nixon", 3)
    assert support(g, "NY") == ("kennedy", 2)
    assert support(g, "MA") == ("kennedy", 4)              # he now carries Massachusetts
    assert support(g, "CT") == ("kennedy", 1)
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 2}
    assert g.s["tokens"]["nixon"] == "MD"
    assert NEW_ENGLAND in g.s["removed"]
    assert g.s["rest"] == {"kennedy": 0, "nixon": 2}       # no rest cubes for triggering


def test_southern_revolt_advertising_byrd_triggered():
    g = sample_turn(upto=3)
    assert g.s["media"]["east"] == -1                      # Nixon's one media cube in the East
    assert g.s["momentum"]["kennedy"] == 2                 # +1 from Nixon's Pledge
    assert support(g, "NY") == ("kennedy", 4)              # Kennedy carries New York
    assert g.s["tokens"]["kennedy"] == "NY"
    assert support(g, "MS") == (None, 0)                   # Byrd: -2 Mississippi, -1 Alabama
    assert support(g, "AL") == (None, 0)
    assert g.s["momentum"]["nixon"] == 1
    assert g.s["rest"] == {"kennedy": 2, "nixon": 3}


def test_gaffe_and_gathering_momentum_in_the_west():
    g = sample_turn(upto=4)
    # Gaffe: Kennedy lost a momentum marker and 3 support in New York, then got one back
    # from Nixon's Pledge; Gathering Momentum for 4 CP: +3 New York, +1 Pennsylvania.
    assert g.s["momentum"]["kennedy"] == 2
    assert support(g, "NY") == ("kennedy", 4)
    assert support(g, "PA") == ("kennedy", 1)
    assert g.s["tokens"]["kennedy"] == "PA"
    # Nixon triggers it: he leads more Western states: +1 momentum and 1 support in each
    # empty Western state.
    assert g.s["momentum"]["nixon"] == 1
    for code in ("AK", "HI", "ID", "MT", "NM", "NV", "OR", "WA"):
        assert support(g, code) == ("nixon", 1), code


def test_nixons_knee_makes_nixon_pay_to_campaign():
    g = sample_turn(upto=4)
    assert f"play {HARVARD} campaign" in g.legal_actions("nixon")
    g.s["momentum"]["nixon"] = 0
    with pytest.raises(IllegalAction):
        g.apply("nixon", f"play {HARVARD} campaign")
    assert f"play {HARVARD} advertise" in g.legal_actions("nixon")


def test_harvard_brain_trust_and_puerto_rican_bishops():
    g = sample_turn(upto=5)
    assert g.s["momentum"]["nixon"] == 0                   # paid for Nixon's Knee
    # Nixon's media in the East exempts him from support checks in NY (carried by Kennedy)
    # and PA (Kennedy's token): NY 4 -> 2, PA Kennedy 1 -> Nixon 1.
    assert support(g, "NY") == ("kennedy", 2)
    assert support(g, "PA") == ("nixon", 1)
    assert g.s["tokens"]["nixon"] == "PA"
    assert g.s["persistent"]["debate"] == [HARVARD]        # triggered by Kennedy
    assert g.s["momentum"]["kennedy"] == 1
    assert g.s["issues"] == {"defense": -1, "economy": 1, "civil_rights": 1}
    assert g.s["rest"] == {"kennedy": 3, "nixon": 3}


def test_momentum_phase_and_campaign_strategy():
    g = sample_turn(upto=5)
    # Decay: Kennedy keeps his one marker, Nixon has none to lose. Nixon has more media: he
    # moves Civil Rights up to second place, bumping Economy to third.
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 0}
    act(g, "nixon", "swap economy civil_rights")
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    # Economy (third) gives Kennedy a momentum marker; Civil Rights (second): he takes an
    # endorsement card: Endorsement in the South.
    assert g.s["momentum"]["kennedy"] == 2
    act(g, "kennedy", "endorsement")
    g.apply("chance", f"endorsement {SOUTH_ENDORSEMENT}")
    assert g.s["endorsements"]["south"] == 1
    # Defense (first): Nixon takes a momentum marker and a Major Endorsement, placed in the
    # South, removing Kennedy's marker there.
    assert g.s["momentum"]["nixon"] == 1
    g.apply("chance", f"endorsement {MAJOR_ENDORSEMENT}")
    act(g, "nixon", "endorse south")
    assert g.s["endorsements"]["south"] == 0
    # Issue support decay: no support remains in any issue.
    assert g.s["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
    # Campaign Strategy: the sole remaining card goes face down; rest cubes go into the bag.
    bag_before = dict(g.s["bag"])
    act(g, "kennedy", f"strategy {CATHOLIC_SUPPORT}")
    assert g.s["strategy"]["kennedy"] == []                # sealed until both have committed
    act(g, "nixon", f"strategy {HERB_KLEIN}")
    assert g.s["strategy"] == {"kennedy": [CATHOLIC_SUPPORT], "nixon": [HERB_KLEIN]}
    assert g.s["bag"] == {"kennedy": bag_before["kennedy"] + 3, "nixon": bag_before["nixon"] + 3}
    assert g.s["effects"] == []                            # Nixon's Pledge and Knee end
    assert g.s["turn"] == 2


def test_zman_momentum_phase_awards_before_the_shift():
    """The Z-Man sample: awards come first (Civil Rights third, Economy second), issue support
    decays, and only then does Nixon shift, moving Economy up to the top."""
    g = sample_turn(upto=5, edition="zman")
    assert g.s["bag"]["kennedy"] == 10 - 2 - 2            # Z-Man bag: 10 cubes each
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 0}  # Civil Rights (third): Kennedy +1
    act(g, "kennedy", "endorsement")                      # Economy (second): an endorsement
    g.apply("chance", f"endorsement {SOUTH_ENDORSEMENT}")
    assert g.s["momentum"]["nixon"] == 1                  # Defense (first): Nixon +1 and a card
    g.apply("chance", f"endorsement {MAJOR_ENDORSEMENT}")
    act(g, "nixon", "endorse south")
    assert g.s["endorsements"]["south"] == 0
    assert g.s["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
    assert g.active() == ["nixon"]                        # the issue shift comes last
    act(g, "nixon", "swap defense economy")
    assert g.s["issue_track"] == ["economy", "defense", "civil_rights"]
