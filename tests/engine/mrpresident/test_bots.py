"""The bots of Mr. President (engine/bots, engine/games/mrpresident/bots.py): whole games with
every level, worlds that show the seat exactly its view, and decisions that hidden information
cannot change (a bot sees the view, never the state).

How strong the strong bot is, is measured by bench/bot_strength.py, not asserted here."""
from __future__ import annotations

import copy
import json
import random

import pytest

from engine import bots
from engine.core import CHANCE, OptionsError, from_dict, new_game, sample_chance
from engine.games.mrpresident.bots import candidates, greedy_action
from engine.games.mrpresident.determinize import CHECKED, Determinizer

GAME = "mrpresident"
VARIANTS = {
    "chalkboard-3": {"edition": "chalkboard", "players": 3, "plurality": True},
    "chalkboard-long-2": {"edition": "chalkboard", "players": 2, "version": "long"},
    "nominee": {"edition": "chalkboard", "players": 4, "nominee": True, "plurality": True},
    "dial-3": {"edition": "dial", "players": 3},
    "dial-short-electoral-4": {"edition": "dial", "players": 4, "version": "short",
                               "count": "electoral", "plurality": True},
}


# Every variant plays in the full suite; the fast tier (scripts/test --fast) keeps the cheapest,
# as the whole games of the others take a minute of the strong bot's search.
EVERY_VARIANT = [pytest.param(options, id=name, marks=() if name == "chalkboard-3"
                              else pytest.mark.slow) for name, options in VARIANTS.items()]


def positions(options, seed, every=3):
    """Positions of a random game where a seat decides, every ``every``-th decision: (state,
    seat). The random policy lays two cards, answers and attempts upsets often, so the sealed
    and face-down cases all come up."""
    state = new_game(GAME, seed=seed, options=options)
    rng = random.Random(seed)
    k = 0
    while state.active():
        active = state.active()
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
            continue
        seat = rng.choice(active)
        k += 1
        if k % every == 0:
            yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("options", EVERY_VARIANT)
def test_every_level_plays_whole_games(options):
    seats = [f"p{i + 1}" for i in range(options["players"])]
    levels = ["strong", "greedy", "random", "greedy"]
    for seed in range(2):
        players = {x: bots.make(GAME, levels[(i + seed) % 4], iterations=6)
                   for i, x in enumerate(seats)}
        final = bots.play_match(GAME, seed, players, options=options)
        assert final.outcome() is not None and final.outcome().winner in seats


@pytest.mark.parametrize("options", EVERY_VARIANT)
def test_worlds_show_the_seat_exactly_its_view(options):
    """Every world sampled from a view shows the seat that view (what it checks: CHECKED), holds
    the seat's own hand and discards, and the other seats' hands hold their real cards (every
    card laid is turned up, so hands are public knowledge) - except cards still face down."""
    checked = 0
    for seed in range(3):
        for state, seat in positions(options, seed, every=2):
            view = state.view(seat)
            rng = random.Random(f"w/{seed}/{checked}")
            worlds = Determinizer(view, rng)
            for _ in range(3):
                world = worlds.sample(rng)
                seen = world.view(seat)
                assert {k: seen[k] for k in CHECKED} == {k: view[k] for k in CHECKED}
                assert seen["hands"] == view["hands"] and seen["discards"] == view["discards"]
                for other in state.s["seats"]:
                    real = state.s["plays"].get(other, {"cards": [], "shown": 0})
                    hidden = set(real["cards"][real["shown"]:])
                    together = sorted(world.s["hands"][other]
                                      + world.s["plays"].get(other, {}).get("cards", []))
                    assert together == sorted(state.s["hands"][other] + real["cards"]) \
                        or hidden, other
                checked += 1
    assert checked > 100


