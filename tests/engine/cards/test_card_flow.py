"""Card events that move cards or grant campaign points (issue 3, batch B): 27 Nelson Rockefeller,
29 The Great Seal Bug, 38 High Hopes, 39 Lyndon Johnson, 42 Henry Cabot Lodge, 53 Campaign
Headquarters, 56 Opposition Research, 57 A New Frontier, 58 Tricky Dick, 61 Fatigue Sets In,
66 Adlai Stevenson, 83 Whistlestop, 91 Political Capital, 94 A Low Blow.

Each test quotes the card (cards.json ``effect``) or the ruling (data/rulings/card_flow.json).
"""
import json

import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction
from engine.games.tmotp import events as event_table
from engine.games.tmotp.data import RULINGS
from tests.engine.scenarios.helpers import (EDITIONS, draws, end_turn, force, last_activity_phase,
                                            setup, start, step)

OURS = (27, 29, 38, 39, 42, 53, 56, 57, 58, 61, 66, 83, 91, 94)

# Hands: the cards under test plus fillers. 36 Henry Luce, 41 Pierre Salinger, 43 Catholic
# Support, 49 Eleanor Roosevelt, 51 Missile Gap (Kennedy icon); 4, 12, 25, 30, 72 (Nixon icon).
K_FILL = [36, 41, 43, 49, 51]
N_FILL = [4, 12, 25, 30, 72]


def other(seat):
    return "nixon" if seat == "kennedy" else "kennedy"


def kennedy_first(card=38, kennedy=None, nixon=None, edition="gmt", **options):
    """Kennedy to play first, holding ``card`` and the fillers (or ``kennedy``)."""
    return start(edition, kennedy=kennedy or sorted([card, *K_FILL]),
                 nixon=nixon or [4, 12, 25, 29, 30, 72],
                 initiative="kennedy", start_player="kennedy", **options)


def nixon_first(card=29, nixon=None, kennedy=None, edition="gmt", **options):
    """Nixon to play first, holding ``card`` and the fillers (or ``nixon``)."""
    return start(edition, kennedy=kennedy or [36, 38, 41, 43, 49, 51],
                 nixon=nixon or sorted([card, *N_FILL]),
                 initiative="nixon", start_player="nixon", **options)


def to_discard(g, *cards):
    """Move cards from the deck to the discard pile (face up, public)."""
    for c in cards:
        g.s["deck"].remove(c)
        g.s["discard"].append(c)


def cp_nothing(g, seat, cid, trigger=False):
    """``seat`` plays ``cid`` for a Campaigning action and spends nothing; the opponent then
    triggers its event if ``trigger`` (else passes any trigger offered)."""
    force(g, (seat, f"play {cid} campaign"), (seat, "done"))
    if step(g) == "trigger":
        force(g, (other(seat), "trigger" if trigger else "pass"))
    else:
        assert not trigger, "no trigger was offered"


def takes(g, seat):
    return sorted(a for a in g.legal_actions(seat) if a.startswith("take"))


def test_every_card_of_the_batch_has_an_event_and_a_ruling():
    for cid in OURS:
        assert cid in event_table.EVENTS and cid in RULINGS


# --- 27 Nelson Rockefeller, 66 Adlai Stevenson -----------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_nelson_rockefeller_new_york_cube_then_any_card_back_from_the_discard_pile(edition):
    """"Nixon adds 1 state support cube to New York; he may also take back any one card of his
    choice from the discard pile.\""""
    g = nixon_first(27, edition=edition)
    to_discard(g, 6, 18, 22)
    force(g, ("nixon", "play 27 event"))
    assert g.s["support"]["NY"] == -1
    assert step(g) == "pick_discard" and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == ["done", "take 18", "take 22", "take 6"]
    force(g, ("nixon", "take 6"))          # any card, a Kennedy one too
    assert g.s["hands"]["nixon"] == [4, 6, 12, 25, 30, 72]
    assert g.s["discard"] == [18, 22]
    assert 27 in g.s["removed"] and g.s["rest"]["nixon"] == 1
    assert step(g) == "activity" and g.active() == ["kennedy"]


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_nelson_rockefeller_new_york_needs_a_check_where_kennedy_carries_it_gmt(edition, checks):
    g = nixon_first(27, edition=edition)
    setup(g, support={"NY": 4})
    force(g, ("nixon", "play 27 event"))
    if checks:
        assert g.active() == [CHANCE] and g.top["step"] == "support_checks"
        draws(g, "kennedy")
        assert g.s["support"]["NY"] == 4
    else:
        assert g.s["support"]["NY"] == 3
    # an empty discard pile: nothing to take, no question
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert g.s["hands"]["nixon"] == [4, 12, 25, 30, 72]


def test_nelson_rockefeller_nixon_may_take_nothing():
    g = nixon_first(27)
    to_discard(g, 6)
    force(g, ("nixon", "play 27 event"), ("nixon", "done"))
    assert g.s["discard"] == [6] and g.s["hands"]["nixon"] == [4, 12, 25, 30, 72]
    assert g.active() == ["kennedy"]


