"""1960's bots (engine/games/tmotp/bots.py) and the worlds they search (determinize.py): every
world shows the seat exactly its view and deals exactly the cards the seat cannot see; the
bots' decisions do not change when only hidden information does (they cannot cheat); every
level plays whole games of both editions with the optional rules; the rules of thumb do what
they say. How strong they are is measured by bench/bot_strength.py."""
from __future__ import annotations

import copy
import json
import random

import pytest

from engine import bots
from engine.core import CHANCE, from_dict, new_game, sample_chance
from engine.games.tmotp.bots import campaign_choice, play_score
from engine.games.tmotp.determinize import Determinizer, Inconsistent
from engine.games.tmotp.evaluate import lead, win_chance
from tests.engine.test_leak import change_strategy, redeal_hidden, sample_positions, walk

GAME = "tmotp"
EDITIONS = ("gmt", "zman")
NOT_IN_A_WORLD = ("log", "notes", "note_messages")     # a world keeps no history


def other(seat):
    return "nixon" if seat == "kennedy" else "kennedy"


def hidden_cards(state, seat) -> list:
    """The cards ``seat`` cannot see where they are, from the real state."""
    s, opp = state.s, other(seat)
    out = s["deck"] + s["hands"][opp] + s["strategy"][opp]
    if s["debate"]:
        out += s["debate"]["cards"][opp]
    return sorted(out)


@pytest.mark.parametrize("edition", EDITIONS)
def test_worlds_show_the_seat_exactly_its_view_and_deal_what_it_cannot_see(edition):
    """At positions of random games (the VP cards option in every other game, every Campaign
    Strategy and Debate position among them): each world's view equals the real view in every
    part but the history, its unseen cards are exactly the real unseen cards, and the worlds
    differ from each other where the opponent holds cards."""
    checked = varied = 0
    for seed in range(6):
        for state in sample_positions(edition, seed, n=6):
            for seat in state.active():
                view = state.view(seat)
                worlds = Determinizer(view)
                hands = set()
                for i in range(3):
                    world = worlds.sample(random.Random(f"{seed}/{checked}/{i}"))
                    seen = world.view(seat)
                    diff = [k for k in view if k not in NOT_IN_A_WORLD and seen[k] != view[k]]
                    assert diff == [], (seed, state.top["step"], diff)
                    assert hidden_cards(world, seat) == hidden_cards(state, seat)
                    hands.add(tuple(world.s["hands"][other(seat)]))
                    checked += 1
                if len(state.s["hands"][other(seat)]) >= 3 and len(state.s["deck"]) >= 10 \
                        and not view["shown_hands"]:      # a shown hand is pinned
                    assert len(hands) > 1
                    varied += 1
    assert checked > 150 and varied > 10


def test_the_cards_opposition_research_showed_stay_in_the_opponents_hand():
    state = new_game(GAME, seed=1, options={"edition": "gmt"})
    while state.active() == [CHANCE]:
        state.apply(CHANCE, sample_chance(state))
    hand = sorted(state.s["hands"]["kennedy"])
    state.s["shown_hands"] = [{"turn": state.s["turn"], "seat": "kennedy", "to": "nixon",
                               "cards": hand}]
    worlds = Determinizer(state.view("nixon"))
    for i in range(5):
        assert worlds.sample(random.Random(i)).s["hands"]["kennedy"] == hand
    kennedys = Determinizer(state.view("kennedy"))      # not shown to him: nothing pinned
    assert kennedys.pinned == []


def test_a_view_whose_counts_do_not_add_up_is_refused():
    state = new_game(GAME, seed=2, options={"edition": "zman"})
    view = state.view("kennedy")
    view["deck_count"] += 1
    with pytest.raises(Inconsistent, match="unseen cards"):
        Determinizer(view)


