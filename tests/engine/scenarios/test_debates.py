"""The Debates – Turn 6."""
import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction

from .helpers import EDITIONS, force, reach_debates, setup, step

# Debate cards used below (issue, candidate icon, CP):
#  Defense:   12 (N,3) 19 (both,4) 20 (K,4) 27 (N,3) 50 (N,3) 55 (K,4) 56 (N,4) 57 (K,2) 68 (N,2)
#             5 (both,2)
#  Economy:   13 (both,3) 24 (K,3) 29 (N,3) 43 (K,4) 45 (N,3) 63 (K,4) 64 (both,4) 70 (N,4)
#  Civil R.:  3 (both,3) 4 (N,2) 25 (N,4) 26 (K,2) 31 (K,2) 41 (K,3) 48 (N,3) 81 (K,3) 86 (N,3)


def reveal(g, kennedy=None, nixon=None):
    """One round: each named player commits a card (simultaneous and sealed)."""
    if kennedy is not None:
        g.apply("kennedy", f"debate {kennedy}")
    if nixon is not None:
        g.apply("nixon", f"debate {nixon}")
    return g


def tiles(g):
    return g.s["debate"]["tiles"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("winner", ["kennedy", "nixon"])
def test_debates_start_with_an_initiative_check(edition, winner):
    """"An Initiative Check is made to determine who has the initiative for the duration of the
    Debates.\""""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48], initiative=winner, edition=edition)
    assert g.s["initiative"] == winner
    assert g.active() == ["kennedy", "nixon"] and step(g) == "debate_round"
    assert g.s["debate"]["cards"] == {"kennedy": [20, 24, 41, 43, 55], "nixon": [12, 27, 29, 45, 48]}


def test_issue_tiles_set_by_track_position_with_their_issue_cubes():
    """"the first place issue goes onto the spot labeled “First Place Issue” and so on ... Retain
    any issue support cubes on the issue tiles while moving them.\""""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48],
                      issue_track=["economy", "civil_rights", "defense"])
    assert {i: t["position"] for i, t in tiles(g).items()} == \
        {"economy": 0, "civil_rights": 1, "defense": 2}


def test_card_placed_on_the_side_of_its_candidate_icon():
    """Kennedy's Peace Without Surrender shows only Nixon's icon: "it will be placed to Nixon's
    side.\""""
    g = reach_debates([68, 55, 24, 43, 41], [12, 27, 29, 45, 48])
    reveal(g, kennedy=68, nixon=29)
    assert tiles(g)["defense"]["nixon"] == [68]
    assert tiles(g)["economy"]["nixon"] == [29]
    assert tiles(g)["defense"]["kennedy"] == [] and tiles(g)["economy"]["kennedy"] == []


def test_both_icon_card_side_chosen_by_its_player():
    """"If a card shows icons for both candidates, the player may place it to either side.\""""
    g = reach_debates([20, 55, 24, 43, 41], [13, 27, 29, 45, 48])
    reveal(g, kennedy=20, nixon=13)
    assert g.active() == ["nixon"] and step(g) == "debate_side"
    assert g.legal_actions("nixon") == ["side kennedy", "side nixon"]
    force(g, ("nixon", "side kennedy"))
    assert tiles(g)["economy"]["kennedy"] == [13]
    assert tiles(g)["defense"]["kennedy"] == [20]
    assert step(g) == "debate_round"


@pytest.mark.parametrize("initiative", ["kennedy", "nixon"])
def test_both_players_with_both_icon_cards_initiative_player_decides_who_places_first(initiative):
    """"In the event that both players play such cards, the player with the initiative may decide
    who will place their card first.\""""
    g = reach_debates([5, 55, 24, 43, 41], [3, 27, 29, 45, 48], initiative=initiative)
    reveal(g, kennedy=5, nixon=3)
    assert g.active() == [initiative] and step(g) == "debate_first"
    assert g.legal_actions(initiative) == ["first kennedy", "first nixon"]
    force(g, (initiative, "first nixon"))
    assert g.active() == ["nixon"] and step(g) == "debate_side"
    force(g, ("nixon", "side nixon"))
    assert g.active() == ["kennedy"] and step(g) == "debate_side"
    force(g, ("kennedy", "side nixon"))
    assert tiles(g)["civil_rights"]["nixon"] == [3]
    assert tiles(g)["defense"]["nixon"] == [5]


