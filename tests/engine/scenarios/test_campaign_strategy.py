"""4. Campaign Strategy Phase: the face-down strategy cards, the discarded hand, rest."""
import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction

from .helpers import EDITIONS, last_activity_phase, play_activity_phases_out, setup, start, step


def to_campaign_strategy(edition="gmt", turn=1, kennedy=(36, 38, 41), nixon=(4, 12, 25)):
    g = start(edition)
    g.s["turn"] = turn
    last_activity_phase(g)
    play_activity_phases_out(g)
    assert step(g) == "campaign_strategy"
    setup(g, hands={"kennedy": list(kennedy), "nixon": list(nixon)})
    return g


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("turn", [1, 3, 5])
def test_one_strategy_card_on_turns_one_to_five(edition, turn):
    """"On the first five turns (before the Debates), players must place exactly one card.\""""
    g = to_campaign_strategy(edition, turn)
    assert g.active() == ["kennedy", "nixon"]
    assert g.legal_actions("kennedy") == ["strategy 36", "strategy 38", "strategy 41"]
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "strategy 36 38")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("turn", [7, 8])
def test_two_strategy_cards_on_turns_seven_and_eight(edition, turn):
    """"On the last two turns (after the Debates), players must place exactly two cards.\""""
    g = to_campaign_strategy(edition, turn)
    assert sorted(g.legal_actions("nixon")) == sorted(["strategy 4 12", "strategy 4 25",
                                                       "strategy 12 25"])
    with pytest.raises(IllegalAction):
        g.apply("nixon", "strategy 4")
    g.apply("kennedy", "strategy 36 41")
    g.apply("nixon", "strategy 4 25")
    assert g.s["strategy"] == {"kennedy": [36, 41], "nixon": [4, 25]}


def test_strategy_commitments_are_sealed_until_both_commit():
    """Both players play their cards "facedown": the first committer's choice is not applied (or
    shown) until the second has committed."""
    g = to_campaign_strategy()
    g.apply("kennedy", "strategy 41")
    assert g.active() == ["nixon"]
    assert g.s["hands"]["kennedy"] == [36, 38, 41]
    assert g.s["strategy"]["kennedy"] == []
    nixon_view = g.view("nixon")
    assert nixon_view["log"][-1] == ["kennedy", "strategy (face down)"]
    assert "41" not in str(nixon_view["log"][-1])
    assert g.view("kennedy")["my_commitment"] == "strategy 41"
    g.apply("nixon", "strategy 12")
    assert g.s["strategy"] == {"kennedy": [41], "nixon": [12]}


def test_committed_player_cannot_commit_again():
    g = to_campaign_strategy()
    g.apply("kennedy", "strategy 41")
    assert g.legal_actions("kennedy") == []
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "strategy 36")


def test_gathering_momentum_cards_are_not_allowed_as_strategy_cards():
    """"The four GATHERING MOMENTUM cards may not be played as Campaign Strategy cards!\""""
    g = to_campaign_strategy(kennedy=(14, 15, 36), nixon=(16, 17, 25))
    assert g.legal_actions("kennedy") == ["strategy 36"]
    assert g.legal_actions("nixon") == ["strategy 25"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_rest_of_the_hand_is_discarded(edition):
    """"If either player has any cards remaining in their hand after they have done so, those
    extra cards must immediately be discarded.\""""
    g = to_campaign_strategy(edition)
    discard = list(g.s["discard"])
    g.apply("kennedy", "strategy 41")
    g.apply("nixon", "strategy 12")
    assert sorted(g.s["discard"]) == sorted(discard + [36, 38, 4, 25])
    assert g.s["hands"] == {"kennedy": [], "nixon": []}
    assert g.s["turn"] == 2 and g.active() == [CHANCE]      # the next turn's deal


@pytest.mark.parametrize("edition", EDITIONS)
def test_rest_cubes_go_into_the_bag(edition):
    """Step 2 – Rest: "Both players deposit their rest cubes ... into the Political Capital Bag.\""""
    g = to_campaign_strategy(edition)
    setup(g, bag={"kennedy": 5, "nixon": 7}, rest={"kennedy": 4, "nixon": 9})
    g.apply("kennedy", "strategy 41")
    g.apply("nixon", "strategy 12")
    assert g.s["bag"] == {"kennedy": 9, "nixon": 16}
    assert g.s["rest"] == {"kennedy": 0, "nixon": 0}


def test_rest_cubes_collected_during_the_turn_reach_the_bag():
    g = start("gmt")
    bag = dict(g.s["bag"])
    last_activity_phase(g)
    play_activity_phases_out(g)          # Kennedy plays 36 (2 rest), Nixon plays 4 (2 rest)
    assert g.s["rest"] == {"kennedy": 2, "nixon": 2}
    g.apply("kennedy", f"strategy {g.s['hands']['kennedy'][0]}")
    g.apply("nixon", f"strategy {g.s['hands']['nixon'][0]}")
    assert g.s["bag"] == {"kennedy": bag["kennedy"] + 2, "nixon": bag["nixon"] + 2}


def test_turn_long_effects_end_with_the_turn():
    """"If the Event has an effect which lasts for the remainder of the turn, the card should be
    kept ... until the end of the turn.\" Nixon's Pledge is no longer in force on turn 2."""
    g = to_campaign_strategy()
    g.s["effects"] = [76]
    g.apply("kennedy", "strategy 41")
    assert g.s["effects"] == [76]
    g.apply("nixon", "strategy 12")
    assert g.s["effects"] == []
    assert g.s["turn"] == 2 and g.active() == [CHANCE]
