"""Mr. President's own invariants over random games of every variant with 2, 3 and 4 players
(the ending, round trips, replays and the leak test every game shares are the conformance
test's, tests/engine/test_conformance.py):

- no campaign card is ever lost or doubled and every electoral vote counted is a state card won
  (``check_cards``, after every action);
- a view shows a seat what Mr. President lets it see: never another seat's hand or discards, nor
  cards laid face down and not yet turned up; in a sealed step, only how many have committed,
  never who (no seat name in the log entries of the round in play, no ``commits`` of the
  frame); the spectators' view (``None``) shows no hand at all;
- without plurality, the winner has a majority, or the third election went to the most votes.

The policy: a uniformly random legal action, except that a single card is laid four times in
five when two could be, and no second card, upset or stop is played seven times in ten
(uniform choices would lay two or three cards nearly every round and empty every hand by
mid-game, so that hardly any election reached a majority). Three- and four-player games
without the plurality option are replayed until somebody has a majority or the third election
goes to the most votes (RULINGS.md); random play rarely reaches a majority: most of those games
use plurality, and a few seeds check the majority rule with three players in the short version.
"""
from __future__ import annotations

import json
import random

import pytest

from engine.core import CHANCE, DeadEnd, new_game, sample_chance
from engine.games.mrpresident.data import STATES
from engine.games.mrpresident.election import LAST_ELECTION

GAME = "mrpresident"
VARIANTS = {
    "chalkboard-short": {"edition": "chalkboard"},
    "chalkboard-long": {"edition": "chalkboard", "version": "long"},
    "dial-popular": {"edition": "dial"},
    "dial-electoral": {"edition": "dial", "count": "electoral"},
    "dial-short-popular": {"edition": "dial", "version": "short"},
    "dial-short-electoral": {"edition": "dial", "version": "short", "count": "electoral"},
}
NOMINEE = {
    "nominee-short": {"edition": "chalkboard", "players": 4, "nominee": True},
    "nominee-long-lot": {"edition": "chalkboard", "players": 4, "nominee": True,
                         "version": "long", "parties": "lot"},
}
SEEDS = 12
MAX_LOG = 40000


def policy_choice(rng: random.Random, legal: list) -> str:
    singles = [a for a in legal if not (a.startswith("play ") and len(a.split()) == 3)]
    nones = [a for a in legal if a.endswith(" none")]
    if nones and rng.random() < 0.7:
        return nones[0]
    if len(singles) < len(legal) and rng.random() < 0.8:
        return rng.choice(singles)
    return rng.choice(legal)


def check_cards(g):
    """No campaign card lost or doubled, every electoral vote counted a state card won, somebody
    asked can always act, the state plain JSON after every round."""
    s = g.s
    if not s["stack"] or g.top["step"] == "turn_up":    # a round over: plain JSON, as stored
        assert json.loads(json.dumps(s)) == s
    for seat in s["seats"]:
        laid = s["plays"].get(seat, {}).get("cards", [])
        assert sorted(s["hands"][seat] + s["discards"][seat] + laid) == list(range(1, 14)), seat
    for seat in g.active():
        assert seat == CHANCE or g.legal_actions(seat), (seat, g.top)
    for c in s["contests"].values():        # the conventions share the cards: each apart
        places = list(s["deck"]) + list(s["table"])
        places += [code for won in c["won"].values() for code in won]
        places += [code for pot in c["pots"] for code in pot["states"]]
        for side, won in c["won"].items():
            assert c["ev"][side] == sum(STATES[code]["ev"] for code in won)
            if s["options"]["count"] == "electoral":
                assert c["tally"][side] == c["ev"][side]
        assert len(places) == len(set(places)) and set(places) <= set(STATES)
        if s["stage"] == "national":        # every card is somewhere, or was set aside
            set_aside = {code for h in s["history"] if h["election"] == s["election"]
                         and h.get("set_aside") for code in h["states"]}
            assert len(places) + len(set_aside) == 51


def check_view(state, seat) -> None:
    v = state.view(seat)
    s = state.s
    text = json.dumps(v)
    assert "commits" not in text
    for other in s["seats"]:
        if other == seat:
            continue
        assert other not in v["hands"] and other not in v["discards"]
        play = s["plays"].get(other)
        if play:
            seen = v["plays"][other]
            assert seen["cards"] == play["cards"][:play["shown"]]
            assert seen["face_down"] == len(play["cards"]) - play["shown"]
    if s["hidden_from"] is not None:
        for who, action in v["log"][s["hidden_from"]:]:
            assert who in (seat, CHANCE, None)
            if who is None:
                assert action == "(sealed)"
    top = s["stack"][-1] if s["stack"] else None
    if top and "commits" in top:
        assert v["committed"] == len(top["commits"])
        assert set(v["active"]) >= set(top["commits"])  # who is deciding, not who is done


def playout(options: dict, seed: int, *, check_views: bool = True):
    state = new_game(GAME, seed=seed, options=options)
    rng = random.Random(f"policy/{seed}")
    while state.active():
        assert len(state.s["log"]) < MAX_LOG, "the game does not end"
        active = state.active()
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
        else:
            for seat in active:
                legal = state.legal_actions(seat)
                if not legal:
                    raise DeadEnd(f"{seat} must act but has no legal action")
                state.apply(seat, policy_choice(rng, legal))
                check_cards(state)
                if check_views:
                    for viewer in [*state.s["seats"], None]:
                        check_view(state, viewer)
                if state.active() != active:
                    break
    return state


def _cases():
    for name, options in VARIANTS.items():
        for players in (2, 3, 4):
            yield pytest.param({**options, "players": players, "plurality": players > 2},
                               id=f"{name}-{players}")
    for name, options in NOMINEE.items():
        yield pytest.param({**options, "plurality": True}, id=f"{name}-plurality")
        # The long Nominee games without plurality are the longest: the full suite only.
        yield pytest.param(options, id=f"{name}-majority",
                           marks=pytest.mark.slow if "long" in name else ())
    yield pytest.param({"edition": "chalkboard", "players": 3}, id="chalkboard-short-3-majority")


@pytest.mark.parametrize("options", list(_cases()))
def test_random_games_keep_every_card_and_show_each_seat_its_own(options):
    for seed in range(SEEDS):
        final = playout(options, seed, check_views=seed < 3)
        assert final.outcome() is not None and final.outcome().winner in final.s["seats"]
        if options["players"] == 2 or options.get("plurality") or options.get("nominee"):
            continue
        # without plurality a winner has a majority, but for the last election (RULINGS.md)
        assert max(final.s["result"]["tally"].values()) >= 270 \
            or final.s["election"] == LAST_ELECTION


def test_replayed_elections_happen_and_are_recorded():
    """Without plurality a four-player game is replayed until somebody has a majority, or the
    third election, the last, goes to the most votes."""
    options = {"edition": "chalkboard", "players": 4}
    final = playout(options, 3, check_views=False)
    assert final.s["election"] > 1 and len(final.s["past"]) == final.s["election"] - 1
    assert all(max(p["tally"].values()) < 270 for p in final.s["past"])
    assert max(final.s["result"]["tally"].values()) >= 270 or final.s["election"] == LAST_ELECTION
    assert final.s["election"] <= LAST_ELECTION
    assert sum("must be replayed" in note[1] for note in final.s["notes"]) == len(final.s["past"])