def test_issue_won_when_two_cards_are_on_one_side_higher_cp_wins():
    """"until two cards have been played to the same side of an issue. At this point, that issue
    has been won by the player having the higher Campaign Point total played to their side.\""""
    g = reach_debates([20, 55, 24, 43, 41], [56, 27, 29, 45, 48])
    reveal(g, kennedy=20, nixon=56)              # 4 v 4 on Defense: one card each, not won
    assert tiles(g)["defense"]["won"] is None and step(g) == "debate_round"
    reveal(g, kennedy=24, nixon=27)              # Nixon's second Defense card: 4 v 7
    assert tiles(g)["defense"]["won"] == "nixon"
    assert step(g) == "debate_award" and g.active() == ["nixon"]
    assert g.top["left"] == 2


@pytest.mark.parametrize("initiative", ["kennedy", "nixon"])
def test_tie_on_cp_goes_to_the_initiative_player(initiative):
    """"If both players have the same total, the player with the initiative wins that issue.\""""
    g = reach_debates([20, 57, 24, 43, 41], [56, 68, 29, 45, 48], initiative=initiative)
    reveal(g, kennedy=20, nixon=56)              # Defense 4 v 4
    reveal(g, kennedy=24, nixon=29)              # Economy 3 v 3, one card each
    reveal(g, kennedy=41, nixon=48)              # Civil Rights 3 v 3, one card each
    assert all(t["won"] is None for t in tiles(g).values())
    reveal(g, kennedy=43, nixon=45)              # Economy: Kennedy 3 + 4 = 7 v 3 + 3 = 6
    assert tiles(g)["economy"]["won"] == "kennedy"
    force(g, ("kennedy", "support NY 2"))
    reveal(g, kennedy=57, nixon=68)              # Defense: Kennedy 4 + 2 = 6 v Nixon 4 + 2 = 6
    assert tiles(g)["defense"]["won"] == initiative
    assert g.active() == [initiative] and g.top["left"] == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_debate_awards_two_three_four_state_support_without_support_checks(edition):
    """"First issue awarded: 2 ... Second: 3 ... Last: 4 ... No Support Checks are required for
    these cubes, even in states carried or currently occupied by the opposing player.\""""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48], edition=edition)
    setup(g, support={"NY": 5, "IL": 0}, tokens={"kennedy": "NY"})
    reveal(g, kennedy=24, nixon=12)
    reveal(g, kennedy=41, nixon=27)              # Defense: Nixon 6 v 0
    assert g.top["left"] == 2
    force(g, ("nixon", "support NY 2"))
    assert g.s["support"]["NY"] == 3 and step(g) == "debate_round"
    reveal(g, kennedy=43, nixon=29)              # Economy: Kennedy 3 + 4 = 7 v 3
    assert g.active() == ["kennedy"] and g.top["left"] == 3
    force(g, ("kennedy", "support IL 1"), ("kennedy", "support CA 2"))
    assert g.s["support"]["IL"] == 1
    reveal(g, kennedy=20, nixon=48)              # Defense already won: Kennedy's card discarded
    reveal(g, kennedy=55, nixon=45)              # Economy already won: both discarded
    # cards have run out; Civil Rights: Kennedy 3 (41) v Nixon 3 (48) -> initiative (Kennedy)
    assert g.active() == ["kennedy"] and g.top["left"] == 4
    force(g, ("kennedy", "support NY 4"))
    assert g.s["support"]["NY"] == 7


def test_won_issue_tile_goes_to_the_lowest_unoccupied_track_position():
    """"The moment an issue is won, that issue tile is immediately returned to the lowest
    unoccupied position on the Issues Track.\" The first-place issue, won first, goes third."""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48])
    assert g.s["issue_track"] == [None, None, None]
    reveal(g, kennedy=20, nixon=29)
    reveal(g, kennedy=55, nixon=48)              # Defense (first place) won by Kennedy
    assert g.s["issue_track"] == [None, None, "defense"]
    force(g, ("kennedy", "support NY 2"))
    reveal(g, kennedy=41, nixon=45)              # Economy (second place) won by Nixon
    assert g.s["issue_track"] == [None, "economy", "defense"]


def test_simultaneous_wins_resolved_lowest_original_position_first():
    """"In the event that two issues are won simultaneously, they are resolved in ascending
    order, with the issue in lowest original from the Issues Track being resolved first.\""""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48])
    reveal(g, kennedy=20, nixon=29)
    reveal(g, kennedy=55, nixon=45)
    # Economy (2nd place) is resolved before Defense (1st place): Nixon's award comes first
    assert g.active() == ["nixon"] and g.top["issue"] == "economy" and g.top["left"] == 2
    assert g.s["issue_track"] == [None, None, "economy"]
    force(g, ("nixon", "support CA 2"))
    assert g.active() == ["kennedy"] and g.top["issue"] == "defense" and g.top["left"] == 3
    force(g, ("kennedy", "support NY 3"))
    assert g.s["issue_track"] == [None, "defense", "economy"]
    assert step(g) == "debate_round"


