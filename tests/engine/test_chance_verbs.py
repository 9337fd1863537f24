"""Each game declares the verbs only chance applies (GameState.CHANCE_VERBS, issue 46 item 3):
random games of every registered game agree - no seat ever orders one, and every verb only
chance applied is declared - so that the verbs named to a player (``order_verbs``, the
refusal of a word that is no action) are the seats' own."""

from __future__ import annotations

import pytest

from engine.core import registry
from engine.core.driver import play_random
from engine.core.protocol import CHANCE

OPTIONS = {"tmotp": [{}, {"edition": "zman"}],
           "mrpresident": [{}, {"edition": "dial"}, {"parties": "lot"}]}


@pytest.mark.parametrize("game_id", registry.games())
def test_the_declared_chance_verbs_are_those_only_chance_applies(game_id):
    by: dict[str, set[bool]] = {}
    declared = None
    for options in OPTIONS.get(game_id, [{}]):
        for seed in range(5):
            state = play_random(game_id, seed, options=options)
            declared = state.CHANCE_VERBS
            for seat, action, *_ in state.to_dict()["log"]:
                by.setdefault(action.split()[0], set()).add(seat == CHANCE)
    seats_use = {verb for verb, chance in by.items() if False in chance}
    only_chance = {verb for verb, chance in by.items() if chance == {True}}
    assert not seats_use & declared, seats_use & declared
    assert only_chance <= declared, only_chance - declared
    assert set(state.order_verbs()) == set(state._known_verbs()) - declared
