"""``keeps_legal_actions`` (engine/core/stack.py): a state the server changes only by applying
actions keeps its last legal actions until the next one; the answers are the same as asked
afresh, and a state that does not keep them (the default) sees an edit of its ``s``."""

from __future__ import annotations

import random

import pytest

import engine.core as engine
from engine.core import CHANCE, sample_chance


@pytest.mark.parametrize("game_type, options", [("tmotp", {}),
                                                ("mrpresident", {"players": 3})])
def test_kept_answers_are_the_answers_asked_afresh(game_type, options):
    kept = engine.new_game(game_type, seed="kept", options=options)
    kept.keeps_legal_actions = True
    rng = random.Random(3)
    for _ in range(400):
        active = kept.active()
        if not active:
            break
        fresh = engine.from_dict(kept.to_dict())
        for seat in list(kept.seats) + [CHANCE]:
            assert kept.legal_actions(seat) == fresh.legal_actions(seat), seat
            assert kept.legal_actions(seat) == fresh.legal_actions(seat)  # asked again
        seat = active[0]
        if seat == CHANCE:
            kept.apply(CHANCE, sample_chance(kept))
        else:
            legal = kept.legal_actions(seat)
            legal.clear()  # a caller's change to the list it got is its own
            kept.apply(seat, rng.choice(kept.legal_actions(seat)))
    assert len(kept.s["log"]) > 50


def test_a_state_that_does_not_keep_them_sees_an_edit_of_its_data():
    state = engine.new_game("tmotp", seed="edit")
    while state.active() == [CHANCE]:
        state.apply(CHANCE, sample_chance(state))
    seat = state.active()[0]
    assert not state.keeps_legal_actions
    assert state.legal_actions(seat)
    state.s["stack"].clear()            # a test setting up a position edits s directly
    assert state.legal_actions(seat) == []
