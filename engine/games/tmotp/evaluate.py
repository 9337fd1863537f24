"""How a position of 1960 stands for one seat, for the bots (bots.py): an estimate of the
electoral votes it leads by on Election Day, and that lead as a chance of winning.

A state is worth its electoral votes times how surely its leader keeps it: a smooth curve of
the support cubes there (a carried state, four cubes or more, holds better: the opponent then
needs support checks), sharper as the campaign runs out of turns. An empty state leans to the
region's endorsement leader, else to its edge (Election Day, Undecided States). The rest is
what turns into support cubes before the Final Tally: media support (one bag cube each on
Election Day, two in the GMT edition), issue support (one cube each, and the momentum and
endorsements the Issues Track awards its leaders), momentum markers (two cubes each), the
cubes in the bag and resting, and an unexhausted candidate card (5 CP). The weights are a
judgement, not a fit; bench/bot_strength.py measures what they win.
"""
from __future__ import annotations

import math

from .board import leader
from .data import ISSUES, REGIONS, STATES, other, sign

TRACK = (6.0, 4.0, 2.0)         # leading the first, second and third issue on the track
SCALE = 40.0                    # electoral votes of lead that make a win three times likelier


def sharpness(turn: int) -> float:
    return 0.45 + 0.08 * min(turn, 9)


def state_worth(ev: int, cubes: float, k: float) -> float:
    """A state's electoral votes times how surely ``cubes`` (signed: the seat's positive) keep
    it, -ev to ev."""
    return ev * math.tanh(k * cubes / 2)


def lead(s: dict, me: str) -> float:
    """The seat's estimated electoral-vote lead."""
    sg = sign(me)
    result = s.get("result")
    if result:
        return 1000.0 if result.get("winner") == me else -1000.0
    k = sharpness(s["turn"])
    total = 0.0
    for st, v in s["support"].items():
        info = STATES[st]
        m = v * sg
        if m == 0:
            region = leader(s["endorsements"][info["region"]]) or info["edge"]
            x = 0.3 if region == me else -0.3
        else:
            x = m + (0.5 if m >= 4 else -0.5 if m <= -4 else 0.0)
        total += state_worth(info["ev"], x, k)
    media = 6.0 if s["options"]["edition"] == "gmt" else 4.0
    total += media * sum(s["media"][r] for r in REGIONS) * sg
    total += 3.0 * sum(s["endorsements"][r] for r in REGIONS) * sg
    track = s["issue_track"]
    for issue in ISSUES:
        v = s["issues"][issue] * sg
        total += 3.0 * v
        if v and issue in track:
            total += TRACK[track.index(issue)] * (1 if v > 0 else -1)
    opp = other(me)
    total += 6.0 * (s["momentum"][me] - s["momentum"][opp])
    total += 1.5 * (s["bag"][me] - s["bag"][opp]) + 1.2 * (s["rest"][me] - s["rest"][opp])
    total += 5.0 * (s["exhausted"][opp] - s["exhausted"][me])
    return total


def win_chance(s: dict, me: str) -> float:
    """The lead as a chance of winning, 0 to 1."""
    x = lead(s, me) / SCALE
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))
