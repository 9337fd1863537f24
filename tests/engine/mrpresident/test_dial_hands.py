"""Dial (2nd) edition: "As each candidate depletes his hand, he picks up all 13 of his discards and
replays them ... Each candidate replays his hand four times." A candidate who played two cards too
often "will be out of cards before the game ends and will be unable to play a card for votes in
the remaining states". Ruling: a first-place tie between candidates who each laid the one card
they had left is set aside (burying it would repeat for ever)."""
from engine.core import CHANCE

from .helpers import act, chart, dial, mark, notes, play_round, position, step, tally, turn, won

REST_OF = {c: [x for x in range(1, 14) if x != c] for c in range(1, 14)}


def settle(g):
    """Answer whatever the round still asks after the cards are laid: no second card, no upset,
    no stop; a lot drawn in seat order."""
    while g.s["stack"] and step(g) in ("answer", "upset", "stop", "lot"):
        if step(g) == "lot":
            g.apply(CHANCE, g.legal_actions(CHANCE)[0])
        else:
            for seat in list(g.active()):
                g.apply(seat, f"{step(g) if step(g) != 'answer' else 'second'} none")


def test_each_hand_is_played_four_times_in_the_51_rounds():
    """One card a round for 51 rounds: the hand and three pick-ups (52 cards), one card of the
    fourth hand left at the end."""
    g = dial(2)
    assert g.s["refills"] == {"p1": 3, "p2": 3}
    pickups = {"p1": [], "p2": []}
    for r in range(1, 52):
        turn(g, sorted(g.s["deck"])[0])
        start = mark(g)
        act(g, {"p1": f"play {max(g.s['hands']['p1'])}", "p2": f"play {min(g.s['hands']['p2'])}"})
        settle(g)
        for seat, name in (("p1", "Candidate 1"), ("p2", "Candidate 2")):
            if f"{name} picks up the discards and plays the hand again." in notes(g, start):
                pickups[seat].append(r)
    assert pickups == {"p1": [13, 26, 39], "p2": [13, 26, 39]}
    assert g.active() == [] and g.s["deck"] == []
    assert g.s["refills"] == {"p1": 0, "p2": 0}
    assert g.s["hands"] == {"p1": [1], "p2": [13]}
    assert len([h for h in g.s["history"] if not h["void"]]) == 51
    assert g.outcome().winner in ("p1", "p2")


def test_a_played_out_hand_is_picked_up_after_the_round():
    g = dial(2)
    position(g, hands={"p1": [5]}, discards={"p1": REST_OF[5]}, refills={"p1": 1})
    play_round(g, ["NY"], {"p1": "play 5", "p2": "play 13"})
    settle(g)
    assert g.s["hands"]["p1"] == list(range(1, 14)) and g.s["discards"]["p1"] == []
    assert g.s["refills"]["p1"] == 0
    assert "Candidate 1 picks up the discards and plays the hand again." in notes(g)


def test_a_candidate_out_of_cards_cannot_play_and_takes_no_votes():
    g = dial(3)
    position(g, hands={"p1": [5]}, discards={"p1": REST_OF[5]}, refills={"p1": 0}, tally={"p1": 1000})
    play_round(g, ["NY"], {"p1": "play 5", "p2": "play 13", "p3": "play 1"})
    settle(g)
    assert g.s["hands"]["p1"] == [] and len(g.s["discards"]["p1"]) == 13
    assert "Candidate 1 picks up" not in " ".join(notes(g))
    before = tally(g)
    turn(g, "CA")
    assert step(g) == "play" and g.active() == ["p2", "p3"]
    assert g.legal_actions("p1") == []
    act(g, {"p2": "play 1", "p3": "play 12"})
    settle(g)
    # the two who played take the first two places of the three-candidate chart
    regular = chart("CA", 3, "regular")
    assert tally(g) == {"p1": before["p1"], "p2": before["p2"] + regular[1],
                        "p3": before["p3"] + regular[0]}
    assert g.s["history"][-1]["order"] == ["p3", "p2"]


