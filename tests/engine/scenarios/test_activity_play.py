"""2. Activity Phases: A) events, B) campaign points, C) candidate card; rest cubes; triggering
and preempting events; the Vice President cards optional rule."""
import pytest

from .helpers import EDITIONS, force, setup, start, step

K_HAND = [36, 38, 41, 43, 49, 71]       # 71 Heartland of America: a Nixon event in Kennedy's hand
N_HAND = [4, 12, 22, 25, 27, 29]        # 22 Gaffe: a both-icon event


def _kennedy_first(edition="gmt", **kw):
    return start(edition, kennedy=kw.pop("kennedy", K_HAND), nixon=kw.pop("nixon", N_HAND),
                 initiative="kennedy", start_player="kennedy", **kw)


@pytest.mark.parametrize("edition", EDITIONS)
def test_card_played_as_event_is_removed_from_game_and_gives_rest_cubes(edition):
    """A) "After resolving the Event, the card is removed from the game." Rest cubes: "players
    always collect the number of rest cubes indicated on their chosen card".
    Heartland of America: 3 CP, 1 rest cube."""
    g = start(edition, nixon=[4, 12, 25, 27, 29, 71], initiative="nixon", start_player="nixon")
    force(g, ("nixon", "play 71 event"))
    assert step(g) == "place_support"
    force(g, ("nixon", "support IA 1"), ("nixon", "done"))
    assert g.s["support"]["IA"] == -2
    assert 71 in g.s["removed"] and 71 not in g.s["discard"] and 71 not in g.s["hands"]["nixon"]
    assert g.s["rest"]["nixon"] == 1
    assert g.active() == ["kennedy"] and step(g) == "activity"


def test_persistent_event_goes_to_its_space_on_the_board():
    """"Persistent Events are placed on the designated spaces on the board; the rest are removed
    from the game." Harvard Brain Trust is a Debate Event (4 CP, no rest cube)."""
    g = _kennedy_first(kennedy=[35, 36, 38, 41, 43, 49])
    force(g, ("kennedy", "play 35 event"))
    assert g.s["persistent"]["debate"] == [35]
    assert 35 not in g.s["removed"] and 35 not in g.s["discard"]
    assert g.s["rest"]["kennedy"] == 0
    assert g.active() == ["nixon"]


def test_card_played_for_cp_is_discarded_and_gives_rest_cubes():
    """B) "After resolving the action, the card is placed in the discard pile." High Hopes:
    2 CP, 2 rest cubes."""
    g = _kennedy_first()
    force(g, ("kennedy", "play 38 campaign"), ("kennedy", "campaign MA 2"), ("nixon", "pass"))
    assert g.s["support"]["MA"] == 4
    assert g.s["rest"]["kennedy"] == 2
    assert g.s["discard"] == [38]
    assert g.active() == ["nixon"] and step(g) == "activity"


def test_cp_points_of_one_card_may_not_be_split_between_actions():
    """"A player may choose only one of these options during a particular Activity Phase.\""""
    g = _kennedy_first()
    force(g, ("kennedy", "play 43 position"))
    legal = g.legal_actions("kennedy")
    assert not any(a.startswith(("campaign", "travel", "media")) for a in legal)


def test_candidate_card_played_for_five_cp_then_exhausted():
    """C) "a player may choose to play his Candidate Card for 5 CP ... Candidate Cards are flipped
    over to their Exhausted side after being played ... never placed in the discard pile.\""""
    g = _kennedy_first()
    force(g, ("kennedy", "play candidate position"),
          ("kennedy", "position defense"),            # 1 CP
          ("kennedy", "position defense"),            # 2 CP
          ("kennedy", "position defense"))            # 2 CP: 5 spent
    assert g.s["issues"]["defense"] == 3
    assert g.s["exhausted"]["kennedy"] is True
    assert "candidate" not in g.s["discard"] and g.s["discard"] == []
    assert g.s["rest"]["kennedy"] == 0
    assert g.s["hands"]["kennedy"] == K_HAND       # not part of the hand
    force(g, ("nixon", "play 4 campaign"), ("nixon", "done"))
    assert not any("candidate" in a for a in g.legal_actions("kennedy"))