def test_nelson_rockefeller_played_by_kennedy_benefits_nixon():
    """An event naming a candidate benefits him whoever resolves it: Nixon takes the card."""
    g = kennedy_first(kennedy=[27, 36, 41, 43, 49, 51])
    to_discard(g, 6)
    force(g, ("kennedy", "play 27 event"))
    assert g.s["support"]["NY"] == -1
    assert g.active() == ["nixon"] and takes(g, "nixon") == ["take 6"]
    force(g, ("nixon", "take 6"))
    assert 6 in g.s["hands"]["nixon"] and 6 not in g.s["hands"]["kennedy"]
    assert step(g) == "activity" and g.active() == ["nixon"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_adlai_stevenson_illinois_cube_then_any_card_back(edition):
    """"Kennedy adds 1 state support cube to Illinois; he may also take back any one card of his
    choice from the discard pile.\""""
    g = kennedy_first(66, edition=edition)
    setup(g, support={"IL": -2})
    to_discard(g, 18, 90)
    force(g, ("kennedy", "play 66 event"))
    assert g.s["support"]["IL"] == -1
    assert g.legal_actions("kennedy") == ["done", "take 18", "take 90"]
    force(g, ("kennedy", "take 90"))
    assert g.s["hands"]["kennedy"] == [36, 41, 43, 49, 51, 90]
    assert g.s["discard"] == [18] and 66 in g.s["removed"]
    assert g.active() == ["nixon"] and step(g) == "activity"


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_adlai_stevenson_illinois_needs_a_check_where_nixons_token_is_gmt(edition, checks):
    g = kennedy_first(66, edition=edition)
    setup(g, tokens={"nixon": "IL"})
    to_discard(g, 18)
    force(g, ("kennedy", "play 66 event"))
    assert (g.active() == [CHANCE]) is checks
    if checks:
        draws(g, "nixon")
        assert g.s["support"]["IL"] == 0
    else:
        assert g.s["support"]["IL"] == 1
    force(g, ("kennedy", "take 18"))
    assert 18 in g.s["hands"]["kennedy"]


def test_adlai_stevenson_triggered_by_nixon_still_benefits_kennedy():
    g = kennedy_first(66)
    to_discard(g, 18)
    cp_nothing(g, "kennedy", 66, trigger=True)
    assert g.s["momentum"]["nixon"] == 1
    assert g.s["support"]["IL"] == 1
    assert g.active() == ["kennedy"] and takes(g, "kennedy") == ["take 18"]
    force(g, ("kennedy", "take 18"))
    assert 18 in g.s["hands"]["kennedy"] and 66 in g.s["removed"] and 66 not in g.s["discard"]
    assert step(g) == "activity" and g.active() == ["nixon"]


# --- 29 The Great Seal Bug -------------------------------------------------------------------

def test_the_great_seal_bug_defense_cube_and_henry_cabot_lodge_back():
    """"Nixon receives 1 issue support cube in Defense; if the Henry Cabot Lodge card is sitting
    in the discard pile, Nixon may also take it back.\""""
    g = nixon_first(29)
    to_discard(g, 6, 42)
    force(g, ("nixon", "play 29 event"))
    assert g.s["issues"]["defense"] == -1
    assert g.legal_actions("nixon") == ["done", "take 42"]      # only Henry Cabot Lodge
    force(g, ("nixon", "take 42"))
    assert g.s["hands"]["nixon"] == [4, 12, 25, 30, 42, 72]
    assert g.s["discard"] == [6]
    assert g.active() == ["kennedy"]


def test_the_great_seal_bug_without_lodge_in_the_discards_asks_nothing():
    g = nixon_first(29)
    setup(g, issues={"defense": 2})
    to_discard(g, 6)
    force(g, ("nixon", "play 29 event"))
    assert g.s["issues"]["defense"] == 1                # removes a Kennedy cube first
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert g.s["discard"] == [6]


def test_the_great_seal_bug_nixon_may_leave_lodge_in_the_discards():
    g = nixon_first(29)
    to_discard(g, 42)
    force(g, ("nixon", "play 29 event"), ("nixon", "done"))
    assert g.s["discard"] == [42] and 42 not in g.s["hands"]["nixon"]


# --- 38 High Hopes ---------------------------------------------------------------------------

def test_high_hopes_turns_over_two_cards_and_carries_out_the_kennedy_ones_in_order():
    """"Turn over the top 2 cards of the Campaign deck one after the other. Each revealed card
    that carries the Kennedy icon has its event carried out, in the order the cards were
    revealed, as though Kennedy had played it.\""""
    g = kennedy_first(38)
    force(g, ("kennedy", "play 38 event"))
    assert g.active() == [CHANCE] and step(g) == "high_hopes_reveal"
    deck = list(g.s["deck"])
    assert g.legal_actions(CHANCE) == sorted(f"reveal deck {c}" for c in deck)
    g.apply(CHANCE, "reveal deck 28")              # Harry F. Byrd: Nixon's icon only
    assert g.active() == [CHANCE]                  # both cards are turned over first
    g.apply(CHANCE, "reveal deck 6")               # New England: Kennedy's icon
    assert 28 not in g.s["deck"] and 6 not in g.s["deck"]
    assert g.s["discard"] == [28]                  # not carried out: discarded
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    force(g, ("kennedy", "support NY 2"), ("kennedy", "support CT 2"), ("kennedy", "support VT 1"))
    assert (g.s["support"]["NY"], g.s["support"]["CT"], g.s["support"]["VT"]) == (2, 2, 0)
    assert 6 in g.s["removed"] and 38 in g.s["removed"]
    assert g.s["rest"]["kennedy"] == 2             # High Hopes' own rest cubes only
    assert step(g) == "activity" and g.active() == ["nixon"]
    notes = " ".join(note[1] for note in g.s["notes"])
    assert "High Hopes turns over Harry F. Byrd" in notes and "turns over New England" in notes


def test_high_hopes_a_card_with_both_icons_carries_the_kennedy_icon():
    """Ruling: both icons count. Gaffe (both) as though Kennedy had played it: Nixon, "the
    opponent", loses the momentum marker and 3 support where his token is."""
    g = kennedy_first(38)
    setup(g, support={"CA": -3})
    force(g, ("kennedy", "play 38 event"))
    g.apply(CHANCE, "reveal deck 22")
    g.apply(CHANCE, "reveal deck 18")              # Eisenhower: Nixon's icon
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g.s["support"]["CA"] == 0
    assert 22 in g.s["removed"] and g.s["discard"] == [18]
    assert g.s["persistent"]["prevention"] == []   # Eisenhower was not carried out
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_high_hopes_played_by_nixon_still_resolves_the_events_as_kennedy():
    """Campaign Headquarters ("The player may throw away ...") carried out as though Kennedy had
    played it: Kennedy throws away and draws, though Nixon played High Hopes."""
    g = nixon_first(38, kennedy=[7, 36, 41, 43, 49, 51])
    force(g, ("nixon", "play 38 event"))
    g.apply(CHANCE, "reveal deck 53")
    g.apply(CHANCE, "reveal deck 61")              # Fatigue Sets In (both)
    assert step(g) == "discard_redraw" and g.active() == ["kennedy"]
    force(g, ("kennedy", "discard 36 51"))
    assert g.s["discard"] == [36, 51]
    g.apply(CHANCE, "deal kennedy 6")
    g.apply(CHANCE, "deal kennedy 90")
    assert g.s["hands"]["kennedy"] == [6, 7, 41, 43, 49, 90]
    assert g.s["hands"]["nixon"] == N_FILL
    # then Fatigue Sets In as though Kennedy had played it: Nixon's candidate card is exhausted
    assert g.s["exhausted"] == {"kennedy": False, "nixon": True}
    assert 53 in g.s["removed"] and 61 in g.s["removed"]
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_high_hopes_a_prevented_kennedy_event_is_not_carried_out(monkeypatch):
    """Eisenhower's Silence (Kennedy) cannot be played while Dwight D. Eisenhower is in effect:
    it goes to the discard pile."""
    monkeypatch.setitem(event_table.EVENTS, 74, event_table.EVENTS.get(74, (lambda g, f: None,)))
    g = kennedy_first(38)
    g.s["persistent"]["prevention"] = [18]
    g.s["deck"].remove(18)
    force(g, ("kennedy", "play 38 event"))
    g.apply(CHANCE, "reveal deck 74")
    g.apply(CHANCE, "reveal deck 6")
    assert g.s["discard"] == [74]
    assert step(g) == "place_support"               # New England still carried out
    force(g, ("kennedy", "done"))
    assert 6 in g.s["removed"] and 74 not in g.s["removed"]


def test_high_hopes_an_empty_deck_is_reformed_from_the_discards_first():
    """Ruling: as when dealing, "If the deck is depleted, shuffle the discards to form a new
    deck"; with one card left in all, only one is turned over."""
    g = kennedy_first(38)
    g.s["discard"] = [28, 61]
    g.s["deck"] = []
    force(g, ("kennedy", "play 38 event"))
    assert g.s["deck"] == [28, 61] and g.s["discard"] == []
    assert g.legal_actions(CHANCE) == ["reveal deck 28", "reveal deck 61"]
    g.apply(CHANCE, "reveal deck 61")
    assert g.legal_actions(CHANCE) == ["reveal deck 28"]
    g.apply(CHANCE, "reveal deck 28")
    assert g.s["exhausted"]["nixon"] is True and g.s["discard"] == [28]

    g = kennedy_first(38)
    g.s["discard"], g.s["deck"] = [], [61]
    force(g, ("kennedy", "play 38 event"))
    g.apply(CHANCE, "reveal deck 61")
    assert g.s["exhausted"]["nixon"] is True
    assert step(g) == "activity" and g.active() == ["nixon"]        # only one card to turn over


def test_high_hopes_triggered_by_nixon_is_still_carried_out_for_kennedy():
    g = kennedy_first(38)
    cp_nothing(g, "kennedy", 38, trigger=True)
    g.apply(CHANCE, "reveal deck 61")
    g.apply(CHANCE, "reveal deck 18")              # Dwight D. Eisenhower: Nixon's icon
    assert g.s["exhausted"] == {"kennedy": False, "nixon": True}
    assert g.s["discard"] == [18] and 38 in g.s["removed"]
    assert g.s["momentum"]["nixon"] == 1


# --- 39 Lyndon Johnson -----------------------------------------------------------------------

def test_lyndon_johnson_texas_then_three_more_in_the_south_and_candidate_card_face_up():
    """"Kennedy may put 2 state support cubes into Texas, then up to 3 further cubes anywhere in
    the South, with no state receiving more than 2. If Kennedy's candidate card is on its
    Exhausted side, Kennedy may turn it back face-up.\" Ruling: the limit is on the 3 further
    cubes, Texas included."""
    g = kennedy_first(39, edition="zman")
    setup(g, exhausted={"kennedy": True, "nixon": False})
    force(g, ("kennedy", "play 39 event"))
    assert g.legal_actions("kennedy") == ["choose no", "choose yes"]
    force(g, ("kennedy", "choose yes"))
    assert g.s["support"]["TX"] == 2
    legal = g.legal_actions("kennedy")
    assert "support TX 2" in legal and "support GA 2" in legal and "support GA 3" not in legal
    assert "support OH 1" not in legal and "support TX 3" not in legal
    force(g, ("kennedy", "support TX 2"), ("kennedy", "support GA 1"))
    assert g.s["support"]["TX"] == 4 and g.s["support"]["GA"] == 3      # GA starts with 2
    assert g.s["exhausted"]["kennedy"] is False
    assert step(g) == "activity" and g.active() == ["nixon"]


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_lyndon_johnson_texas_cubes_need_checks_where_nixon_stands_gmt(edition, checks):
    g = kennedy_first(39, edition=edition)
    setup(g, tokens={"nixon": "TX"})
    force(g, ("kennedy", "play 39 event"), ("kennedy", "choose yes"))
    if checks:
        assert g.top["step"] == "support_checks" and g.top["left"] == 2
        draws(g, "kennedy", "nixon")
        assert g.s["support"]["TX"] == 1
    else:
        assert g.s["support"]["TX"] == 2
    assert step(g) == "place_support"
    force(g, ("kennedy", "done"))
    assert g.s["exhausted"]["kennedy"] is False and g.active() == ["nixon"]


def test_lyndon_johnson_kennedy_may_decline_texas():
    g = kennedy_first(39)
    force(g, ("kennedy", "play 39 event"), ("kennedy", "choose no"))
    assert g.s["support"]["TX"] == 0 and step(g) == "place_support"
    force(g, ("kennedy", "support TX 2"), ("kennedy", "support FL 1"))
    assert g.s["support"]["TX"] == 2 and g.s["support"]["FL"] == 1


def test_lyndon_johnson_as_the_vice_president_card():
    """Vice President Cards: discard a card with only his own icon and play LBJ "as if from his
    hand"; played as an event it is removed from the game."""
    g = kennedy_first(38, vp_cards=True, edition="zman")
    setup(g, exhausted={"kennedy": True, "nixon": False})
    force(g, ("kennedy", "vp 36"), ("kennedy", "play 39 event"), ("kennedy", "choose yes"),
          ("kennedy", "done"))
    assert g.s["support"]["TX"] == 2 and g.s["exhausted"]["kennedy"] is False
    assert 39 in g.s["removed"] and 36 in g.s["discard"]
    assert g.active() == ["nixon"]


def test_lyndon_johnson_triggered_by_nixon_kennedy_decides():
    g = kennedy_first(39)
    cp_nothing(g, "kennedy", 39, trigger=True)
    assert g.active() == ["kennedy"] and step(g) == "choose"


# --- 42 Henry Cabot Lodge --------------------------------------------------------------------

@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_henry_cabot_lodge_massachusetts_defense_and_candidate_card_face_up(edition, checks):
    """"Nixon puts 2 state support cubes into Massachusetts and 2 issue support cubes onto
    Defense. If Nixon's candidate card is on its Exhausted side, Nixon may turn it back face-up.\"
    GMT: Kennedy's token is in Massachusetts, so the 2 cubes are 2 support checks."""
    g = nixon_first(42, edition=edition)
    setup(g, exhausted={"kennedy": True, "nixon": True})
    force(g, ("nixon", "play 42 event"))
    if checks:
        assert g.top["step"] == "support_checks" and g.top["where"] == "MA"
        draws(g, "nixon", "kennedy")
        assert g.s["support"]["MA"] == 1
    else:
        assert g.s["support"]["MA"] == 0
    assert g.s["issues"]["defense"] == -2
    assert g.s["exhausted"] == {"kennedy": True, "nixon": False}
    assert g.s["rest"]["nixon"] == 0 and 42 in g.s["removed"]
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_henry_cabot_lodge_as_the_vice_president_card():
    g = nixon_first(29, vp_cards=True, edition="zman")
    force(g, ("nixon", "vp 12"), ("nixon", "play 42 event"))
    assert g.s["support"]["MA"] == 0 and g.s["issues"]["defense"] == -2
    assert 42 in g.s["removed"] and g.active() == ["kennedy"]


# --- 53 Campaign Headquarters, 57 A New Frontier -----------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_campaign_headquarters_throw_away_any_cards_and_draw_that_many(edition):
    """"The player may throw away as many cards from his hand as he wishes and then draw that
    many new cards from the Campaign deck.\""""
    g = kennedy_first(53, edition=edition)
    force(g, ("kennedy", "play 53 event"))
    legal = g.legal_actions("kennedy")
    assert len(legal) == 2 ** 5 and "done" in legal          # every subset of 5 cards, or none
    assert "discard 36 49 51" in legal and "discard 49 36" not in legal
    force(g, ("kennedy", "discard 36 49 51"))
    assert g.s["discard"] == [36, 49, 51] and g.s["hands"]["kennedy"] == [41, 43]
    assert g.active() == [CHANCE]
    assert all(a.startswith("deal kennedy ") for a in g.legal_actions(CHANCE))
    for cid in (6, 7, 90):
        g.apply(CHANCE, f"deal kennedy {cid}")
    assert g.s["hands"]["kennedy"] == [6, 7, 41, 43, 90]
    assert 53 in g.s["removed"] and g.s["rest"]["kennedy"] == 2
    assert step(g) == "activity" and g.active() == ["nixon"]
    # the opponent's view of the log shows that cards were dealt, not which
    deals = [a for who, a in g.view("nixon")["log"][-3:]]
    assert deals == ["deal kennedy"] * 3
    assert g.view("kennedy")["log"][-1] == ["chance", "deal kennedy 90"]


def test_campaign_headquarters_keep_the_hand():
    g = kennedy_first(53)
    force(g, ("kennedy", "play 53 event"), ("kennedy", "done"))
    assert g.s["hands"]["kennedy"] == K_FILL and g.s["discard"] == []
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_campaign_headquarters_triggered_the_triggering_player_redraws():
    g = kennedy_first(53)
    cp_nothing(g, "kennedy", 53, trigger=True)
    assert g.active() == ["nixon"] and step(g) == "discard_redraw"
    assert "discard 4 12" in g.legal_actions("nixon")
    force(g, ("nixon", "discard 4 12"))
    g.apply(CHANCE, "deal nixon 6")
    g.apply(CHANCE, "deal nixon 18")
    assert g.s["hands"]["nixon"] == [6, 18, 25, 29, 30, 72]
    assert g.s["hands"]["kennedy"] == K_FILL
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_campaign_headquarters_an_empty_deck_takes_the_thrown_cards_back_in():
    g = kennedy_first(53)
    g.s["deck"], g.s["discard"] = [], [90]
    force(g, ("kennedy", "play 53 event"), ("kennedy", "discard 36 41"))
    assert g.s["deck"] == [36, 41, 90] and g.s["discard"] == []
    g.apply(CHANCE, "deal kennedy 36")
    g.apply(CHANCE, "deal kennedy 90")
    assert g.s["hands"]["kennedy"] == [36, 43, 49, 51, 90] and g.s["deck"] == [41]


def test_campaign_headquarters_with_only_the_thrown_cards_left_draws_them_back():
    g = kennedy_first(53)
    g.s["deck"], g.s["discard"] = [], []
    force(g, ("kennedy", "play 53 event"), ("kennedy", "discard 36"))
    assert g.s["deck"] == [36] and g.s["discard"] == []
    assert g.legal_actions(CHANCE) == ["deal kennedy 36"]
    g.apply(CHANCE, "deal kennedy 36")
    assert g.s["hands"]["kennedy"] == K_FILL and step(g) == "activity"


def test_campaign_headquarters_a_hand_grown_past_seven_cards():
    """Hands can grow beyond their size (Political Capital): every subset is still offered, and
    a long 'discard' action is accepted."""
    g = kennedy_first(53)
    for c in (6, 7, 90, 18):
        g.s["deck"].remove(c)
    g.s["hands"]["kennedy"] = sorted(K_FILL + [6, 7, 90, 18, 53])
    force(g, ("kennedy", "play 53 event"))
    assert len(g.legal_actions("kennedy")) == 2 ** 9
    force(g, ("kennedy", "discard 6 7 18 36 41 43 49 51 90"))
    assert g.s["hands"]["kennedy"] == [] and len(g.s["discard"]) == 9
    for _ in range(9):
        assert g.legal_actions(CHANCE)[0].startswith("deal kennedy ")
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    assert len(g.s["hands"]["kennedy"]) == 9 and step(g) == "activity"


def test_a_new_frontier_kennedy_throws_away_and_draws_even_when_nixon_plays_it():
    """"Kennedy may throw away as many cards from his hand as he wishes and then draw that many
    new cards from the Campaign deck.\""""
    g = nixon_first(nixon=[4, 12, 25, 30, 57, 72])
    force(g, ("nixon", "play 57 event"))
    assert g.active() == ["kennedy"] and step(g) == "discard_redraw"
    force(g, ("kennedy", "discard 38"))
    g.apply(CHANCE, "deal kennedy 6")
    assert g.s["hands"]["kennedy"] == [6, 36, 41, 43, 49, 51]
    assert g.s["hands"]["nixon"] == [4, 12, 25, 30, 72]
    assert g.s["discard"] == [38] and 57 in g.s["removed"]
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_a_new_frontier_played_by_kennedy():
    g = kennedy_first(57)
    force(g, ("kennedy", "play 57 event"), ("kennedy", "discard 41 43"))
    g.apply(CHANCE, "deal kennedy 6")
    g.apply(CHANCE, "deal kennedy 7")
    assert g.s["hands"]["kennedy"] == [6, 7, 36, 49, 51] and g.s["discard"] == [41, 43]
    assert g.active() == ["nixon"]


# --- 56 Opposition Research ------------------------------------------------------------------

def test_opposition_research_nixon_sees_kennedys_hand_and_spends_3_cp():
    """"Kennedy must show his whole hand to Nixon; Nixon may then spend 3 CP.\""""
    g = nixon_first(56)
    force(g, ("nixon", "play 56 event"))
    hand = [36, 38, 41, 43, 49, 51]
    assert g.view("nixon")["shown_hands"] == {"kennedy": hand}
    assert g.view("kennedy")["shown_hands"] == {} and g.view(None)["shown_hands"] == {}
    assert "kennedy" not in g.view("nixon")["hands"]
    assert g.legal_actions("nixon") == ["choose advertise", "choose campaign", "choose none",
                                        "choose position"]
    force(g, ("nixon", "choose campaign"))
    assert step(g) == "campaigning" and g.top["cp"] == 3
    legal = g.legal_actions("nixon")
    assert "campaign CA 3" in legal and "campaign CA 4" not in legal
    force(g, ("nixon", "campaign CA 3"))
    assert g.s["support"]["CA"] == -3
    assert 56 in g.s["removed"] and g.s["rest"]["nixon"] == 0
    assert step(g) == "activity" and g.active() == ["kennedy"]
    # a snapshot: what Kennedy held when he showed it, not his hand now
    force(g, ("kennedy", "play 36 campaign"), ("kennedy", "done"))
    if step(g) == "trigger":
        force(g, ("nixon", "pass"))
    assert g.view("nixon")["shown_hands"] == {"kennedy": hand}
    assert json.dumps(hand) not in json.dumps(g.view(None))


def test_opposition_research_snapshot_ends_with_the_turn():
    g = nixon_first(56)
    last_activity_phase(g)
    force(g, ("nixon", "play 56 event"), ("nixon", "choose none"))
    assert g.view("nixon")["shown_hands"] == {"kennedy": [36, 38, 41, 43, 49, 51]}
    end_turn(g, [41], [4])
    assert g.s["turn"] == 2
    assert g.view("nixon")["shown_hands"] == {}


def test_opposition_research_positioning_is_not_restricted():
    """Restricted Positioning "does not affect Issue Support granted by Events": the event's
    3 CP may buy Defense, the card's own debate issue."""
    g = nixon_first(56, restricted_positioning=True)
    force(g, ("nixon", "play 56 event"), ("nixon", "choose position"))
    assert "position defense" in g.legal_actions("nixon")
    force(g, ("nixon", "position defense"), ("nixon", "position defense"))
    assert g.s["issues"]["defense"] == -2
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_opposition_research_advertising_with_the_3_cp():
    g = nixon_first(56)
    force(g, ("nixon", "play 56 event"), ("nixon", "choose advertise"))
    assert g.top["step"] == "support_checks" and g.top["left"] == 3
    draws(g, "nixon", "kennedy", "nixon")
    force(g, ("nixon", "media west"), ("nixon", "media east"))
    assert g.s["media"]["west"] == -1 and g.s["media"]["east"] == -1
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_opposition_research_played_by_kennedy_still_shows_his_hand_to_nixon():
    g = kennedy_first(kennedy=[36, 41, 43, 49, 51, 56])
    force(g, ("kennedy", "play 56 event"))
    assert g.view("nixon")["shown_hands"] == {"kennedy": [36, 41, 43, 49, 51]}
    assert g.active() == ["nixon"]
    force(g, ("nixon", "choose none"))
    assert step(g) == "activity" and g.active() == ["nixon"]


# --- 58 Tricky Dick --------------------------------------------------------------------------

def test_tricky_dick_gives_up_momentum_and_plays_a_discarded_event_without_rest_cubes():
    """"Nixon gives up 1 momentum marker; he may then pick any card out of the discard pile and
    play it straight away as an event, collecting no rest cubes for that card.\" Puerto Rican
    Bishops cannot be picked while the Greater Houston Ministerial Association is in effect."""
    g = nixon_first(58)
    to_discard(g, 71, 44, 28)
    g.s["deck"].remove(1)
    g.s["persistent"]["prevention"] = [1]
    force(g, ("nixon", "play 58 event"))
    assert g.s["momentum"]["nixon"] == 1
    assert g.legal_actions("nixon") == ["done", "take 28", "take 71"]
    force(g, ("nixon", "take 71"))                 # Heartland of America
    assert step(g) == "place_support" and g.active() == ["nixon"]
    force(g, ("nixon", "support IA 1"), ("nixon", "done"))
    assert g.s["support"]["IA"] == -2
    assert g.s["rest"]["nixon"] == 0     # Tricky Dick gives none; Heartland's 1 is not collected
    assert 71 in g.s["removed"] and 58 in g.s["removed"]
    assert g.s["discard"] == [44, 28]
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_tricky_dick_counts_for_nixons_pledge_twice():
    """Ruling: the card picked is played as an event in every respect but the rest cubes."""
    g = kennedy_first(kennedy=[36, 41, 43, 49, 51, 76], nixon=[4, 12, 25, 30, 58, 72])
    to_discard(g, 28)
    force(g, ("kennedy", "play 76 event"), ("nixon", "play 58 event"))
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 1}
    force(g, ("nixon", "take 28"))                 # Harry F. Byrd: nothing to remove
    assert g.s["momentum"] == {"kennedy": 4, "nixon": 1}


