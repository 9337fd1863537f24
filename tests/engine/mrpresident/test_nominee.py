"""Chalkboard (1st) edition, the Nominee version (four players): the party conventions on the same
electoral cards at once, each party's two nominees competing; their winners presidential
candidates, the others vice-presidential; then the national election between the parties."""
import pytest

from engine.core import CHANCE, OptionsError

from .helpers import (act, ev, game, lay_all, lot, mark, notes, play_round, position, step,
                      tally, turn, won)

LAST = ["NY", "CA", "PA", "IL", "OH", "TX"]       # 189 votes
SMALL = ["AK", "DE", "NV", "VT", "WY", "DC", "HI", "ID", "ME", "MT", "ND"]      # 38 votes


def nominee(**options):
    return game(players=4, nominee=True, **options)


def conventions(g, republican, democratic):
    """Set the conventions' tallies (at a turn-up)."""
    g.s["contests"]["republican"]["tally"].update(republican)
    g.s["contests"]["democratic"]["tally"].update(democratic)


def nominate(g, republican=("p1", "p2"), democratic=("p3", "p4")):
    """Play the conventions' last round so that the first seat of each pair wins it."""
    position(g, round=12, deck=LAST)
    turn(g, *LAST)
    lay_all(g, {republican[0]: "play 13", republican[1]: "play 1",
                democratic[0]: "play 13", democratic[1]: "play 1"})
    assert g.s["stage"] == "national"


def test_the_nominee_version_is_for_four_players_of_the_chalkboard_edition():
    with pytest.raises(OptionsError):
        game(players=3, nominee=True)
    with pytest.raises(OptionsError):
        game("dial", players=4, nominee=True)


def test_the_parties_by_seats():
    g = nominee()
    assert g.s["stage"] == "convention"
    assert g.s["parties"] == {"republican": ["p1", "p2"], "democratic": ["p3", "p4"]}
    assert {name: c["sides"] for name, c in g.s["contests"].items()} == {
        "republican": {"p1": ["p1"], "p2": ["p2"]}, "democratic": {"p3": ["p3"], "p4": ["p4"]}}
    assert step(g) == "turn_up" and g.top["left"] == 4


def test_the_parties_by_lot():
    g = nominee(parties="lot")
    assert step(g) == "parties_by_lot" and g.active() == [CHANCE]
    assert g.legal_actions(CHANCE) == ["parties p1 p2", "parties p1 p3", "parties p1 p4",
                                       "parties p2 p3", "parties p2 p4", "parties p3 p4"]
    g.apply(CHANCE, "parties p1 p3")
    assert g.s["parties"] == {"republican": ["p1", "p3"], "democratic": ["p2", "p4"]}
    assert notes(g) == [
        "By lot, Candidate 1, Candidate 3 are the nominees of the Republican Party.",
        "By lot, Candidate 2, Candidate 4 are the nominees of the Democratic Party."]
    assert g.s["contests"]["republican"]["sides"] == {"p1": ["p1"], "p3": ["p3"]}
    assert step(g) == "turn_up"


def test_both_conventions_play_the_same_cards_at_once_each_party_apart():
    g = nominee()
    turn(g, "NY", "CA", "TX", "AK")
    assert step(g) == "play" and g.active() == ["p1", "p2", "p3", "p4"]
    # p4's card is the highest of all, p1's beats only his party fellow
    act(g, {"p1": "play 10", "p2": "play 5", "p3": "play 3", "p4": "play 13"})
    assert tally(g, "republican") == {"p1": 111, "p2": 0}
    assert tally(g, "democratic") == {"p3": 0, "p4": 111}
    assert won(g, "republican")["p1"] == won(g, "democratic")["p4"] == ["NY", "CA", "TX", "AK"]
    assert g.s["history"][-1]["winners"] == {"republican": ["p1"], "democratic": ["p4"]}
    # each convention's scorer leads the next round; then the others lay
    turn(g, "PA", "OH", "IL", "FL")
    assert step(g) == "lead" and g.active() == ["p1", "p4"]
    act(g, {"p1": "play 1", "p4": "play 1"})
    assert step(g) == "play" and g.active() == ["p2", "p3"]
    act(g, {"p2": "play 1", "p3": "play 2"})
    assert g.s["contests"]["republican"]["pots"] == [
        {"states": ["PA", "OH", "IL", "FL"], "sides": ["p1", "p2"]}]
    assert tally(g, "democratic") == {"p3": 95, "p4": 111}