def test_candidate_card_still_available_to_the_other_player():
    g = _kennedy_first()
    force(g, ("kennedy", "play candidate campaign"), ("kennedy", "done"))
    assert "play candidate campaign" in g.legal_actions("nixon")
    assert g.s["exhausted"] == {"kennedy": True, "nixon": False}


def test_trigger_costs_one_momentum_and_triggering_player_gets_no_rest_cubes():
    """"the opposing player may trigger the Event by spending one momentum marker ... A player
    does not receive rest cubes for triggering an Event on an opponent's card! The rest cubes for
    any card always go to the player who played it.\""""
    g = _kennedy_first()
    force(g, ("kennedy", "play 71 campaign"), ("kennedy", "campaign MA 3"))
    assert g.active() == ["nixon"] and step(g) == "trigger"
    assert g.legal_actions("nixon") == ["pass", "trigger"]
    force(g, ("nixon", "trigger"))
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    force(g, ("nixon", "support NV 1"), ("nixon", "done"))
    assert g.s["support"]["NV"] == -1
    assert g.s["rest"] == {"kennedy": 1, "nixon": 0}
    # "the card is removed from the game just as it would have been had it been played as an Event"
    assert 71 in g.s["removed"] and 71 not in g.s["discard"]
    assert g.active() == ["nixon"] and step(g) == "activity"


def test_triggered_event_resolves_as_if_the_triggering_player_played_it():
    """"Doing so causes the Event on the card to be resolved exactly as if the triggering player
    had just played it from his own hand." Gaffe: the opponent (of whoever resolves it) loses."""
    g = start("gmt", kennedy=K_HAND, nixon=N_HAND, initiative="nixon", start_player="nixon")
    setup(g, support={"CA": -4, "MA": 3})
    force(g, ("nixon", "play 22 campaign"), ("nixon", "done"), ("kennedy", "trigger"))
    assert g.s["support"]["CA"] == -1            # Nixon, the opponent of Kennedy, loses 3
    assert g.s["support"]["MA"] == 3
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 1}   # 1 spent to trigger, 1 lost to Gaffe


def test_passing_on_trigger_discards_the_card():
    g = _kennedy_first()
    force(g, ("kennedy", "play 71 campaign"), ("kennedy", "done"), ("nixon", "pass"))
    assert g.s["discard"] == [71]
    assert g.s["momentum"]["nixon"] == 2
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_preempt_costs_two_momentum_and_event_cannot_be_triggered():
    """"A player may prevent his opponent from triggering an event by spending two momentum
    markers at the time he plays a card. If the Event is preempted, the opposing player may not
    trigger it, and the card is discarded normally.\""""
    g = _kennedy_first()
    assert "play 71 campaign preempt" in g.legal_actions("kennedy")
    force(g, ("kennedy", "play 71 campaign preempt"))
    assert g.s["momentum"]["kennedy"] == 0
    force(g, ("kennedy", "campaign MA 3"))
    assert step(g) == "activity" and g.active() == ["nixon"]   # no trigger offered
    assert g.s["discard"] == [71]
    assert g.s["momentum"]["nixon"] == 2
    assert g.s["rest"]["kennedy"] == 1


def test_preempt_needs_two_momentum_markers():
    g = _kennedy_first()
    setup(g, momentum={"kennedy": 1})
    assert "play 71 campaign" in g.legal_actions("kennedy")
    assert not any(a.endswith("preempt") for a in g.legal_actions("kennedy"))


def test_preempt_is_for_cp_plays_only_not_for_events():
    """"He may not prevent his opponent from playing a card from his own hand as an Event\" — and
    a card played as an event has nothing to preempt."""
    g = _kennedy_first()
    assert "play 71 event" in g.legal_actions("kennedy")
    assert "play 71 event preempt" not in g.legal_actions("kennedy")


def test_player_without_momentum_is_not_offered_trigger():
    g = _kennedy_first()
    setup(g, momentum={"nixon": 0})
    force(g, ("kennedy", "play 71 campaign"), ("kennedy", "done"))
    assert step(g) == "activity" and g.active() == ["nixon"]
    assert g.s["discard"] == [71]


