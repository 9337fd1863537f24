"""Dial (2nd) edition by popular vote (its standard, with the long game): every place takes its
vote from the Popular Vote Chart; a first-place tie on the first state card buries it; later
first-place ties take the Close Vote Column, the lowest scoreboard total first; close cards (10,
20 or 30 points apart with 2, 3 or 4 candidates) take the Close Vote Column for all; other ties
by lot; the most votes wins."""
from engine.core import CHANCE
from engine.games.mrpresident.data import STATES

from .helpers import (act, chart, dial, lot, mark, no_upset, notes, play_round, position, step,
                      tally, turn, won)


def test_the_standard_is_the_long_game_by_popular_vote():
    g = dial(3)
    assert g.s["options"]["version"] == "long" and g.s["options"]["count"] == "popular"
    assert g.s["refills"] == {"p1": 3, "p2": 3, "p3": 3}
    assert step(g) == "turn_up" and g.top["left"] == 1
    turn(g, "NY")
    assert step(g) == "play" and g.active() == ["p1", "p2", "p3"]     # no lead: all at once


def test_the_popular_vote_chart_is_the_house_rule_of_1964():
    """The regular column: first place the 1964 winner's vote, the rest of the state's total shared
    (n-1):...:1; the Close Vote Column the whole total shared 51/49, 35/33/32, 28/26/24/22; in
    thousands. Every column adds up to the state's total."""
    ny = STATES["NY"]
    assert (ny["total"], ny["johnson"]) == (7166275, 4913102)
    assert ny["popular"][2] == {"regular": [4913, 2253], "close": [3655, 3511]}
    assert ny["popular"][3] == {"regular": [4913, 1502, 751], "close": [2508, 2365, 2293]}
    assert ny["popular"][4]["regular"] == [4913, 1127, 751, 375]
    assert STATES["AL"]["popular"][2]["regular"][0] == 479      # Goldwater carried Alabama
    for state in STATES.values():
        total = round(state["total"] / 1000)
        for n in (2, 3, 4):
            row = state["popular"][n]
            assert sum(row["regular"]) == sum(row["close"]) == total
            assert len(row["regular"]) == len(row["close"]) == n


def test_every_place_takes_its_vote_in_the_regular_column():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 9", "p3": "play 5"})
    assert step(g) == "upset"
    no_upset(g)
    assert tally(g) == {"p1": 4913, "p2": 1502, "p3": 751}
    assert [tally(g)[x] for x in ("p1", "p2", "p3")] == chart("NY", 3, "regular")
    # the first place also takes the state's electoral votes (kept to compare)
    assert g.s["contests"]["national"]["ev"] == {"p1": 43, "p2": 0, "p3": 0}
    assert won(g) == {"p1": ["NY"], "p2": [], "p3": []}
    assert notes(g)[-4:] == ["Candidate 1 places 1: 4913 thousand votes.",
                             "Candidate 2 places 2: 1502 thousand votes.",
                             "Candidate 3 places 3: 751 thousand votes.",
                             "Candidate 1 places first and takes New York: 43 electoral votes."]
    assert g.s["history"][-1]["order"] == ["p1", "p2", "p3"]
    assert g.s["history"][-1]["close"] == [False, False, False]
    assert g.s["discards"] == {"p1": [13], "p2": [9], "p3": [5]}
    assert step(g) == "turn_up" and g.top["left"] == 1