def test_tricky_dick_with_no_momentum_nixon_may_still_play_a_card():
    g = nixon_first(58)
    setup(g, momentum={"nixon": 0})
    to_discard(g, 61)
    force(g, ("nixon", "play 58 event"))
    assert g.s["momentum"]["nixon"] == 0
    force(g, ("nixon", "take 61"))                 # Fatigue Sets In for Nixon
    assert g.s["exhausted"] == {"kennedy": True, "nixon": False}


def test_tricky_dick_an_event_cost_must_be_paid_to_pick(monkeypatch):
    """A momentum cost to play an event (Jackie Kennedy) applies to the card picked."""
    from engine.games.tmotp import effects
    monkeypatch.setattr(effects, "event_momentum_cost", lambda g, seat: 1 if seat == "nixon" else 0)
    g = nixon_first(58)
    setup(g, momentum={"nixon": 3})
    to_discard(g, 61)
    force(g, ("nixon", "play 58 event"))           # 1 to play Tricky Dick, 1 given up
    assert g.s["momentum"]["nixon"] == 1
    force(g, ("nixon", "take 61"))
    assert g.s["momentum"]["nixon"] == 0
    g = nixon_first(58)
    setup(g, momentum={"nixon": 2})
    to_discard(g, 61)
    force(g, ("nixon", "play 58 event"))
    assert g.s["momentum"]["nixon"] == 0
    assert step(g) == "activity" and g.active() == ["kennedy"]      # cannot pay: nothing offered