def test_the_convention_winners_become_presidential_candidates_the_others_vice():
    g = nominee()
    position(g, round=12, deck=LAST)
    conventions(g, {"p1": 100, "p2": 90}, {"p3": 80, "p4": 120})
    start = mark(g)
    play_round(g, LAST, {"p1": "play 1", "p2": "play 13", "p3": "play 2", "p4": "play 3"})
    assert g.s["nominees"] == {"republican": {"president": "p2", "vice": "p1"},
                               "democratic": {"president": "p4", "vice": "p3"}}
    assert g.s["conventions"] == {"republican": {"tally": {"p1": 100, "p2": 279}},
                                  "democratic": {"tally": {"p3": 80, "p4": 309}}}
    assert notes(g, start)[-2:] == [
        "Republican Party nominates Candidate 2 for President and Candidate 1 for Vice "
        "President.",
        "Democratic Party nominates Candidate 4 for President and Candidate 3 for Vice "
        "President."]
    # the national election: a fresh deal, the parties as the sides
    assert g.s["stage"] == "national" and g.s["election"] == 1
    assert list(g.s["contests"]) == ["national"]
    assert g.s["contests"]["national"]["sides"] == {"republican": ["p2", "p1"],
                                                    "democratic": ["p4", "p3"]}
    assert tally(g) == {"republican": 0, "democratic": 0}
    assert g.s["hands"] == {x: list(range(1, 14)) for x in ("p1", "p2", "p3", "p4")}
    assert len(g.s["deck"]) == 51 and g.s["round"] == 1 and step(g) == "turn_up"
    assert g.view("p3")["nominees"] == g.s["nominees"]


def test_a_tied_convention_is_settled_by_lot():
    g = nominee()
    position(g, round=12, deck=LAST)
    conventions(g, {"p1": 100, "p2": 90}, {"p3": 80, "p4": 80})
    start = mark(g)
    play_round(g, LAST, {"p1": "play 13", "p2": "play 1", "p3": "play 5", "p4": "play 5"})
    # the Democrats' last round tied, so their votes stay 80 to 80
    assert "New York, California, Pennsylvania, Illinois, Ohio, Texas stay tied: nobody wins " \
        "them." in notes(g, start)
    assert step(g) == "lot" and g.legal_actions(CHANCE) == ["lot p3 p4", "lot p4 p3"]
    lot(g, "p4", "p3")
    assert g.s["nominees"]["democratic"] == {"president": "p4", "vice": "p3"}
    assert g.s["nominees"]["republican"] == {"president": "p1", "vice": "p2"}
    assert "The Democratic Party convention is tied; by lot Candidate 4 is its " \
        "candidate." in notes(g)


def test_both_conventions_tied_draw_two_lots_republicans_first():
    g = nominee()
    position(g, round=12, deck=LAST)
    conventions(g, {"p1": 50, "p2": 50}, {"p3": 80, "p4": 80})
    play_round(g, LAST, {"p1": "play 4", "p2": "play 4", "p3": "play 5", "p4": "play 5"})
    lot(g, "p2", "p1")
    assert step(g) == "lot" and g.legal_actions(CHANCE) == ["lot p3 p4", "lot p4 p3"]
    lot(g, "p3", "p4")
    assert g.s["nominees"] == {"republican": {"president": "p2", "vice": "p1"},
                               "democratic": {"president": "p3", "vice": "p4"}}


def test_a_decided_convention_waits_for_the_other():
    g = nominee()
    position(g, round=11, deck=SMALL)
    conventions(g, {"p1": 100, "p2": 70}, {"p3": 50, "p4": 50})
    play_round(g, SMALL[:5], {"p1": "play 13", "p2": "play 1", "p3": "play 9", "p4": "play 2"})
    # 115 to 70 with 23 votes left: the Republicans have their candidate
    assert g.s["contests"]["republican"]["decided"] is True
    assert g.s["contests"]["democratic"]["decided"] is False
    assert "The Republican Party convention is decided." in notes(g)
    turn(g, *SMALL[5:])
    assert step(g) == "lead" and g.active() == ["p3"]       # p1 scored too, but is done
    act(g, {"p3": "play 1"})
    assert step(g) == "play" and g.active() == ["p4"]
    assert g.legal_actions("p1") == [] and g.legal_actions("p2") == []
    act(g, {"p4": "play 3"})
    assert g.s["conventions"] == {"republican": {"tally": {"p1": 115, "p2": 70}},
                                  "democratic": {"tally": {"p3": 65, "p4": 73}}}
    assert ev(*SMALL[5:]) == 23
    assert g.s["nominees"] == {"republican": {"president": "p1", "vice": "p2"},
                               "democratic": {"president": "p4", "vice": "p3"}}


