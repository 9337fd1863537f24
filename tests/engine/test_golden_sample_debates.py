"""Golden test: the GMT manual's sample Debates (turn 6), with the described reveals.

The position before the Debates is the one the sample implies: Issues Track Defense, Civil Rights,
Economy (after turn 1's shift); Harvard Brain Trust in play; Nixon with 3 support in California
and 3 in Indiana. The sample names four cards of each player's five; the fifth (never played)
is Catholic Support for Kennedy and The Cold War for Nixon.
"""
from engine.games.tmotp.data import CARDS

from .golden_helpers import act, draws, game, jump_to_next_turn, resume, support

OPPOSITION_RESEARCH, NIKITA, HERB_KLEIN, RISING_FOOD, COLD_WAR = 56, 13, 86, 48, 47
GIVE_ME_A_WEEK, PEACE_WITHOUT_SURRENDER, PEACE_CORPS, PROFILES, CATHOLIC = 63, 68, 81, 31, 43
HARVARD = 35


def debates():
    g = game("gmt")
    jump_to_next_turn(g, 5)
    g.s["issue_track"] = ["defense", "civil_rights", "economy"]
    g.s["persistent"]["debate"] = [HARVARD]
    g.s["support"]["CA"] = -3
    g.s["support"]["IN"] = -3
    g.s["strategy"] = {"kennedy": [GIVE_ME_A_WEEK, PEACE_WITHOUT_SURRENDER, PEACE_CORPS, PROFILES, CATHOLIC],
                       "nixon": [OPPOSITION_RESEARCH, NIKITA, HERB_KLEIN, RISING_FOOD, COLD_WAR]}
    resume(g)
    assert g.s["turn"] == 6
    draws(g, "k", "k")            # both blue: Kennedy has the initiative, no third draw
    assert g.s["initiative"] == "kennedy"
    return g


def test_set_the_stage():
    g = debates()
    tiles = g.s["debate"]["tiles"]
    # "from lowest to highest position: Economy, Civil Rights, and Defense"
    assert [tiles[i]["position"] for i in ("economy", "civil_rights", "defense")] == [2, 1, 0]
    assert g.s["issue_track"] == [None, None, None]
    assert g.s["strategy"] == {"kennedy": [], "nixon": []}


def round1(g):
    act(g, "nixon", f"debate {OPPOSITION_RESEARCH}")
    act(g, "kennedy", f"debate {GIVE_ME_A_WEEK}")


def round2(g):
    act(g, "kennedy", f"debate {PEACE_WITHOUT_SURRENDER}")
    act(g, "nixon", f"debate {NIKITA}")
    act(g, "nixon", "side kennedy")        # both icons: Nixon puts it on Kennedy's side


def test_round_one_cards_go_to_their_sides():
    g = debates()
    round1(g)
    tiles = g.s["debate"]["tiles"]
    assert tiles["defense"]["nixon"] == [OPPOSITION_RESEARCH]
    assert tiles["economy"]["kennedy"] == [GIVE_ME_A_WEEK]


def test_round_two_two_issues_won_lowest_first():
    g = debates()
    round1(g)
    round2(g)
    # Economy (lower) is resolved first: Kennedy wins by default and places 2 in California.
    assert g.s["debate"]["tiles"]["economy"]["won"] == "kennedy"
    assert g.s["issue_track"] == [None, None, "economy"]
    assert g.active() == ["kennedy"]
    act(g, "kennedy", "support CA 2")
    assert support(g, "CA") == ("nixon", 1)
    # Then Defense: Nixon places 3: one in Indiana (now carried), two in California.
    assert g.s["debate"]["tiles"]["defense"]["won"] == "nixon"
    assert g.s["issue_track"] == [None, "defense", "economy"]
    act(g, "nixon", "support IN 1", "support CA 2")
    assert support(g, "IN") == ("nixon", 4)
    assert support(g, "CA") == ("nixon", 3)
    for card in (OPPOSITION_RESEARCH, PEACE_WITHOUT_SURRENDER, GIVE_ME_A_WEEK, NIKITA):
        assert card in g.s["discard"]


def test_civil_rights_tie_goes_to_initiative_with_harvard_brain_trust():
    g = debates()
    round1(g)
    round2(g)
    act(g, "kennedy", "support CA 2")
    act(g, "nixon", "support IN 1", "support CA 2")
    act(g, "nixon", f"debate {HERB_KLEIN}")
    act(g, "kennedy", f"debate {PEACE_CORPS}")
    act(g, "nixon", f"debate {RISING_FOOD}")
    act(g, "kennedy", f"debate {PROFILES}")
    # 5 CP + 1 (Harvard Brain Trust) for Kennedy, 6 for Nixon: a tie, won by the initiative.
    assert g.s["debate"]["tiles"]["civil_rights"]["won"] == "kennedy"
    act(g, "kennedy", "support CA 4")
    assert support(g, "CA") == ("kennedy", 1)
    assert g.s["issue_track"] == ["civil_rights", "defense", "economy"]
    # The Debates are over: unplayed cards and the Debate event are discarded; turn 7 begins.
    assert g.s["debate"] is None
    assert g.s["turn"] == 7
    for card in (CATHOLIC, COLD_WAR, HARVARD, HERB_KLEIN, PROFILES):
        assert card in g.s["discard"]
    assert g.s["persistent"]["debate"] == []


def test_the_view_gives_the_debate_board_as_the_sample_reads_it():
    """The seats' views carry each side's CP (Harvard Brain Trust's +1 for Kennedy), the cubes
    each won issue placed and the next award: the page's Debate Board reads them, never the
    rules (server/games/tmotp/board.py::debate_board)."""
    g = debates()
    round1(g)
    round2(g)
    act(g, "kennedy", "support CA 2")
    act(g, "nixon", "support IN 1", "support CA 2")
    act(g, "nixon", f"debate {HERB_KLEIN}")
    act(g, "kennedy", f"debate {PEACE_CORPS}")
    act(g, "nixon", f"debate {RISING_FOOD}")
    for seat in ("kennedy", "nixon", None):
        board = g.view(seat)["debate"]
        assert board["awards"] == {"economy": 2, "defense": 3, "civil_rights": None}
        assert board["next_award"] == 4
        tiles = board["tiles"]
        for issue, tile in tiles.items():
            assert board["totals"][issue] == {
                "kennedy": sum(CARDS[c]["cp"] for c in tile["kennedy"]) + 1,  # Harvard
                "nixon": sum(CARDS[c]["cp"] for c in tile["nixon"])}
        assert tiles["economy"]["nixon"] == [] and board["totals"]["economy"]["nixon"] == 0