def test_card_for_an_already_won_issue_is_discarded():
    """"If a player plays a card associated with an issue which has already been won, that card
    is instead discarded.\""""
    g = reach_debates([20, 55, 57, 43, 41], [12, 27, 29, 45, 48])
    reveal(g, kennedy=20, nixon=29)
    reveal(g, kennedy=55, nixon=48)
    force(g, ("kennedy", "support NY 2"))
    discard = list(g.s["discard"])
    reveal(g, kennedy=57, nixon=45)
    assert 57 in g.s["discard"] and 57 not in discard
    assert 57 not in tiles(g)["defense"]["kennedy"]
    assert tiles(g)["economy"]["nixon"] == [29, 45]     # Economy now won by Nixon
    assert tiles(g)["economy"]["won"] == "nixon"


def test_debates_end_when_cards_run_out_leftover_issues_resolved_by_cp():
    """"This process is repeated until all three issues have been won, or until both players have
    played all five of their cards ... any issues that have not yet been won are resolved in
    ascending order ... won by the player with the higher Campaign Point total.\""""
    g = reach_debates([20, 55, 43, 41, 57], [12, 27, 29, 25, 50], initiative="nixon")
    reveal(g, kennedy=20, nixon=12)
    reveal(g, kennedy=55, nixon=27)              # Defense: Kennedy 8 v 6
    force(g, ("kennedy", "support NY 2"))
    reveal(g, kennedy=43, nixon=29)              # Economy 4 v 3
    reveal(g, kennedy=41, nixon=25)              # Civil Rights 3 v 4
    reveal(g, kennedy=57, nixon=50)              # both Defense: discarded
    # Civil Rights (3rd place) is resolved before Economy (2nd place)
    assert g.active() == ["nixon"] and g.top["issue"] == "civil_rights" and g.top["left"] == 3
    force(g, ("nixon", "support CA 3"))
    assert g.active() == ["kennedy"] and g.top["issue"] == "economy" and g.top["left"] == 4
    force(g, ("kennedy", "support NY 4"))
    assert g.s["issue_track"] == ["economy", "civil_rights", "defense"]
    assert g.s["turn"] == 7 and g.s["debate"] is None


def test_debates_end_as_soon_as_all_three_issues_are_won_and_unplayed_cards_are_discarded():
    """"This process is repeated until all three issues have been won ... At the end of the
    Debates, all Campaign Strategy cards for both players, whether played or unplayed, are
    discarded.\""""
    g = reach_debates([20, 55, 41, 81, 57], [29, 45, 25, 48, 12])
    reveal(g, kennedy=20, nixon=29)
    reveal(g, kennedy=55, nixon=45)              # Defense to Kennedy, Economy to Nixon
    force(g, ("nixon", "support CA 2"), ("kennedy", "support NY 3"))
    reveal(g, kennedy=41, nixon=25)
    reveal(g, kennedy=81, nixon=48)              # Civil Rights: Kennedy 6 v Nixon 7
    assert g.active() == ["nixon"] and g.top["left"] == 4
    force(g, ("nixon", "support CA 4"))
    # one card each was never played: the Debates are over all the same
    assert g.s["turn"] == 7 and g.s["debate"] is None
    assert {57, 12} <= set(g.s["discard"])
    assert {20, 55, 41, 81, 29, 45, 25, 48} <= set(g.s["discard"])
    assert g.s["strategy"] == {"kennedy": [], "nixon": []}


def test_debate_events_discarded_after_the_debates():
    """Debate Events: "After the Debates are over, those cards may be discarded.\""""
    g = reach_debates([20, 55, 41, 81, 57], [29, 45, 25, 48, 12], persistent_debate=[35, 34])
    for k, n in ((20, 29), (55, 45)):
        g.apply("nixon", f"debate {n}")
        g.apply("kennedy", f"debate {k}")
    force(g, ("nixon", "support CA 2"), ("kennedy", "support NY 3"))
    for k, n in ((41, 25), (81, 48)):
        g.apply("nixon", f"debate {n}")
        g.apply("kennedy", f"debate {k}")
    # Civil Rights: Kennedy 3 + 3 + 1 = 7 v Nixon 4 + 3 = 7: Kennedy has the initiative
    force(g, ("kennedy", "support NY 4"))
    assert g.s["turn"] == 7
    assert g.s["persistent"]["debate"] == []
    assert {34, 35} <= set(g.s["discard"])