def _hidden_variant(state, seat, rng):
    """A copy of ``state`` that differs only in what ``seat`` may not see: another seat's sealed
    order replaced by another of its legal orders, or a card lying face down swapped with one in
    its owner's hand. None when the position hides nothing from ``seat``."""
    s = copy.deepcopy(state.s)
    top = s["stack"][-1]
    for other, action in sorted(top.get("commits", {}).items()):
        if other == seat:
            continue
        probe = from_dict(state.to_dict())     # what it could have ordered instead
        probe.s["stack"][-1]["commits"].pop(other)
        legal = [a for a in probe.legal_actions(other) if a != action]
        if legal:
            new = rng.choice(legal)
            top["commits"][other] = new
            i = max(i for i, (who, a) in enumerate(s["log"]) if who == other and a == action)
            s["log"][i] = [other, new]
            return from_dict(s)
    for other, play in sorted(s["plays"].items()):
        if other != seat and play["shown"] < len(play["cards"]) and s["hands"][other]:
            j = len(play["cards"]) - 1
            hand = s["hands"][other]
            k = rng.randrange(len(hand))
            play["cards"][j], hand[k] = hand[k], play["cards"][j]
            hand.sort()
            return from_dict(s)
    return None


@pytest.mark.parametrize("options", [
    pytest.param(VARIANTS["dial-3"], id="dial", marks=pytest.mark.slow),
    pytest.param(VARIANTS["chalkboard-3"], id="chalkboard"),
    pytest.param(VARIANTS["nominee"], id="nominee", marks=pytest.mark.slow)])
def test_decisions_do_not_change_when_only_hidden_information_does(options):
    """The same position with another seat's sealed order or face-down card changed: the seat's
    view is the same, and so is every bot's decision (same generator). The positions are real
    ones of random games; each variant must change the state somewhere."""
    greedy, strong = bots.make(GAME, "greedy"), bots.make(GAME, "strong", iterations=12)
    compared = 0
    for seed in range(4):
        for state, seat in positions(options, seed):
            rng = random.Random(f"h/{seed}/{compared}")
            variant = _hidden_variant(state, seat, rng)
            if variant is None:
                continue
            assert variant.to_dict() != state.to_dict()
            view = state.view(seat)
            assert json.dumps(variant.view(seat)) == json.dumps(view)
            for bot in (greedy, strong):
                a = bot.choose(view, random.Random(compared))
                b = bot.choose(variant.view(seat), random.Random(compared))
                assert a == b and a in view["legal_actions"]
            compared += 1
    assert compared >= 10


def test_the_strong_bot_searches_around_the_rule_of_thumb_and_the_best_card_paired():
    g = new_game(GAME, seed=3, options={"edition": "dial", "players": 2})
    g.apply(CHANCE, sample_chance(g))
    view = g.view("p1")
    cands = candidates(view, "play 7 1")
    assert {f"play {c}" for c in (1, 4, 5, 6, 7, 8, 9, 10, 13)} \
        == {a for a in cands if len(a.split()) == 2}
    assert {a for a in cands if len(a.split()) == 3} \
        == {"play 7 1", "play 1 13", "play 13 1", "play 2 13", "play 13 2"}
    assert set(cands) <= set(view["legal_actions"])
    g.s["stack"][-1]["step"] = "answer"     # every answer is searched
    g.s["stack"][-1]["seats"] = ["p1", "p2"]
    view = g.view("p1")
    assert candidates(view, "second none") == view["legal_actions"]


def test_the_rule_of_thumb_lays_its_best_card_for_the_richest_prize():
    """The long game: 52 cards for 51 rounds, so one to spare, and two cards once a game."""
    def first(code):
        g = new_game(GAME, seed=1, options={"edition": "chalkboard", "players": 2,
                                            "version": "long"})
        g.apply(CHANCE, f"turn {code}")
        return greedy_action(g, "p1", random.Random(1))
    # California's 40 votes: no card left in the deck is worth more. The best card, with the
    # card to spare.
    assert first("CA") == "play 1 13"
    assert first("AK") in ("play 1", "play 2")      # 3 votes: the poorest (with 5 others)
    # 10 votes: more than most of the deck left (30 of 50 states have fewer, 3 as many)
    assert first("MD") in ("play 8", "play 9")


def test_a_bot_level_that_does_not_exist_is_refused_with_the_levels_there_are():
    with pytest.raises(OptionsError, match="random, greedy, strong"):
        bots.make(GAME, "grandmaster")
    assert bots.levels(GAME) == ["random", "greedy", "strong"]
    assert isinstance(bots.make("tmotp"), bots.RandomBot)
