"""Chalkboard (1st) edition, the long campaign: one electoral card a round, kept by the winner;
hands of 13 picked up again when played out (four times in all); two cards once a game; with one
card left in hand only that card may be played."""
from engine.core import CHANCE

from .helpers import act, ev, game, notes, play_round, position, refused, step, tally, turn, won


def long_game(players=2, **options):
    return game(players=players, version="long", **options)


def test_one_card_a_round_and_the_winner_keeps_it():
    g = long_game()
    assert step(g) == "turn_up" and g.top["left"] == 1
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 1"})
    assert tally(g) == {"p1": 43, "p2": 0}
    assert won(g) == {"p1": ["NY"], "p2": []}
    assert g.view("p2")["contests"]["national"]["won"] == {"p1": ["NY"], "p2": []}
    assert len(g.s["deck"]) == 50 and "NY" not in g.s["deck"]
    assert step(g) == "turn_up" and g.top["left"] == 1
    # the scorer leads, as in the short version
    turn(g, "CA")
    assert step(g) == "lead" and g.active() == ["p1"]
    act(g, {"p1": "play 1", "p2": "play 2"})
    assert won(g) == {"p1": ["NY"], "p2": ["CA"]} and tally(g) == {"p1": 43, "p2": 40}


def test_a_tied_card_is_kept_by_whoever_wins_it_next_round():
    g = long_game()
    play_round(g, ["NY"], {"p1": "play 9", "p2": "play 9"})
    assert g.s["contests"]["national"]["pots"] == [{"states": ["NY"], "sides": ["p1", "p2"]}]
    play_round(g, ["AK"], {"p1": "play 2", "p2": "play 4"})
    assert won(g) == {"p1": [], "p2": ["NY", "AK"]} and tally(g) == {"p1": 0, "p2": 46}


def test_the_hand_is_played_four_times_and_the_whole_deck_in_51_rounds():
    """Both candidates lay their lowest card every round (and two cards in the first round): every
    round ties, so all 51 rounds are played. 52 cards each: the hand and three pick-ups, each
    picked up when the hand is empty."""
    g = long_game()
    assert g.s["refills"] == {"p1": 3, "p2": 3}
    pickups = []
    for r in range(1, 52):
        assert g.top["left"] == 1
        turn(g, sorted(g.s["deck"])[0])
        if r == 51:     # the last round: the last card of the fourth hand
            assert g.s["hands"] == {"p1": [13], "p2": [13]}
            assert g.s["refills"] == {"p1": 0, "p2": 0}
            assert g.legal_actions("p1") == ["play 13"]
        hand = g.s["hands"]["p1"]
        action = "play 1 2" if r == 1 else f"play {min(hand)}"
        before = len(notes(g))
        act(g, {"p1": action, "p2": action})
        if any("picks up the discards" in n for n in notes(g, before)):
            pickups.append(r)
            assert g.s["hands"]["p1"] == g.s["hands"]["p2"] == list(range(1, 14))
            assert g.s["discards"] == {"p1": [], "p2": []}
            assert sorted(notes(g, before)[-2:]) == [
                "Candidate 1 picks up the discards and plays the hand again.",
                "Candidate 2 picks up the discards and plays the hand again."]
    # picked up after rounds 12 (two cards in round 1), 25 and 38; nothing after the 51st
    assert pickups == [12, 25, 38]
    assert sum(n == "Candidate 1 picks up the discards and plays the hand again." for n in
               notes(g)) == 3
    # no card was won: the election is replayed
    assert g.s["past"] == [{"election": 1, "tally": {"p1": 0, "p2": 0}, "ev": {"p1": 0, "p2": 0}}]


def test_a_hand_is_not_picked_up_before_it_is_empty():
    g = long_game()
    position(g, hands={"p1": [4, 7]}, discards={"p1": [1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13]})
    play_round(g, ["NY"], {"p1": "play 7", "p2": "play 1"})
    assert g.s["hands"]["p1"] == [4] and len(g.s["discards"]["p1"]) == 12
    assert g.s["refills"]["p1"] == 3


def test_with_one_card_left_only_that_card_may_be_played():
    """"If he wishes to play two cards but has only one remaining in his hand, a candidate must
    play the one card only - since he may not pick up his discards until his entire hand is
    depleted.\""""
    g = long_game()
    rest = [c for c in range(1, 14) if c != 7]
    position(g, hands={"p1": [7]}, discards={"p1": rest})
    assert g.s["doubles"]["p1"] == 1
    turn(g, "NY")
    assert g.legal_actions("p1") == ["play 7"]
    err = refused(g, "p1", "play 7 9")
    assert str(err.reason) == ("You have one card left: you may play only that card; the "
                               "discards come back when the hand is empty.")
    assert err.legal == ["play 7"]
    act(g, {"p1": "play 7", "p2": "play 1"})
    # played out: the discards come back after the round, and the two cards are still his
    assert g.s["hands"]["p1"] == list(range(1, 14)) and g.s["refills"]["p1"] == 2
    assert g.s["doubles"]["p1"] == 1
    turn(g, "CA")
    assert "play 1 13" in g.legal_actions("p1")


def test_two_cards_only_once_in_the_long_game_too():
    g = long_game()
    play_round(g, ["NY"], {"p1": "play 12 13", "p2": "play 1"})
    assert g.s["doubles"]["p1"] == 0
    # a hand picked up again does not give the two-card play back
    position(g, hands={"p1": [5]}, discards={"p1": [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]})
    play_round(g, ["CA"], {"p1": "play 5", "p2": "play 2"})
    assert len(g.s["hands"]["p1"]) == 11 and g.s["doubles"]["p1"] == 0
    turn(g, "TX")
    assert step(g) == "lead" and g.active() == ["p1"]
    assert g.legal_actions("p1") == sorted(f"play {c}" for c in range(1, 12))
    assert str(refused(g, "p1", "play 1 2").reason).startswith(
        "You have played two cards once already")


def test_the_long_game_ends_when_the_deck_is_played_out():
    g = long_game(plurality=True)
    position(g, deck=["AK"], tally={"p1": 200, "p2": 190})
    play_round(g, ["AK"], {"p1": "play 1", "p2": "play 13"})
    assert g.s["deck"] == [] and g.active() == []
    assert g.outcome().winner == "p1" and tally(g) == {"p1": 200, "p2": 193}
    assert g.legal_actions(CHANCE) == []
    assert ev("AK") == 3
