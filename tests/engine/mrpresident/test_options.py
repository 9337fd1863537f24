"""Options, seats, prompts and the defaults when a deadline passes."""
import pytest

from engine.core import CHANCE, OptionsError, new_game

from .helpers import act, dial, game, play_round, step, turn


def test_the_editions_standards():
    assert game().s["options"] == {"edition": "chalkboard", "players": 2, "version": "short",
                                   "count": "electoral", "nominee": False, "parties": "seats",
                                   "plurality": False}
    assert dial(3).s["options"]["version"] == "long"
    assert dial(3).s["options"]["count"] == "popular"
    assert game(players=4).seats == ("p1", "p2", "p3", "p4")


@pytest.mark.parametrize("options", [
    {"edition": "chalkboard", "count": "popular"},      # the popular vote is the dial's
    {"edition": "dial", "players": 5},
    {"edition": "dial", "players": 1},
    {"edition": "dial", "version": "medium"},
    {"edition": "board"},
    {"edition": "dial", "plurality": "yes"},
    {"edition": "chalkboard", "players": 4, "nominee": True, "parties": "coin"},
    {"edition": "dial", "colour": "red"},
])
def test_options_that_do_not_exist_are_refused(options):
    with pytest.raises(OptionsError):
        new_game("mrpresident", seed=1, options=options)


def test_the_seats_may_be_given_as_a_list():
    g = new_game("mrpresident", seed=1, players=["p1", "p2", "p3"], options={"edition": "dial"})
    assert g.seats == ("p1", "p2", "p3")
    with pytest.raises(OptionsError):
        new_game("mrpresident", seed=1, players=["nixon", "kennedy"])
    with pytest.raises(OptionsError):
        new_game("mrpresident", seed=1, players=3, options={"players": 2})


def test_those_waiting_for_the_scorer_are_told_who_lays_first():
    g = game(players=3)
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 1", "p3": "play 2"})
    turn(g, "PA", "OH", "IL", "FL")
    assert g.prompt("p1") == ("You scored last round, so you lay your campaign card(s) face down "
                              "first, for Pennsylvania, Ohio, Illinois, Florida (95 electoral "
                              "votes).")
    assert g.prompt("p2") == g.view(None)["prompt"] == (
        "Waiting: Candidate 1 scored last round and lay their campaign card(s) face down first, "
        "for Pennsylvania, Ohio, Illinois, Florida (95 electoral votes).")
    assert g.view("p2")["asks"] is None and g.view("p1")["asks"] == {"step": "lead"}


def test_those_waiting_for_first_place_are_told_who_may_stop_the_upset():
    g = dial(3)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 9", "p3": "play 5"})
    act(g, {"p2": "upset none", "p3": "upset 12"})
    assert g.prompt("p1") == "Candidate 3 attempts an upset. Play another card to stop it, or none."
    assert g.prompt("p3") == ("Waiting: Candidate 3 attempts an upset; Candidate 1, first, may "
                              "play another card to stop it.")


def test_the_defaults_when_a_deadline_passes():
    """The lowest card alone; no second card, no upset, no stop."""
    g = game()
    turn(g, "NY", "CA", "TX", "AK")
    assert g.default_action("p1") == "play 1"
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 2 3", "p2": "play 13"})
    assert g.default_action("p2") == "second none"
    g = dial(2)
    play_round(g, ["NY"], {"p1": "play 13", "p2": "play 5"})
    assert g.default_action("p2") == "upset none"
    act(g, {"p2": "upset 12"})
    assert step(g) == "stop" and g.default_action("p1") == "stop none"
    assert g.active() == ["p1"] and g.legal_actions(CHANCE) == []
