"""The engine protocol (DESIGN.md, "The engine protocol") as 1960 implements it: the registry
and 1960's options, the action notation, and the errors of ``apply``. What the protocol promises
of every game along random games (legal actions sorted and in the notation, chance
probabilities, who may be active, canonical actions from ``apply`` in any letter case) is the
conformance test's (tests/engine/test_conformance.py).
"""
from __future__ import annotations

import pytest

from engine.core import (CHANCE, Action, ActionError, IllegalAction, MalformedAction, OptionsError,
                         from_dict, games, new_game, sample_chance)

EDITIONS = ("gmt", "zman")


# --- registry and options ---------------------------------------------------------------------

def test_registry_lists_tmotp():
    assert "tmotp" in games()
    assert games() == sorted(games())


def test_unknown_game_is_an_options_error():
    with pytest.raises(OptionsError) as err:
        new_game("chess", seed=1)
    msg = str(err.value)
    assert "chess" in msg and "tmotp" in msg


def test_from_dict_of_unknown_game_is_an_options_error():
    d = new_game("tmotp", seed=1).to_dict()
    d["game"] = "nope"
    with pytest.raises(OptionsError, match="nope"):
        from_dict(d)


def test_from_dict_copies_unless_handed_the_dict():
    """``copy=False`` hands the stored dict over (the mail's read-only sessions); by default the
    state plays on a copy and leaves the caller's dict as it was."""
    stored = new_game("tmotp", seed=4).to_dict()
    before = repr(stored)
    copied = from_dict(stored)
    for _ in range(20):
        seat = copied.active()[0]
        copied.apply(seat, sample_chance(copied) if seat == CHANCE
                     else copied.legal_actions(seat)[0])
    assert repr(stored) == before and copied.to_dict() != stored
    owned = from_dict(stored, copy=False)
    assert owned.view("kennedy") == from_dict(stored).view("kennedy")
    seat = owned.active()[0]
    owned.apply(seat, sample_chance(owned) if seat == CHANCE else owned.legal_actions(seat)[0])
    assert repr(stored) != before  # the state played on the dict it was given


@pytest.mark.parametrize("options, words", [
    ({"edition": "avalon hill"}, ["avalon hill", "gmt", "zman"]),
    ({"edition": None}, ["gmt", "zman"]),
    ({"colour": "red"}, ["colour", "edition"]),
    ({"vp_cards": "yes"}, ["vp_cards"]),
    ({"restricted_positioning": 1}, ["restricted_positioning"]),
    ({"edition": "gmt", "vp_card": True}, ["vp_card"]),
])
def test_bad_options_are_options_errors_with_a_readable_message(options, words):
    with pytest.raises(OptionsError) as err:
        new_game("tmotp", seed=1, options=options)
    msg = str(err.value)
    assert msg and "Traceback" not in msg and "KeyError" not in msg
    for word in words:
        assert word in msg


def test_bad_players_are_an_options_error():
    with pytest.raises(OptionsError, match="kennedy"):
        new_game("tmotp", seed=1, players=["kennedy", "nixon", "rockefeller"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_options_are_filled_in_with_defaults(edition):
    state = new_game("tmotp", seed=1, options={"edition": edition})
    assert state.options == {"edition": edition, "vp_cards": False, "restricted_positioning": False,
                             "strategy_order": True}
    assert new_game("tmotp", seed=1).options["edition"] == "gmt"


# --- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    ("campaign NY 2", "campaign NY 2"),
    ("  campaign   NY\t2 \n", "campaign NY 2"),
    ("CAMPAIGN NY 2", "campaign NY 2"),          # the verb is lower-cased, arguments are kept
    ("Play 12 Event", "play 12 Event"),
    ("pass", "pass"),
    ("\tdone\r\n", "done"),
])
def test_action_parse_normalises_whitespace(text, canonical):
    action = Action.parse(text)
    assert str(action) == canonical
    assert str(Action.parse(str(action))) == str(action)


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "campaign N.Y. 2", "play 12; drop table",
                                  "pass!", "ça", 5, None, ["pass"], b"pass"])
def test_action_parse_rejects_what_is_not_notation(text):
    with pytest.raises(MalformedAction) as err:
        Action.parse(text)
    assert str(err.value)


def test_action_verb_and_args():
    action = Action.parse("play  12 campaign preempt")
    assert action.verb == "play"
    assert action.args == ("12", "campaign", "preempt")
    assert Action.parse("pass").args == ()


# --- apply ------------------------------------------------------------------------------------

def test_apply_raises_action_errors_with_reason_and_legal():
    state = new_game("tmotp", seed=1)
    with pytest.raises(MalformedAction) as err:
        state.apply("kennedy", "fly to the moon")
    assert isinstance(err.value, ActionError) and err.value.reason
    with pytest.raises(IllegalAction) as err:
        state.apply("kennedy", "pass")      # the deal is chance's
    assert isinstance(err.value, ActionError) and err.value.reason
    assert err.value.legal == []
