"""Dial (2nd) edition, the upset vote: "During a round in which each player has played only one
card, a candidate may attempt an upset vote after all cards have been turned up ... The first
place winner for that round has the option of also playing another card to stop the upset ... If
the upsetting player has the higher total, the upset is accomplished and the candidate who
originally had placed fourth in that round now places first, the candidate previously placing
third now places second, etc." """
from .helpers import (act, chart, dial, mark, no_upset, notes, play_round, position, step,
                      tally, won)


def test_an_upset_stopped_by_an_equal_total_fails():
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
    assert step(g) == "upset" and g.active() == ["p2"]
    assert g.legal_actions("p2") == sorted(["upset none"] + [f"upset {c}" for c in range(1, 14)
                                                            if c != 5])
    assert g.legal_actions("p1") == []
    start = mark(g)
    act(g, {"p2": "upset 12"})
    # the upset card lies face down while first place decides
    assert notes(g, start) == ["Candidate 2 attempts an upset with another card face down."]
    assert g.view("p1")["plays"]["p2"] == {"shown": [5], "face_down": 1, "cards": [5]}
    assert g.view("p1")["log"][-1] == [None, "(sealed)"]
    assert step(g) == "stop" and g.active() == ["p1"]
    assert "stop none" in g.legal_actions("p1") and "stop 4" in g.legal_actions("p1")
    act(g, {"p1": "stop 4"})
    assert notes(g, start)[1:5] == [
        "Candidate 1 lays another card face down to stop the upset.",
        "Candidate 2 turns up Business Backing: 170 points.",
        "Candidate 1 turns up Radio Speeches: 170 points.",
        "The upset fails (170 to 170)."]
    assert tally(g) == {"p1": chart("NY", 2, "regular")[0], "p2": chart("NY", 2, "regular")[1]}
    assert g.s["history"][-1]["plays"] == {"p1": [13, 4], "p2": [5, 12]}
    assert g.s["discards"] == {"p1": [13, 4], "p2": [5, 12]}


def test_a_successful_upset_reverses_the_placing():
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
    act(g, {"p2": "upset 12", "p1": "stop none"})
    assert "The upset succeeds (170 to 130): the placing is reversed." in notes(g)
    assert g.s["history"][-1]["order"] == ["p2", "p1"]
    assert tally(g) == {"p2": chart("NY", 2, "regular")[0], "p1": chart("NY", 2, "regular")[1]}
    assert won(g) == {"p1": [], "p2": ["NY"]}


def test_a_stopping_card_that_keeps_first_place_ahead():
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 10", "p2": "play 5"})
    act(g, {"p2": "upset 13", "p1": "stop 9"})
    assert "The upset fails (180 to 190)." in notes(g)
    assert won(g) == {"p1": ["NY"], "p2": []}


def test_the_whole_placing_is_reversed_and_each_place_keeps_its_column():
    """Three candidates: p2 and p1 tie for first (the Close Vote Column, p2 the lower total);
    p3, third, upsets: he places first in the first place's column, p2 last in the regular."""
    g = dial(3)
    position(g, tally={"p1": 500, "p2": 300, "p3": 100})
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 5"})
    assert g.s["placing"]["order"] == ["p2", "p1", "p3"]
    assert step(g) == "upset" and g.active() == ["p1", "p3"]
    act(g, {"p1": "upset none", "p3": "upset 13", "p2": "stop none"})
    assert g.s["history"][-1]["order"] == ["p3", "p1", "p2"]
    assert g.s["history"][-1]["close"] == [True, True, False]
    close, regular = chart("NY", 3, "close"), chart("NY", 3, "regular")
    assert tally(g) == {"p3": 100 + close[0], "p1": 500 + close[1], "p2": 300 + regular[2]}


def test_several_attempts_the_best_placed_makes_it_and_the_others_are_returned_unseen():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 9", "p3": "play 5"})
    assert step(g) == "upset" and g.active() == ["p2", "p3"]
    act(g, {"p2": "upset 12", "p3": "upset 11"})
    withdrawn = len(g.s["log"]) - 1
    assert g.s["log"][withdrawn] == ["p3", "upset 11"]
    assert "Candidate 2 attempts an upset with another card face down." in notes(g)
    assert 11 in g.s["hands"]["p3"] and "p3" in g.s["plays"] and g.s["plays"]["p3"]["cards"] == [5]
    act(g, {"p1": "stop none"})
    # 210 to 130: reversed, so p3, last, places first and p1 last
    assert g.s["history"][-1]["order"] == ["p3", "p2", "p1"]
    assert g.s["history"][-1]["plays"] == {"p1": [13], "p2": [9, 12], "p3": [5]}
    assert 11 in g.s["hands"]["p3"] and g.s["discards"]["p3"] == [5]
    # after the round the other entries are seen, but p3's attempt stays sealed for the others
    for seat in ("p1", "p2", None):
        log = g.view(seat)["log"]
        assert log[withdrawn] == [None, "(sealed)"]
        assert log[withdrawn - 1] == ["p2", "upset 12"]
    assert g.view("p3")["log"][withdrawn] == ["p3", "upset 11"]
    assert not any("Labor Backing" in n for n in notes(g))     # card 11 never named


def test_no_upset_offered_to_those_who_cannot_beat_first_place():
    g = dial(3)
    position(g, hands={"p3": [1, 2, 5]}, discards={"p3": [3, 4, 6, 7, 8, 9, 10, 11, 12, 13]})
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 9", "p3": "play 5"})
    # p3: 50 + at most 20 against 130
    assert step(g) == "upset" and g.active() == ["p2"]


def test_no_upset_step_when_nobody_can_beat_first_place():
    g = dial(2)
    position(g, hands={"p2": [1, 12]}, discards={"p2": list(range(2, 12)) + [13]})
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 12"})
    # 120 + 10 does not beat 130
    assert step(g) == "turn_up" and tally(g)["p1"] == chart("NY", 2, "close")[0]


def test_first_place_without_a_card_cannot_stop_the_upset():
    g = dial(2)
    position(g, hands={"p1": [13]}, discards={"p1": list(range(1, 13))})
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
    act(g, {"p2": "upset 9"})
    assert step(g) == "turn_up"
    assert "The upset succeeds (140 to 130): the placing is reversed." in notes(g)
    assert won(g) == {"p1": [], "p2": ["NY"]}


def test_an_upset_in_the_electoral_vote_takes_the_state():
    g = dial(2, count="electoral")
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
    act(g, {"p2": "upset 12", "p1": "stop none"})
    assert tally(g) == {"p1": 0, "p2": 43} and won(g) == {"p1": [], "p2": ["NY"]}


def test_ties_are_settled_before_the_upset():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5", "p3": "play 5"})
    assert step(g) == "lot"
    g.apply("chance", "lot p3 p2")
    assert step(g) == "upset" and g.s["placing"]["order"] == ["p1", "p3", "p2"]
    no_upset(g)
    assert tally(g) == dict(zip(("p1", "p3", "p2"), chart("NY", 3, "regular")))