def test_both_conventions_decided_early_start_the_national_election():
    g = nominee()
    position(g, round=11, deck=SMALL)
    conventions(g, {"p1": 100, "p2": 70}, {"p3": 50, "p4": 90})
    play_round(g, SMALL[:5], {"p1": "play 13", "p2": "play 1", "p3": "play 2", "p4": "play 9"})
    assert g.s["stage"] == "national" and len(g.s["deck"]) == 51
    assert g.s["nominees"] == {"republican": {"president": "p1", "vice": "p2"},
                               "democratic": {"president": "p4", "vice": "p3"}}


def test_the_national_election_combines_each_partys_cards():
    g = nominee()
    nominate(g)
    turn(g, "NY", "CA", "TX", "AK")
    # each member lays his own cards, all four at once
    assert step(g) == "play" and g.active() == ["p1", "p2", "p3", "p4"]
    act(g, {"p1": "play 13", "p2": "play 12", "p3": "play 11", "p4": "play 10"})
    # 250 against 210
    assert tally(g) == {"republican": 111, "democratic": 0}
    assert won(g) == {"republican": ["NY", "CA", "TX", "AK"], "democratic": []}
    assert notes(g)[-1] == "Republican Party wins New York, California, Texas, Alaska: " \
        "111 electoral votes."
    # the scoring party leads: both its members lay first
    turn(g, "PA", "OH", "IL", "FL")
    assert step(g) == "lead" and g.active() == ["p1", "p2"]
    act(g, {"p1": "play 1", "p2": "play 2"})
    assert step(g) == "play" and g.active() == ["p3", "p4"]
    act(g, {"p3": "play 1", "p4": "play 2"})
    # 30 to 30: a tie carried between the parties
    assert g.s["contests"]["national"]["pots"] == [
        {"states": ["PA", "OH", "IL", "FL"], "sides": ["republican", "democratic"]}]


def test_two_cards_once_in_the_conventions_and_once_again_in_the_national_election():
    g = nominee()
    turn(g, "NY", "CA", "TX", "AK")
    act(g, {"p1": "play 11 12", "p2": "play 2", "p3": "play 2", "p4": "play 3"})
    assert g.s["doubles"] == {"p1": 0, "p2": 1, "p3": 1, "p4": 1}
    nominate(g)
    assert g.s["doubles"] == {"p1": 1, "p2": 1, "p3": 1, "p4": 1}
    turn(g, "NY", "CA", "TX", "AK")
    # Republicans 130 + 10; Democrats 230 + 10: two cards win it
    act(g, {"p1": "play 13", "p2": "play 1", "p3": "play 11 12", "p4": "play 1"})
    assert g.s["doubles"] == {"p1": 1, "p2": 1, "p3": 0, "p4": 1}
    assert tally(g) == {"republican": 0, "democratic": 111}
    assert "Candidate 3 turns up Labor Backing, Business Backing: 230 points." in notes(g)


def test_the_first_party_to_a_majority_wins_and_the_outcome_names_the_president():
    g = nominee()
    nominate(g, democratic=("p4", "p3"))
    position(g, round=6, tally={"republican": 200, "democratic": 250})
    play_round(g, ["NY", "AK", "DE", "NV"], {"p1": "play 1", "p2": "play 2", "p3": "play 3",
                                             "p4": "play 4"})
    assert tally(g) == {"republican": 200, "democratic": 302}
    assert g.active() == []
    out = g.outcome()
    assert out.winner == "p4"
    assert str(out.reason) == ("Democratic Party wins with 302 electoral votes: Candidate 4 "
                               "is Mr. President, Candidate 3 Vice President.")
    assert out.scores == {"p1": 200, "p2": 200, "p3": 302, "p4": 302}
    assert g.s["result"]["president"] == "p4" and g.s["result"]["vice"] == "p3"
    assert notes(g)[-1] == ("Democratic Party wins the election: Candidate 4 is Mr. "
                            "President and Candidate 3 Vice President.")


def test_a_national_election_without_a_majority_is_replayed_with_the_same_nominees():
    g = nominee()
    nominate(g)
    position(g, round=12, deck=["AK", "DE", "NV", "VT", "WY", "DC"],
             tally={"republican": 260, "democratic": 200})
    play_round(g, ["AK", "DE", "NV", "VT", "WY", "DC"],
               {"p1": "play 1", "p2": "play 2", "p3": "play 3", "p4": "play 4"})
    assert g.s["past"] == [{"election": 1, "tally": {"republican": 260, "democratic": 218},
                            "ev": {"republican": 0, "democratic": 18}}]
    assert g.s["election"] == 2 and g.s["stage"] == "national"
    assert g.s["contests"]["national"]["sides"] == {"republican": ["p1", "p2"],
                                                    "democratic": ["p3", "p4"]}