def _commit_variant(state, seat, rng):
    """The opponent's sealed commitment replaced by another legal one (the log's entry too)."""
    s = copy.deepcopy(state.s)
    top = s["stack"][-1]
    opp = other(seat)
    action = top.get("commits", {}).get(opp)
    if action is None:
        return None
    probe = from_dict(state.to_dict())
    probe.s["stack"][-1]["commits"].pop(opp)
    legal = [a for a in probe.legal_actions(opp) if a != action]
    if not legal:
        return None
    new = rng.choice(legal)
    top["commits"][opp] = new
    i = max(i for i, (who, a) in enumerate(s["log"]) if who == opp and a == action)
    s["log"][i] = [opp, new]
    return s


@pytest.mark.parametrize("edition", EDITIONS)
def test_decisions_do_not_change_when_only_hidden_information_does(edition):
    """The same position with the hidden cards dealt anew (the other hand, the deck, the face-down
    strategy and debate cards) or the opponent's sealed choice changed: the seat's view is the
    same, and so is every bot's decision with the same generator. Each variant changes the
    state somewhere; the positions are real ones of random games."""
    levels = {level: bots.make(GAME, level, iterations=8) for level in ("greedy", "strong")}
    compared = 0
    for seed in range(4):
        for state in sample_positions(edition, seed, n=5):
            seat = state.active()[0]
            rng = random.Random(f"h/{edition}/{seed}/{compared}")
            d = state.to_dict()
            for changed in (redeal_hidden(d, seat, rng), change_strategy(d, seat, rng),
                            _commit_variant(state, seat, rng)):
                if changed is None or changed == d:
                    continue
                variant = from_dict(changed)
                view = state.view(seat)
                assert json.dumps(variant.view(seat)) == json.dumps(view)
                for bot in levels.values():
                    a = bot.choose(view, random.Random(compared))
                    b = bot.choose(variant.view(seat), random.Random(compared))
                    assert a == b and a in view["legal_actions"]
                compared += 1
    assert compared >= 40


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_level_plays_whole_games_with_the_optional_rules(edition):
    options = {"edition": edition, "vp_cards": True, "restricted_positioning": True}
    pairs = [("strong", "greedy"), ("greedy", "random")]
    for seed, (a, b) in enumerate(pairs):
        players = {"kennedy": bots.make(GAME, a, iterations=6),
                   "nixon": bots.make(GAME, b, iterations=6)}
        final = bots.play_match(GAME, seed, players, options=options)
        assert final.outcome() is not None and final.s["result"]["winner"] in players


def _world_at(step, seed=0, edition="gmt"):
    """A random game played to the first decision at ``step``; the state and its seat."""
    for state in walk(edition, seed):
        active = state.active()
        if active and active != [CHANCE] and state.top["step"] == step:
            return state, active[0]
    raise AssertionError(f"no {step} step")


def test_the_activity_rule_of_thumb_plays_its_own_events_and_never_the_opponents():
    state, seat = _world_at("activity")
    legal = state.legal_actions(seat)
    for a in legal:
        words = a.split()
        if words[0] == "play" and words[1] != "candidate" and words[2] == "event":
            icon = state.card(int(words[1]))["icon"]
            assert (play_score(state, seat, a) > 0) == (icon == seat)
    assert play_score(state, seat, "pass") < min(play_score(state, seat, a) for a in legal
                                                 if a != "pass")


def test_campaigning_puts_the_cube_where_it_adds_most_electoral_votes():
    state, seat = _world_at("campaigning")
    # an empty, rich state where the candidate stands, every other state his own already
    mine = 6 if seat == "kennedy" else -6
    for st in state.s["support"]:
        state.s["support"][st] = 0 if st == "CA" else mine
    state.s["tokens"][seat] = "CA"
    state.s["tokens"][other(seat)] = "NY"
    choice = campaign_choice(state, seat, state.legal_actions(seat))
    assert choice == "campaign CA 1"


def test_the_evaluation_prefers_more_support_and_knows_a_finished_game():
    state, seat = _world_at("activity")
    before = lead(state.s, seat)
    state.s["support"]["NY"] += 3 if seat == "kennedy" else -3
    assert lead(state.s, seat) > before
    assert 0.0 < win_chance(state.s, seat) < 1.0
    state.s["result"] = {"winner": seat}
    assert win_chance(state.s, seat) > 0.999 and win_chance(state.s, other(seat)) < 0.001