def test_a_first_place_tie_on_the_first_state_card_buries_it():
    g = dial(3)
    start = mark(g)
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 5"})
    assert notes(g, start)[-1] == ("Candidate 1, Candidate 2 tie for first place: New York go "
                                   "back into the deck and the campaign cards go back to the "
                                   "hands.")
    assert "NY" in g.s["deck"] and len(g.s["deck"]) == 51
    assert g.s["hands"] == {x: list(range(1, 14)) for x in ("p1", "p2", "p3")}
    assert g.s["discards"] == {"p1": [], "p2": [], "p3": []}
    assert tally(g) == {"p1": 0, "p2": 0, "p3": 0}
    assert g.s["history"][-1]["void"] is True and g.s["history"][-1]["buried"] == ["p1", "p2"]
    # the round is played again; the buried card may come up again at any turn-up
    assert step(g) == "turn_up" and g.s["round"] == 1 and "turn NY" in g.legal_actions(CHANCE)
    # still nothing scored: a tie buries again
    play_round(g, ["CA"], {"p1": "play 4", "p2": "play 2", "p3": "play 4"})
    assert "CA" in g.s["deck"] and g.s["history"][-1]["buried"] == ["p1", "p3"]
    play_round(g, ["NY"], {"p1": "play 6", "p2": "play 2", "p3": "play 4"})
    no_upset(g)
    assert tally(g) == {"p1": 4913, "p2": 751, "p3": 1502}


def test_later_first_place_ties_take_the_close_vote_column_lowest_scoreboard_first():
    g = dial(3)
    position(g, tally={"p1": 500, "p2": 300, "p3": 100})
    start = mark(g)
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 5"})
    assert "Candidate 1, Candidate 2 tie for first place: the Close Vote Column, the lowest " \
        "total on the scoreboard first." in notes(g, start)
    # p2 has the lower total: first place; p1 second; both in the Close Vote Column; p3, the
    # only one not tied, takes the regular third place (90 and 50: no close spread)
    assert g.s["placing"]["order"] == ["p2", "p1", "p3"]
    assert g.s["placing"]["close"] == [True, True, False]
    no_upset(g)
    close, regular = chart("NY", 3, "close"), chart("NY", 3, "regular")
    assert tally(g) == {"p1": 500 + close[1], "p2": 300 + close[0], "p3": 100 + regular[2]}
    assert "NY" not in g.s["deck"] and won(g)["p2"] == ["NY"]
    assert "Candidate 2 places 1: 2508 thousand votes (Close Vote Column)." in notes(g)


def test_tied_candidates_with_equal_scoreboard_totals_are_placed_by_lot():
    g = dial(3)
    position(g, tally={"p1": 400, "p2": 400, "p3": 100})
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 5"})
    assert step(g) == "lot" and g.legal_actions(CHANCE) == ["lot p1 p2", "lot p2 p1"]
    start = mark(g)
    lot(g, "p2", "p1")
    assert notes(g, start)[:2] == ["By lot: Candidate 2, Candidate 1.",
                                   "The placing: Candidate 2, Candidate 1, Candidate 3."]
    no_upset(g)
    close = chart("NY", 3, "close")
    assert tally(g)["p2"] == 400 + close[0] and tally(g)["p1"] == 400 + close[1]


def test_three_tied_for_first_with_two_equal_totals():
    g = dial(4)
    position(g, tally={"p1": 700, "p2": 200, "p3": 200, "p4": 0})
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 9", "p4": "play 1"})
    # p2 and p3 (200 each) before p1 (700): their order by lot
    assert g.s["placing"]["close"] == [True, True, True, False]
    lot(g, "p3", "p2")
    assert g.s["placing"]["order"] == ["p3", "p2", "p1", "p4"]
    no_upset(g)
    close, regular = chart("NY", 4, "close"), chart("NY", 4, "regular")
    assert tally(g) == {"p1": 700 + close[2], "p2": 200 + close[1], "p3": 200 + close[0],
                        "p4": regular[3]}


def test_ties_for_other_places_are_settled_by_lot():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5", "p3": "play 5"})
    assert step(g) == "lot" and g.legal_actions(CHANCE) == ["lot p2 p3", "lot p3 p2"]
    lot(g, "p3", "p2")
    assert g.s["placing"]["order"] == ["p1", "p3", "p2"]
    no_upset(g)
    assert tally(g) == {"p1": 4913, "p2": 751, "p3": 1502}


def spread_game(players, cards, tallies=None):
    """The cards laid (one each, by seat order) on New York; upsets declined."""
    g = dial(players)
    if tallies:
        position(g, tally=tallies)
    seats = ["p1", "p2", "p3", "p4"][:players]
    play_round(g, ["NY"], {x: f"play {c}" for x, c in zip(seats, cards)})
    if step(g) == "upset":
        no_upset(g)
    return g


