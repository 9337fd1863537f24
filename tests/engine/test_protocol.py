"""The engine protocol (DESIGN.md, "The engine protocol") as 1960 implements it.

Registry and options, the action notation round trip, sorted and duplicate-free legal actions,
chance outcome probabilities, canonical actions from ``apply`` and who may be active.
"""
from __future__ import annotations

import random

import pytest

from engine.core import (CHANCE, Action, ActionError, IllegalAction, MalformedAction, OptionsError,
                         from_dict, games, new_game, play_random, sample_chance)

EDITIONS = ("gmt", "zman")
SEATS = ("kennedy", "nixon")
SEEDS = (1, 2, 3)


def walk(edition: str, seed, *, options=None, check=None):
    """Play a game with seeded random legal actions, calling ``check(state)`` at every state
    (the opening included); return the final state."""
    options = {"edition": edition, **(options or {})}
    if check is not None:
        check(new_game("tmotp", seed=seed, options=options))
    return play_random("tmotp", seed, options=options, policy_seed=f"walk/{edition}/{seed}",
                       check=check)


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
    assert state.options == {"edition": edition, "vp_cards": False, "restricted_positioning": False}
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


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_round_trips_through_the_notation(edition, seed):
    seen = set()

    def check(state):
        for seat in (*SEATS, CHANCE):
            for a in state.legal_actions(seat):
                if a in seen:
                    continue
                seen.add(a)
                assert isinstance(a, str)
                parsed = Action.parse(a)
                assert str(parsed) == a, f"{a!r} is not in canonical notation"
                assert str(Action.parse(f"  {a.replace(' ', '   ')}\t")) == a
                lo, hi = state._known_verbs()[parsed.verb]
                assert lo <= len(parsed.args) <= hi, f"{a!r}: the verb table's arity disagrees"

    walk(edition, seed, options={"vp_cards": seed == 2, "restricted_positioning": seed == 3},
         check=check)
    assert len(seen) > 100


# --- legal actions and chance -----------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_are_sorted_and_duplicate_free(edition, seed):
    def check(state):
        for seat in (*SEATS, CHANCE):
            legal = state.legal_actions(seat)
            assert isinstance(legal, list)
            assert legal == sorted(legal), f"{seat}: legal actions not sorted"
            assert len(legal) == len(set(legal)), f"{seat}: duplicate legal actions"

    walk(edition, seed, check=check)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_chance_probabilities_sum_to_one(edition, seed):
    steps = 0

    def check(state):
        nonlocal steps
        outcomes = state.chance_outcomes()
        if state.active() != [CHANCE]:
            assert outcomes == []
            return
        steps += 1
        assert outcomes, "a chance step with no outcome"
        actions = [a for a, _ in outcomes]
        assert len(actions) == len(set(actions))
        assert all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert sorted(actions) == state.legal_actions(CHANCE)
        assert sample_chance(state) in actions

    walk(edition, seed, check=check)
    assert steps > 50


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_active_seats_always_have_legal_actions(edition, seed):
    def check(state):
        active = state.active()
        assert len(active) == len(set(active))
        if active == [CHANCE]:
            assert state.chance_outcomes()
            for seat in SEATS:
                assert state.legal_actions(seat) == []
            return
        assert CHANCE not in active
        for seat in SEATS:
            if seat in active:
                assert state.legal_actions(seat), f"{seat} is active with no legal action"
            else:
                assert state.legal_actions(seat) == [], f"{seat} is not active but may act"
        assert state.legal_actions(CHANCE) == []

    final = walk(edition, seed, check=check)
    assert final.active() == []
    assert final.outcome() is not None
    for seat in (*SEATS, CHANCE):
        assert final.legal_actions(seat) == []


# --- apply ------------------------------------------------------------------------------------

def _mangle_case(action: str, rng: random.Random) -> str:
    return "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in action)


@pytest.mark.parametrize("edition", EDITIONS)
def test_apply_returns_the_canonical_action_and_ignores_letter_case(edition):
    rng = random.Random(edition)
    tried = 0

    def check(state):
        nonlocal tried
        active = state.active()
        if not active or rng.random() > 0.2:
            return
        for seat in active:
            legal = state.legal_actions(seat)
            for canonical in rng.sample(legal, min(3, len(legal))):
                for text in (canonical, canonical.upper(), canonical.swapcase(),
                             _mangle_case(canonical, rng), f"  {canonical.lower()}  "):
                    a, b = from_dict(state.to_dict()), from_dict(state.to_dict())
                    returned = a.apply(seat, text)
                    assert isinstance(returned, Action)
                    assert str(returned) == canonical
                    b._do(seat, canonical)
                    assert a.to_dict() == b.to_dict()
                    assert a.s["log"][-1] == [seat, canonical]
                    tried += 1

    walk(edition, 7, check=check)
    assert tried > 100


def test_apply_raises_action_errors_with_reason_and_legal():
    state = new_game("tmotp", seed=1)
    with pytest.raises(MalformedAction) as err:
        state.apply("kennedy", "fly to the moon")
    assert isinstance(err.value, ActionError) and err.value.reason
    with pytest.raises(IllegalAction) as err:
        state.apply("kennedy", "pass")      # the deal is chance's
    assert isinstance(err.value, ActionError) and err.value.reason
    assert err.value.legal == []
