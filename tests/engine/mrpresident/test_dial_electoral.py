"""Dial (2nd) edition by electoral vote: the first place takes the state's electoral votes and the
State Card; a first-place tie buries it (at any time); a majority of 270 wins."""
from engine.core import CHANCE

from .helpers import dial, mark, no_upset, notes, play_round, position, step, tally, won


def electoral(players=2, **options):
    return dial(players, count="electoral", **options)


def test_the_first_place_takes_the_electoral_votes_and_the_state_card():
    g = electoral(3)
    play_round(g, ["NY"], {"p1": "play 5", "p2": "play 13", "p3": "play 9"})
    no_upset(g)
    assert tally(g) == {"p1": 0, "p2": 43, "p3": 0}
    assert won(g) == {"p1": [], "p2": ["NY"], "p3": []}
    assert g.s["history"][-1]["votes"] == {"p2": 43}
    assert notes(g)[-1] == "Candidate 2 places first and takes New York: 43 electoral votes."


def test_the_electoral_vote_has_no_close_vote_column():
    """Cards 10 points apart: the Close Vote Column belongs to the popular vote chart."""
    g = electoral(2)
    start = mark(g)
    play_round(g, ["NY"], {"p1": "play 8", "p2": "play 7"})
    no_upset(g)
    assert tally(g) == {"p1": 43, "p2": 0}
    assert not any("Close Vote Column" in n for n in notes(g, start))
    assert g.s["history"][-1]["close"] == [False, False]


def test_a_first_place_tie_buries_the_state_card_even_after_votes_were_won():
    g = electoral(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 1", "p3": "play 2"})
    no_upset(g)
    hands = {x: list(h) for x, h in g.s["hands"].items()}
    play_round(g, ["CA"], {"p1": "play 9", "p2": "play 9", "p3": "play 12"})
    # p3 is alone first: no tie for first (p1 and p2 tie for second, settled by lot)
    assert step(g) == "lot"
    g.apply(CHANCE, "lot p1 p2")
    no_upset(g)
    assert won(g)["p3"] == ["CA"]
    hands = {x: list(h) for x, h in g.s["hands"].items()}
    play_round(g, ["TX"], {"p1": "play 10", "p2": "play 10", "p3": "play 3"})
    assert "TX" in g.s["deck"] and tally(g) == {"p1": 43, "p2": 0, "p3": 40}
    assert g.s["hands"] == hands
    assert g.s["history"][-1]["buried"] == ["p1", "p2"] and g.s["history"][-1]["void"]
    assert step(g) == "turn_up"


def test_a_majority_of_270_at_the_end_wins():
    g = electoral(2)
    position(g, deck=["AK"], tally={"p1": 268, "p2": 200})
    play_round(g, ["AK"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert g.active() == []
    out = g.outcome()
    assert out.winner == "p1" and out.scores == {"p1": 271, "p2": 200}
    assert str(out.reason) == "Candidate 1 becomes Mr. President with 271 electoral votes."


def test_without_a_majority_the_electoral_vote_is_replayed():
    g = electoral(2)
    position(g, deck=["AK"], tally={"p1": 266, "p2": 200})
    play_round(g, ["AK"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert g.s["past"] == [{"election": 1, "tally": {"p1": 269, "p2": 200},
                            "ev": {"p1": 3, "p2": 0}}]
    assert g.s["election"] == 2 and g.active() == [CHANCE]


def test_the_electoral_vote_is_decided_as_soon_as_a_majority_is_reached():
    g = electoral(2)
    position(g, tally={"p1": 250, "p2": 100})
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert g.active() == [] and len(g.s["deck"]) == 50
    assert g.outcome().winner == "p1" and tally(g) == {"p1": 293, "p2": 100}


def test_the_plurality_option_applies_to_the_dial_electoral_vote():
    g = electoral(3, plurality=True)
    position(g, deck=["AK"], tally={"p1": 200, "p2": 150, "p3": 100})
    play_round(g, ["AK"], {"p1": "play 1", "p2": "play 13", "p3": "play 2"})
    no_upset(g)
    assert tally(g) == {"p1": 200, "p2": 153, "p3": 100}
    assert g.outcome().winner == "p1"