def test_tricky_dick_empty_discard_pile_and_declining():
    g = nixon_first(58)
    force(g, ("nixon", "play 58 event"))
    assert step(g) == "activity" and g.active() == ["kennedy"]
    g = nixon_first(58)
    to_discard(g, 61)
    force(g, ("nixon", "play 58 event"), ("nixon", "done"))
    assert g.s["discard"] == [61] and g.s["exhausted"]["kennedy"] is False


def test_tricky_dick_plays_high_hopes_from_the_discards():
    """Events within events: High Hopes played by Nixon through Tricky Dick still carries out the
    Kennedy cards as though Kennedy had played them."""
    g = nixon_first(58, kennedy=[7, 36, 41, 43, 49, 51])
    to_discard(g, 38)
    force(g, ("nixon", "play 58 event"), ("nixon", "take 38"))
    g.apply(CHANCE, "reveal deck 6")
    g.apply(CHANCE, "reveal deck 22")
    assert step(g) == "place_support" and g.active() == ["kennedy"]
    force(g, ("kennedy", "support NY 2"), ("kennedy", "done"))
    # then Gaffe for Kennedy: Nixon loses a momentum marker (1 left after Tricky Dick) and CA cubes
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 0}
    assert {58, 38, 6, 22} <= set(g.s["removed"]) and g.s["discard"] == []
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_tricky_dick_triggered_by_nixon():
    g = kennedy_first(kennedy=[36, 41, 43, 49, 51, 58])
    to_discard(g, 61)
    cp_nothing(g, "kennedy", 58, trigger=True)
    assert g.s["momentum"]["nixon"] == 0           # 1 to trigger, 1 given up
    force(g, ("nixon", "take 61"))
    assert g.s["exhausted"] == {"kennedy": True, "nixon": False}
    assert g.s["rest"] == {"kennedy": 0, "nixon": 0}