def test_two_candidates_10_points_apart_use_the_close_vote_column():
    g = spread_game(2, [8, 7])
    assert tally(g) == {"p1": chart("NY", 2, "close")[0], "p2": chart("NY", 2, "close")[1]}
    assert "The cards are no more than 10 points apart: the Close Vote Column is used." \
        in notes(g)
    g = spread_game(2, [8, 6])
    assert tally(g) == {"p1": chart("NY", 2, "regular")[0], "p2": chart("NY", 2, "regular")[1]}


def test_three_candidates_20_points_apart_use_the_close_vote_column():
    g = spread_game(3, [7, 6, 5])
    assert [tally(g)[x] for x in ("p1", "p2", "p3")] == chart("NY", 3, "close")
    assert g.s["history"][-1]["close"] == [True, True, True]
    g = spread_game(3, [7, 6, 4])
    assert [tally(g)[x] for x in ("p1", "p2", "p3")] == chart("NY", 3, "regular")


def test_four_candidates_30_points_apart_use_the_close_vote_column():
    g = spread_game(4, [10, 9, 8, 7])
    assert [tally(g)[x] for x in ("p1", "p2", "p3", "p4")] == chart("NY", 4, "close")
    g = spread_game(4, [10, 9, 8, 6])
    assert [tally(g)[x] for x in ("p1", "p2", "p3", "p4")] == chart("NY", 4, "regular")


def test_the_spread_is_between_the_highest_and_the_lowest_totals():
    """Two cards count together: 70 + 60 against 120 is 10 points apart."""
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 7 6", "p2": "play 12"})
    act(g, {"p2": "second none"})
    assert tally(g) == {"p1": chart("NY", 2, "close")[0], "p2": chart("NY", 2, "close")[1]}


def test_the_popular_vote_plays_every_card():
    """A lead that cannot be overturned does not end the popular vote early."""
    g = dial(2)
    position(g, deck=["AK", "DC"], tally={"p1": 90000, "p2": 0})
    play_round(g, ["AK"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert step(g) == "turn_up" and g.s["deck"] == ["DC"]
    play_round(g, ["DC"], {"p1": "play 1", "p2": "play 13"})
    # no upset offered: 10 and p1's best card left (120) cannot beat 130
    assert g.active() == []
    out = g.outcome()
    assert out.winner == "p1" and out.scores == {"p1": 90044 + 29, "p2": 23 + 170}
    assert str(out.reason) == "Candidate 1 becomes Mr. President with 90073 thousand popular votes."


def test_equal_popular_votes_go_to_the_most_electoral_votes():
    g = dial(2)
    position(g, deck=["AK"], tally={"p1": 1000, "p2": 1021})
    g.s["contests"]["national"]["ev"].update({"p1": 10, "p2": 20})
    play_round(g, ["AK"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert tally(g) == {"p1": 1044, "p2": 1044}
    assert g.s["contests"]["national"]["ev"] == {"p1": 13, "p2": 20}
    assert g.outcome().winner == "p2"


def test_equal_popular_and_electoral_votes_replay_the_election():
    g = dial(2)
    position(g, deck=["AK"], tally={"p1": 1000, "p2": 1021})
    g.s["contests"]["national"]["ev"].update({"p1": 17, "p2": 20})
    play_round(g, ["AK"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert g.s["past"] == [{"election": 1, "tally": {"p1": 1044, "p2": 1044},
                            "ev": {"p1": 20, "p2": 20}}]
    assert "The popular vote is tied: the election must be replayed." in notes(g)
    assert g.s["election"] == 2 and len(g.s["deck"]) == 51
    # a new election: its first state card buries a tie again
    play_round(g, ["NY"], {"p1": "play 5", "p2": "play 5"})
    assert "NY" in g.s["deck"] and g.s["history"][-1]["void"] is True