@pytest.mark.parametrize("with_hbt,winner", [(True, "kennedy"), (False, "nixon")])
def test_harvard_brain_trust_adds_one_to_kennedy_on_each_issue(with_hbt, winner):
    """Harvard Brain Trust: "During the Debates, Kennedy adds 1 to his CP total on each issue.\"
    Civil Rights 2 + 2 (+1) for Kennedy v 2 + 3 for Nixon; Kennedy has the initiative."""
    g = reach_debates([26, 31, 24, 43, 20], [4, 48, 29, 45, 12], initiative="kennedy",
                      persistent_debate=[35] if with_hbt else [])
    reveal(g, kennedy=26, nixon=4)
    reveal(g, kennedy=31, nixon=48)
    assert tiles(g)["civil_rights"]["won"] == winner


def test_lazy_shave_nixon_reveals_first_then_kennedy_chooses():
    """Lazy Shave: "In every round of the Debates, Nixon has to reveal his card before Kennedy
    picks the card he will play.\""""
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48], persistent_debate=[34])
    assert g.active() == ["nixon"]
    assert g.legal_actions("kennedy") == []
    with pytest.raises(IllegalAction):
        g.apply("kennedy", "debate 20")
    g.apply("nixon", "debate 12")
    assert g.active() == ["kennedy"]
    assert g.view("kennedy")["debate"]["revealed"] == {"nixon": 12}
    assert "Southern Strategy" in g.prompt("kennedy")
    g.apply("kennedy", "debate 20")
    assert tiles(g)["defense"] == {"position": 0, "kennedy": [20], "nixon": [12], "won": None}
    assert g.active() == ["nixon"]                     # the next round: Nixon first again


def test_without_lazy_shave_choices_are_simultaneous_and_sealed():
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48])
    assert g.active() == ["kennedy", "nixon"]
    g.apply("kennedy", "debate 20")
    assert g.active() == ["nixon"]
    view = g.view("nixon")
    assert view["debate"]["revealed"] == {}
    assert view["log"][-1] == ["kennedy", "debate (sealed)"]
    g.apply("nixon", "debate 12")
    assert tiles(g)["defense"]["kennedy"] == [20]


def test_rulebook_sample_debates():
    """The sample Debates of the GMT manual (Kennedy has the initiative and Harvard Brain Trust;
    the Issues Track reads Defense, Civil Rights, Economy)."""
    g = reach_debates([63, 68, 81, 31, 57], [56, 13, 86, 48, 12], initiative="kennedy",
                      persistent_debate=[35], issue_track=["defense", "civil_rights", "economy"])
    setup(g, support={"CA": -3, "IN": -3})
    # Round 1: Opposition Research (Defense, Nixon) v Give Me A Week (Economy, Kennedy)
    reveal(g, kennedy=63, nixon=56)
    # Round 2: Peace Without Surrender goes to Nixon's side; Nikita Kruschev to Kennedy's side
    reveal(g, kennedy=68, nixon=13)
    force(g, ("nixon", "side kennedy"))
    # Economy (lower position) first: Kennedy wins, 2 cubes in California (3 -> 1 Nixon)
    assert g.active() == ["kennedy"] and g.top["issue"] == "economy" and g.top["left"] == 2
    assert g.s["issue_track"] == [None, None, "economy"]
    force(g, ("kennedy", "support CA 2"))
    assert g.s["support"]["CA"] == -1
    # Defense: Nixon, 3 cubes: one in Indiana (carried at 4), two in California (back to 3)
    assert g.active() == ["nixon"] and g.top["issue"] == "defense" and g.top["left"] == 3
    force(g, ("nixon", "support IN 1"), ("nixon", "support CA 2"))
    assert g.s["support"]["IN"] == -4 and g.s["support"]["CA"] == -3
    assert g.s["issue_track"] == [None, "defense", "economy"]
    # Rounds 3 and 4: Civil Rights 3 + 2 + 1 (Harvard Brain Trust) = 6 v 3 + 3 = 6: initiative
    reveal(g, kennedy=81, nixon=86)
    reveal(g, kennedy=31, nixon=48)
    assert g.active() == ["kennedy"] and g.top["issue"] == "civil_rights" and g.top["left"] == 4
    force(g, ("kennedy", "support CA 4"))
    assert g.s["support"]["CA"] == 1
    assert g.s["issue_track"] == ["civil_rights", "defense", "economy"]
    assert g.s["turn"] == 7 and g.active() == [CHANCE]
    assert {57, 12, 35} <= set(g.s["discard"])