# --- 61 Fatigue Sets In ----------------------------------------------------------------------

def test_fatigue_sets_in_exhausts_the_opponents_candidate_card():
    """"If the opponent's candidate card is currently on its active (playable) side, turn it to
    its Exhausted side.\""""
    g = kennedy_first(61)
    force(g, ("kennedy", "play 61 event"))
    assert g.s["exhausted"] == {"kennedy": False, "nixon": True}
    legal = g.legal_actions("nixon")
    assert not any(a.startswith("play candidate") for a in legal)


def test_fatigue_sets_in_already_exhausted_stays_so():
    g = kennedy_first(61)
    setup(g, exhausted={"kennedy": False, "nixon": True})
    force(g, ("kennedy", "play 61 event"))
    assert g.s["exhausted"] == {"kennedy": False, "nixon": True}


def test_fatigue_sets_in_triggered_exhausts_the_card_players_candidate_card():
    g = nixon_first(61)
    cp_nothing(g, "nixon", 61, trigger=True)
    assert g.s["exhausted"] == {"kennedy": False, "nixon": True}
    g = nixon_first(61)
    force(g, ("nixon", "play 61 event"))
    assert g.s["exhausted"] == {"kennedy": True, "nixon": False}


# --- 83 Whistlestop --------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_whistlestop_seven_cp_at_most_one_in_any_state_travel_paid(edition):
    """"The player may conduct a Campaigning action worth 7 CP, but may spend no more than 1 CP
    on any single state.\""""
    g = kennedy_first(83, edition=edition)
    force(g, ("kennedy", "play 83 event"))
    assert step(g) == "campaigning" and g.top["cp"] == 7
    legal = g.legal_actions("kennedy")
    assert "campaign NY 1" in legal and "campaign NY 2" not in legal and "campaign OH 1" in legal
    for st in ("MA", "CT", "NY", "RI"):
        force(g, ("kennedy", f"campaign {st} 1"))
    assert "campaign MA 1" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "campaign OH 1"))         # 1 CP of travel into the Midwest, 1 in Ohio
    assert g.top["cp"] == 1
    force(g, ("kennedy", "campaign IN 1"))
    assert [g.s["support"][s] for s in ("MA", "CT", "NY", "RI", "OH", "IN")] == [3, 1, 1, 3, 0, 0]
    assert g.s["tokens"]["kennedy"] == "IN"
    assert 83 in g.s["removed"] and g.s["rest"]["kennedy"] == 0
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_whistlestop_support_checks_as_when_campaigning():
    g = kennedy_first(83)
    setup(g, support={"CT": -4})
    force(g, ("kennedy", "play 83 event"), ("kennedy", "campaign CT 1"))
    assert g.active() == [CHANCE]
    draws(g, "kennedy")
    assert g.s["support"]["CT"] == -3
    force(g, ("kennedy", "done"))
    assert step(g) == "activity" and g.active() == ["nixon"]