def test_candidate_card_event_cannot_be_triggered_or_preempted():
    g = _kennedy_first()
    assert not any(a.startswith("play candidate") and a.endswith("preempt")
                   for a in g.legal_actions("kennedy"))
    force(g, ("kennedy", "play candidate campaign"), ("kennedy", "done"))
    assert step(g) == "activity" and g.active() == ["nixon"]


# --- Optional rule: Vice President Cards ---------------------------------------------------

VP_K_HAND = [3, 5, 8, 10, 36, 38]        # 3, 5, 8, 10 show both icons; 36, 38 only Kennedy's
VP_N_HAND = [13, 19, 25, 27, 29, 30]


def test_vp_card_played_by_discarding_a_card_showing_only_own_icon():
    """"a player may instead choose to discard any card which features only his own candidate
    icon (i.e., not their opponent's) and play his Vice President Card as if from his hand.\""""
    g = start("gmt", kennedy=VP_K_HAND, nixon=VP_N_HAND, initiative="kennedy", vp_cards=True)
    vp = sorted(a for a in g.legal_actions("kennedy") if a.startswith("vp"))
    assert vp == ["vp 36", "vp 38"]
    force(g, ("kennedy", "vp 36"))
    assert 36 in g.s["discard"] and 36 not in g.s["hands"]["kennedy"]
    legal = g.legal_actions("kennedy")
    assert legal and all(a.startswith("play 39 ") for a in legal)   # Lyndon Johnson, 4 CP
    force(g, ("kennedy", "play 39 position"), ("kennedy", "position defense"),
          ("kennedy", "position economy"), ("kennedy", "position civil_rights"),
          ("nixon", "pass"))                       # Lyndon Johnson's event is not triggered
    # the fourth CP cannot buy a second cube anywhere (2 CP each): the action ends
    assert g.s["issues"] == {"defense": 1, "economy": 1, "civil_rights": 1}
    assert g.s["vp_available"]["kennedy"] is False
    assert 39 in g.s["discard"]
    assert g.active() == ["nixon"]


def test_vp_card_spends_its_four_cp_and_is_used_once():
    g = start("gmt", kennedy=VP_K_HAND, nixon=VP_N_HAND, initiative="kennedy", vp_cards=True)
    force(g, ("kennedy", "vp 38"), ("kennedy", "play 39 position"),
          ("kennedy", "position defense"), ("kennedy", "position defense"),
          ("kennedy", "position economy"), ("nixon", "pass"))
    assert g.s["issues"] == {"defense": 2, "economy": 1, "civil_rights": 0}
    assert g.s["rest"]["kennedy"] == 0
    assert g.s["hands"]["kennedy"] == [3, 5, 8, 10, 36]
    force(g, ("nixon", f"play {g.s['hands']['nixon'][0]} campaign"), ("nixon", "done"))
    assert not any(a.startswith("vp") for a in g.legal_actions("kennedy"))


def test_vp_card_not_playable_without_a_card_showing_only_own_icon():
    """"If a player does not have such a card in hand to discard, he may not play his Vice
    President Card.\""""
    g = start("gmt", kennedy=[3, 4, 5, 8, 10, 12], nixon=VP_N_HAND, initiative="kennedy", vp_cards=True)
    assert not any(a.startswith("vp") for a in g.legal_actions("kennedy"))


def test_vp_card_not_offered_without_the_optional_rule():
    g = start("gmt", kennedy=VP_K_HAND, nixon=VP_N_HAND, initiative="kennedy")
    assert not any(a.startswith("vp") for a in g.legal_actions("kennedy"))


def test_nixon_vp_card_henry_cabot_lodge():
    g = start("gmt", kennedy=VP_K_HAND, nixon=[4, 12, 13, 19, 25, 29], initiative="nixon",
              vp_cards=True)
    assert sorted(a for a in g.legal_actions("nixon") if a.startswith("vp")) == \
        ["vp 12", "vp 25", "vp 29", "vp 4"]
    force(g, ("nixon", "vp 4"))
    assert all(a.startswith("play 42 ") for a in g.legal_actions("nixon"))
    force(g, ("nixon", "play 42 campaign"), ("nixon", "campaign CA 4"), ("kennedy", "pass"))
    assert g.s["support"]["CA"] == -4
    assert g.s["discard"] == [4, 42]
    assert g.s["vp_available"] == {"kennedy": True, "nixon": False}
