"""The bots' common part (engine/bots): every game has a random bot that plays whole games from
its views, levels a game does not have are refused, and a bot's decision in 1960 does not
change when only what its seat may not see does (the other hand, the deck's order). Mr.
President's own bots: tests/engine/mrpresident/test_bots.py."""
from __future__ import annotations

import copy
import json
import random

import pytest

from engine import bots
from engine.core import CHANCE, OptionsError, from_dict, games, new_game, sample_chance


@pytest.mark.parametrize("game_id", games())
def test_the_random_bot_plays_whole_games_of_every_game(game_id):
    options = {"players": 3, "plurality": True} if game_id == "mrpresident" else {}
    seats = new_game(game_id, seed=0, options=options).seats
    for seed in range(2):
        final = bots.play_match(game_id, seed, {x: bots.make(game_id) for x in seats},
                                options=options)
        assert final.outcome() is not None and final.outcome().winner in (*seats, None)


def test_1960_decisions_do_not_change_when_the_other_hand_or_the_deck_does():
    """Positions of random games of 1960: the other seat's hand swapped card for card with the
    deck (and the deck shuffled) leaves the seat's view and every bot's decision as they were."""
    compared = 0
    for level in bots.levels("tmotp"):
        bot = bots.make("tmotp", level, iterations=8)
        for seed in range(3):
            state = new_game("tmotp", seed=seed, options={"edition": "gmt"})
            rng = random.Random(seed)
            while state.active():
                active = state.active()
                if active == [CHANCE]:
                    state.apply(CHANCE, sample_chance(state))
                    continue
                seat = active[0]
                other = "nixon" if seat == "kennedy" else "kennedy"
                s = copy.deepcopy(state.s)
                if s["hands"][other] and len(s["deck"]) > 1 and other not in s["shown_hands"]:
                    i = rng.randrange(len(s["hands"][other]))
                    s["hands"][other][i], s["deck"][0] = s["deck"][0], s["hands"][other][i]
                    rng.shuffle(s["deck"])
                    variant = from_dict(s)
                    view = state.view(seat)
                    assert json.dumps(variant.view(seat)) == json.dumps(view)
                    if variant.to_dict() != state.to_dict():
                        a = bot.choose(view, random.Random(compared))
                        b = bot.choose(variant.view(seat), random.Random(compared))
                        assert a == b and a in view["legal_actions"]
                        compared += 1
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                if compared >= 40 * (seed + 1):
                    break
    assert compared >= 40


def test_levels_and_refusals():
    assert bots.levels("tmotp")[0] == "random"
    assert bots.levels("tmotp") == ["random", "greedy", "strong"]
    with pytest.raises(OptionsError, match="No bot 'grandmaster' for tmotp; there are random, "
                                           "greedy, strong"):
        bots.make("tmotp", "grandmaster")
    with pytest.raises(ValueError):
        bots.RandomBot().choose({"legal_actions": []}, random.Random(0))