def test_whistlestop_triggered_the_triggering_player_campaigns():
    g = nixon_first(83)
    cp_nothing(g, "nixon", 83, trigger=True)
    assert g.active() == ["kennedy"] and step(g) == "campaigning" and g.top["cp"] == 7
    force(g, ("kennedy", "campaign NY 1"), ("kennedy", "done"))
    assert g.s["support"]["NY"] == 1 and g.active() == ["kennedy"] and step(g) == "activity"


def test_whistlestop_is_not_a_card_played_for_campaigning():
    """Nixon's Knee makes Nixon pay for cards played for a Campaigning action, not for events."""
    g = kennedy_first(kennedy=[2, 36, 41, 43, 49, 51], nixon=[4, 12, 25, 30, 72, 83])
    force(g, ("kennedy", "play 2 event"), ("nixon", "play 83 event"))
    assert g.s["momentum"]["nixon"] == 2 and g.top["cp"] == 7


# --- 91 Political Capital --------------------------------------------------------------------

def test_political_capital_nixon_draws_two_cards():
    """"Nixon may draw 2 cards from the Campaign deck.\" Ruling: he always does."""
    g = nixon_first(91)
    force(g, ("nixon", "play 91 event"))
    assert g.active() == [CHANCE]
    assert all(a.startswith("deal nixon ") for a in g.legal_actions(CHANCE))
    g.apply(CHANCE, "deal nixon 6")
    g.apply(CHANCE, "deal nixon 7")
    assert g.s["hands"]["nixon"] == [4, 6, 7, 12, 25, 30, 72]
    assert 91 in g.s["removed"] and g.s["rest"]["nixon"] == 2
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert [a for _, a in g.view("kennedy")["log"][-2:]] == ["deal nixon", "deal nixon"]
    notes = " ".join(g.view("kennedy")["notes"])
    assert "New England" not in notes and "Late Returns" not in notes


