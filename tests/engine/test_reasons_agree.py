"""The reasons for a refusal agree with legality (issue 22, item 4).

``engine/games/tmotp/reasons.py`` restates legality rules to say, in the game's words, why an
order is refused. ``legal_actions`` stays the only validator; this test ties the two together
over random games of both editions (with both optional rules), at every seventh decision:

- every legal action passes the reasons' checks (``why_illegal`` returns None): a reason never
  calls a legal action illegal;
- every well-formed action that is refused gets a reason of its own from the step's checks
  (never None, so an action the reasons call fine is never refused), and the error's legal list
  is exactly ``legal_actions``;
- refusing changes nothing.

The refused actions are the legal ones with one word changed (another card, state, issue,
region, number, mode or seat), a word dropped or added, and the other steps' verbs.
"""
from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, IllegalAction, MalformedAction, new_game, sample_chance
from engine.games.tmotp import reasons
from engine.games.tmotp.data import CARDS, ISSUES, REGIONS, SEATS, STATES

GAMES = 12
EVERY = 7
PER_POSITION = 40
WORDS = ([str(c) for c in CARDS] + list(STATES) + list(ISSUES) + list(REGIONS) + list(SEATS)
         + [str(n) for n in range(0, 13)]
         + ["event", "campaign", "advertise", "position", "preempt", "candidate", "none",
            "helps_me", "momentum", "endorsement", "accept", "redraw"])
VERBS = ["play", "vp", "pass", "campaign", "travel", "done", "position", "media", "strategy",
         "debate", "support", "remove", "discard", "take", "trigger", "start", "choose"]


def mutations(legal: list, rng: random.Random) -> list:
    out = set()
    for action in rng.sample(legal, min(len(legal), 12)):
        words = action.split()
        for _ in range(4):
            changed = list(words)
            i = rng.randrange(len(changed))
            changed[i] = rng.choice(VERBS if i == 0 else WORDS)
            out.add(" ".join(changed))
        if len(words) > 1:
            out.add(" ".join(words[:-1]))
        out.add(" ".join(words + [rng.choice(WORDS)]))
    for verb in VERBS:
        out.add(" ".join([verb] + [rng.choice(WORDS) for _ in range(rng.randrange(0, 3))]))
    candidates = sorted(out - set(legal))
    return rng.sample(candidates, min(len(candidates), PER_POSITION))


def check_position(g, seat, rng):
    legal = g.legal_actions(seat)
    for action in legal:
        assert reasons.why_illegal(g, seat, action) is None, \
            (g.top["step"], action, str(reasons.why_illegal(g, seat, action)))
    before = g.to_dict()
    for action in mutations(legal, rng):
        try:
            g.parse(seat, action)
        except MalformedAction:
            continue
        except IllegalAction as err:
            assert err.legal == legal
            reason = reasons.why_illegal(g, seat, action)
            assert reason is not None, (g.top["step"], action, g.prompt(seat))
            continue
        raise AssertionError(f"{action!r} accepted but not in legal_actions")
    assert g.to_dict() == before


@pytest.mark.parametrize("edition", ["gmt", "zman"])
@pytest.mark.parametrize("chunk", range(3))
def test_reasons_never_contradict_legal_actions(edition, chunk):
    checked = 0
    for seed in range(chunk, GAMES, 3):
        g = new_game("tmotp", seed=seed, options={"edition": edition, "vp_cards": True,
                                                  "restricted_positioning": seed % 2 == 0})
        rng = random.Random(f"reasons/{seed}")
        decisions = 0
        while g.active():
            active = g.active()
            if active == [CHANCE]:
                g.apply(CHANCE, sample_chance(g))
                continue
            seat = active[0]
            decisions += 1
            if decisions % EVERY == seed % EVERY:
                check_position(g, seat, rng)
                checked += 1
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert checked > 100
