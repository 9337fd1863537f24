"""Dial (2nd) edition: two campaign cards as often as wanted. "All candidates turn up their cards
simultaneously with the candidate who played two cards turning up only one of his cards. At this
time a candidate who played only one card may play a second card in hopes of getting first
place ... the candidate with the highest total value for that round wins first place." """
from .helpers import (act, chart, dial, mark, notes, play_round, position, refused,
                      step, tally, turn)


def test_one_card_of_two_is_turned_up_and_the_others_may_answer_with_a_second():
    g = dial(3)
    turn(g, "NY")
    start = mark(g)
    act(g, {"p1": "play 3 12", "p2": "play 13", "p3": "play 5"})
    assert notes(g, start) == [
        "Candidate 1 turns up Newspaper Ads and keeps a second card face down.",
        "Candidate 2 turns up Full Party Backing.",
        "Candidate 3 turns up TV Debates."]
    # the first card named is turned up, the other stays face down
    for seat in ("p2", "p3", None):
        assert g.view(seat)["plays"]["p1"] == {"shown": [3], "face_down": 1, "cards": [3]}
    assert g.view("p1")["plays"]["p1"]["cards"] == [3, 12]
    # the one-card players answer, at once
    assert step(g) == "answer" and g.active() == ["p2", "p3"]
    assert g.legal_actions("p2") == sorted(["second none"] + [f"second {c}" for c in range(1, 13)])
    act(g, {"p2": "second 4", "p3": "second none"})
    assert "Candidate 1 turns up Business Backing: 150 points." in notes(g)
    assert "Candidate 2 turns up Radio Speeches: 170 points." in notes(g)
    # the highest total wins first place: p2 (170), p1 (150), p3 (50); no upset (not everybody
    # laid one card)
    assert g.s["history"][-1]["order"] == ["p2", "p1", "p3"]
    assert g.s["history"][-1]["plays"] == {"p1": [3, 12], "p2": [13, 4], "p3": [5]}
    assert tally(g) == dict(zip(("p2", "p1", "p3"), chart("NY", 3, "regular")))
    assert g.s["discards"] == {"p1": [3, 12], "p2": [13, 4], "p3": [5]}
    assert step(g) == "turn_up"


def test_the_order_of_the_two_cards_says_which_is_turned_up_first():
    g = dial(2)
    turn(g, "NY")
    assert g.apply("p1", "play 12 3") == "play 12 3"
    assert {"play 12 3", "play 3 12"} <= set(g.legal_actions("p2"))
    act(g, {"p2": "play 1"})
    assert g.view("p2")["plays"]["p1"] == {"shown": [12], "face_down": 1, "cards": [12]}


def test_no_answer_step_when_everybody_laid_one_card():
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 1"})
    assert step(g) == "upset"


def test_no_upset_in_a_round_where_somebody_laid_two_cards():
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 1 2", "p2": "play 13"})
    act(g, {"p2": "second none"})
    assert step(g) == "turn_up" and tally(g)["p2"] == chart("NY", 2, "regular")[0]


def test_several_two_card_plays_and_the_answers():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 1 2", "p2": "play 3 4", "p3": "play 6"})
    assert step(g) == "answer" and g.active() == ["p3"]
    act(g, {"p3": "second 2"})
    # 30, 70, 80: p3 first
    assert g.s["history"][-1]["order"] == ["p3", "p2", "p1"]


def test_two_cards_as_often_as_wanted():
    g = dial(2)
    for code, (a, b) in zip(("NY", "CA", "TX"), ((1, 2), (3, 4), (5, 6))):
        play_round(g, [code], {"p1": f"play {a} {b}", "p2": "play 13" if code == "NY" else
                               f"play {a + 6}"})
        act(g, {"p2": "second none"})
    assert g.s["hands"]["p1"] == [7, 8, 9, 10, 11, 12, 13]
    turn(g, "AK")
    assert "play 7 8" in g.legal_actions("p1")


def test_a_candidate_without_a_card_left_is_not_asked_for_a_second():
    g = dial(3)
    position(g, hands={"p3": [5]}, discards={"p3": [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13]})
    play_round(g, ["NY"], {"p1": "play 1 2", "p2": "play 7", "p3": "play 5"})
    assert step(g) == "answer" and g.active() == ["p2"]


def test_nobody_left_to_answer_skips_the_answer_step():
    g = dial(2)
    position(g, hands={"p2": [5]}, discards={"p2": [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13]})
    play_round(g, ["NY"], {"p1": "play 1 2", "p2": "play 5"})
    assert step(g) == "turn_up" and tally(g)["p2"] == chart("NY", 2, "regular")[0]
    # the played-out hand was picked up after the round
    assert g.s["hands"]["p2"] == list(range(1, 14)) and g.s["refills"]["p2"] == 2


def test_two_cards_need_two_cards_in_hand():
    g = dial(2)
    position(g, hands={"p1": [5]}, discards={"p1": [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13]})
    turn(g, "NY")
    assert g.legal_actions("p1") == ["play 5"]
    assert str(refused(g, "p1", "play 5 6").reason) == (
        "You have one card left: you may play only that card; the discards come back when the "
        "hand is empty.")


def test_a_tie_for_first_with_two_cards_returns_every_card():
    g = dial(2, count="electoral")
    play_round(g, ["NY"], {"p1": "play 1 12", "p2": "play 13"})
    act(g, {"p2": "second none"})
    assert g.s["hands"] == {"p1": list(range(1, 14)), "p2": list(range(1, 14))}
    assert "NY" in g.s["deck"]


def test_an_answered_tie_for_first_later_takes_the_close_vote_column():
    g = dial(2)
    position(g, tally={"p1": 100, "p2": 50})
    play_round(g, ["NY"], {"p1": "play 1 12", "p2": "play 9"})
    act(g, {"p2": "second 4"})
    # 130 each: p2 has the lower total
    assert g.s["history"][-1]["order"] == ["p2", "p1"]
    assert tally(g) == {"p1": 100 + chart("NY", 2, "close")[1],
                        "p2": 50 + chart("NY", 2, "close")[0]}
    assert step(g) == "turn_up"