def test_political_capital_triggered_by_nixon_on_kennedys_card():
    g = kennedy_first(kennedy=[36, 41, 43, 49, 51, 91])
    cp_nothing(g, "kennedy", 91, trigger=True)
    g.apply(CHANCE, "deal nixon 6")
    g.apply(CHANCE, "deal nixon 7")
    assert len(g.s["hands"]["nixon"]) == 8 and g.s["hands"]["kennedy"] == K_FILL
    assert g.s["rest"]["kennedy"] == 2 and g.active() == ["nixon"]


def test_political_capital_preempted_by_kennedy_cannot_be_triggered():
    """Preempting Events: Kennedy pays 2 momentum so that Nixon cannot trigger it; the card is
    discarded and nobody draws."""
    g = kennedy_first(kennedy=[36, 41, 43, 49, 51, 91])
    force(g, ("kennedy", "play 91 campaign preempt"), ("kennedy", "done"))
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 2}
    assert step(g) == "activity" and g.active() == ["nixon"]
    assert g.s["discard"] == [91] and len(g.s["hands"]["nixon"]) == 6


def test_political_capital_reshuffles_an_empty_deck():
    g = nixon_first(91)
    g.s["deck"], g.s["discard"] = [], [6, 7, 90]
    force(g, ("nixon", "play 91 event"))
    assert g.s["deck"] == [6, 7, 90] and g.s["discard"] == []
    g.apply(CHANCE, "deal nixon 90")
    g.apply(CHANCE, "deal nixon 6")
    assert g.s["deck"] == [7]