def test_the_election_ends_when_nobody_holds_a_card():
    g = dial(2)
    position(g, hands={"p1": [6], "p2": [5]}, discards={"p1": REST_OF[6], "p2": REST_OF[5]},
             refills={"p1": 0, "p2": 0}, tally={"p1": 500, "p2": 600})
    play_round(g, ["NY"], {"p1": "play 6", "p2": "play 5"})
    assert g.active() == [] and len(g.s["deck"]) == 50
    close = chart("NY", 2, "close")
    assert g.outcome().winner == "p1" and tally(g) == {"p1": 500 + close[0], "p2": 600 + close[1]}


def test_two_cards_too_often_leave_a_candidate_without_cards():
    g = dial(2)
    position(g, hands={"p1": [3, 4]}, discards={"p1": REST_OF[3][:1] + list(range(5, 14))},
             refills={"p1": 0})
    play_round(g, ["NY"], {"p1": "play 3 4", "p2": "play 1"})
    act(g, {"p2": "second none"})
    assert g.s["hands"]["p1"] == [] and g.s["refills"]["p1"] == 0
    turn(g, "CA")
    assert step(g) == "play" and g.active() == ["p2"]


def test_a_tie_with_the_last_cards_is_set_aside():
    g = dial(3, count="electoral")
    position(g, hands={"p1": [9], "p2": [9]}, discards={"p1": REST_OF[9], "p2": REST_OF[9]},
             refills={"p1": 0, "p2": 0})
    start = mark(g)
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9", "p3": "play 5"})
    assert "Candidate 1, Candidate 2 tie for first place with their last card: nobody wins New " \
        "York." in notes(g, start)
    assert "NY" not in g.s["deck"] and won(g) == {"p1": [], "p2": [], "p3": []}
    assert tally(g) == {"p1": 0, "p2": 0, "p3": 0}
    assert g.s["history"][-1]["set_aside"] == ["p1", "p2"] and g.s["history"][-1]["void"] is False
    assert g.s["hands"] == {"p1": [], "p2": [], "p3": REST_OF[5]}
    assert g.s["discards"]["p3"] == [5]
    # the round counts; p3 alone plays on
    turn(g, "CA")
    assert step(g) == "play" and g.active() == ["p3"]


def test_the_first_state_card_tied_with_the_last_cards_is_set_aside_in_the_popular_vote():
    g = dial(2)
    position(g, hands={"p1": [9, 2], "p2": [9]}, discards={"p2": REST_OF[9]}, refills={"p2": 1})
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9"})
    # p1 still holds a card: he could play otherwise, so the card is buried
    assert "NY" in g.s["deck"] and g.s["hands"]["p1"] == [2, 9] and g.s["history"][-1]["void"]
    position(g, hands={"p1": [9]}, discards={"p1": REST_OF[9]}, refills={"p1": 1})
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9"})
    assert "NY" not in g.s["deck"] and g.s["history"][-1]["set_aside"] == ["p1", "p2"]
    assert tally(g) == {"p1": 0, "p2": 0}
    # their discards come back after the round (a pick-up left each)
    assert g.s["hands"] == {"p1": list(range(1, 14)), "p2": list(range(1, 14))}


def test_a_candidate_out_of_cards_changes_neither_the_spread_nor_the_chart_row():
    """Ruling: four candidates in the game, one out of cards: the three who lay are still judged
    by the four-candidate spread (30 points) and the four-candidate row, in its first places."""
    g = dial(4)
    position(g, hands={"p4": []}, discards={"p4": list(range(1, 14))}, refills={"p4": 0})
    play_round(g, ["NY"], {"p1": "play 10", "p2": "play 9", "p3": "play 7"})
    settle(g)
    close = chart("NY", 4, "close")
    assert tally(g) == {"p1": close[0], "p2": close[1], "p3": close[2], "p4": 0}
    assert g.s["history"][-1]["order"] == ["p1", "p2", "p3"]
