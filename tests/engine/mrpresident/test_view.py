"""What a seat may see, in both editions: its own hand only; face-down cards as a count; how many
have committed in a sealed step, never who; the round's log entries sealed to the other seats
until the round is over (and a withdrawn upset attempt for ever). Two games that differ only in
what a seat cannot see give that seat (and the spectators) the same view."""
import json

import pytest

from .helpers import act, dial, game, play_round, step, turn

EDITIONS = ("chalkboard", "dial")


def same(a, b, seats):
    for seat in seats:
        assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat),
                                                                      sort_keys=True), seat


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seat_sees_its_own_hand_and_the_others_counts(edition):
    g = game(edition, players=3)
    play_round(g, ["NY"] if edition == "dial" else ["NY", "CA", "TX", "AK"],
               {"p1": "play 13", "p2": "play 1 2", "p3": "play 5"})
    if step(g) == "answer":
        act(g, {"p1": "second none", "p3": "second none"})
    v = g.view("p2")
    assert v["hands"] == {"p2": list(range(3, 14))} and v["discards"] == {"p2": [1, 2]}
    assert v["hand_sizes"] == {"p1": 12, "p2": 11, "p3": 12}
    assert v["discard_counts"] == {"p1": 1, "p2": 2, "p3": 1}
    spectator = g.view(None)
    assert spectator["hands"] == {} and spectator["discards"] == {}
    assert spectator["legal_actions"] == [] and spectator["my_commitment"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_committed_is_a_count_never_which_seat(edition):
    """p1 committed in one game, p3 in the other: p2 and the spectators see the same."""
    a, b = game(edition, players=3), game(edition, players=3)
    codes = ["NY"] if edition == "dial" else ["NY", "CA", "TX", "AK"]
    turn(a, *codes)
    turn(b, *codes)
    a.apply("p1", "play 5")
    b.apply("p3", "play 9")
    v = a.view("p2")
    assert v["committed"] == 1 and v["deciding"] == 3 and v["active"] == ["p1", "p2", "p3"]
    assert v["log"][-1] == [None, "(sealed)"]
    same(a, b, ("p2", None))
    assert a.view("p1")["my_commitment"] == "play 5" and a.view("p1")["log"][-1] == ["p1",
                                                                                    "play 5"]
    assert b.view("p1")["my_commitment"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_rounds_log_entries_are_sealed_until_the_round_is_over(edition):
    g = game(edition, players=2)
    codes = ["NY"] if edition == "dial" else ["NY", "CA", "TX", "AK"]
    turn(g, *codes)
    g.apply("p1", "play 13")
    n = len(g.s["log"])
    assert g.view("p2")["log"][n - 1] == [None, "(sealed)"]
    assert g.view(None)["log"][n - 1] == [None, "(sealed)"]
    assert g.view("p2")["log"][n - 2] == ["chance", f"turn {codes[-1]}"]
    g.apply("p2", "play 1")
    if step(g) == "upset":
        # still the same round: both plays sealed to the other
        assert g.view("p2")["log"][n - 1] == [None, "(sealed)"]
        assert g.view("p1")["log"][n] == [None, "(sealed)"]
        act(g, {"p2": "upset none"})
    assert step(g) == "turn_up"
    for seat in ("p1", "p2", None):
        assert g.view(seat)["log"][n - 1:n + 1] == [["p1", "play 13"], ["p2", "play 1"]]


def test_the_scorers_face_down_cards_are_a_count():
    """Chalkboard: the scorer led with 4 and 11 in one game, 5 and 9 in the other."""
    a, b = game(players=3), game(players=3)
    for g, lead in ((a, "play 4 11"), (b, "play 5 9")):
        play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 1", "p3": "play 2"})
        turn(g, "PA", "OH", "IL", "FL")
        g.apply("p1", lead)
    same(a, b, ("p2", "p3", None))
    v = a.view("p2")
    assert v["plays"]["p1"] == {"shown": [], "face_down": 2, "cards": []}
    assert v["notes"][-1] == "Candidate 1 leads with 2 card(s) face down."
    assert a.view("p1")["plays"]["p1"]["cards"] == [4, 11]


def test_the_second_of_two_cards_is_a_count():
    """Dial: 3 turned up and 12 face down in one game, 11 face down in the other."""
    a, b = dial(3), dial(3)
    for g, play in ((a, "play 3 12"), (b, "play 3 11")):
        play_round(g, ["NY"], {"p1": play, "p2": "play 13", "p3": "play 5"})
        assert step(g) == "answer"
    same(a, b, ("p2", "p3", None))
    a.apply("p2", "second 4")
    b.apply("p2", "second 4")
    same(a, b, ("p3", None))
    # an answer is a sealed commitment until all have answered: counted, not laid
    assert a.view("p3")["committed"] == 1 and a.view("p3")["my_commitment"] is None
    assert a.view("p2")["my_commitment"] == "second 4"


def test_the_upset_card_is_a_count_until_it_is_judged():
    """Dial: the upset attempted with 12 in one game, 11 in the other; first place decides
    whether to stop it without knowing which."""
    a, b = dial(2), dial(2)
    for g, card in ((a, 12), (b, 11)):
        play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
        g.apply("p2", f"upset {card}")
        assert step(g) == "stop"
    same(a, b, ("p1", None))
    assert a.view("p1")["plays"]["p2"] == {"shown": [5], "face_down": 1, "cards": [5]}


def test_an_upset_attempt_taken_back_is_never_seen():
    """Dial: p3's attempt (with 11 or 10) gives way to p2's: the others never learn it."""
    a, b = dial(3), dial(3)
    for g, card in ((a, 11), (b, 10)):
        play_round(g, ["NY"], {"p1": "play 13", "p2": "play 9", "p3": "play 5"})
        act(g, {"p2": "upset 12", "p3": f"upset {card}", "p1": "stop none"})
        assert step(g) == "turn_up"
    same(a, b, ("p1", "p2", None))


def test_the_view_before_the_deal_shows_no_cards():
    """The Nominee parties drawn by lot come before the deal: every view works and shows none."""
    from engine.core import CHANCE, new_game
    g = new_game("mrpresident", seed=1, options={"edition": "chalkboard", "players": 4,
                                                 "nominee": True, "parties": "lot"})
    assert g.active() == [CHANCE]
    for seat in ("p1", "p2", None):
        v = g.view(seat)
        assert v["table"] == [] and v["deck_count"] == 0 and v["contests"] == {}
        assert v["hands"] in ({}, {seat: []})