# --- 94 A Low Blow ---------------------------------------------------------------------------

def test_a_low_blow_when_nixon_leads_two_issues():
    """"If Nixon is leading in two or more issues, Kennedy takes 1 momentum marker and may throw
    away as many cards from his hand as he wishes, drawing that many new cards.\""""
    g = kennedy_first(94)
    setup(g, issues={"defense": -1, "economy": -2, "civil_rights": 1})
    force(g, ("kennedy", "play 94 event"))
    assert g.s["momentum"]["kennedy"] == 3
    assert step(g) == "discard_redraw" and g.active() == ["kennedy"]
    force(g, ("kennedy", "discard 36"))
    g.apply(CHANCE, "deal kennedy 6")
    assert g.s["hands"]["kennedy"] == [6, 41, 43, 49, 51] and g.s["discard"] == [36]
    assert 94 in g.s["removed"] and step(g) == "activity" and g.active() == ["nixon"]


@pytest.mark.parametrize("issues", [(-1, 0, 0), (-3, 1, 0), (0, 2, -2), (1, 1, 1)])
def test_a_low_blow_nothing_unless_nixon_leads_two_issues(issues):
    g = kennedy_first(94)
    setup(g, issues=dict(zip(("defense", "economy", "civil_rights"), issues)))
    force(g, ("kennedy", "play 94 event"))
    assert g.s["momentum"]["kennedy"] == 2
    assert step(g) == "activity" and g.active() == ["nixon"]
    assert g.s["hands"]["kennedy"] == K_FILL


def test_a_low_blow_triggered_by_nixon_still_benefits_kennedy():
    g = nixon_first(nixon=[4, 12, 25, 30, 72, 94])
    setup(g, issues={"defense": -1, "civil_rights": -1})
    cp_nothing(g, "nixon", 94, trigger=True)
    assert g.s["momentum"]["kennedy"] == 2         # 1 spent to trigger, 1 taken
    assert g.active() == ["kennedy"] and step(g) == "discard_redraw"


def test_a_low_blow_is_gmt_only():
    from engine.games.tmotp.setup import deck_for
    assert 94 in deck_for({"edition": "gmt", "vp_cards": False})
    assert 94 not in deck_for({"edition": "zman", "vp_cards": False})


# --- notation ---------------------------------------------------------------------------------

def refusal(g, seat, action) -> str:
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, action)
    return str(err.value)


def test_discard_must_list_held_cards_in_increasing_order():
    g = kennedy_first(53)
    force(g, ("kennedy", "play 53 event"))
    assert "increasing order" in refusal(g, "kennedy", "discard 41 36")
    assert "increasing order" in refusal(g, "kennedy", "discard 36 36")
    assert "do not hold card 53" in refusal(g, "kennedy", "discard 53")
    assert "do not hold card 7" in refusal(g, "kennedy", "discard 36 7")
    assert g.s["hands"]["kennedy"] == K_FILL


def test_taking_a_card_not_offered_is_refused_with_the_reason():
    g = nixon_first(29)
    to_discard(g, 6, 42)
    force(g, ("nixon", "play 29 event"))
    assert "Henry Cabot Lodge only" in refusal(g, "nixon", "take 6")
    assert "not in the discard pile" in refusal(g, "nixon", "take 7")
    g = nixon_first(58)
    to_discard(g, 44, 61)
    g.s["deck"].remove(1)
    g.s["persistent"]["prevention"] = [1]
    force(g, ("nixon", "play 58 event"))
    assert "Puerto Rican Bishops cannot be played now" in refusal(g, "nixon", "take 44")
