"""Bots for Mr. President (engine/bots): ``greedy``, a rule of thumb, and ``strong``, a Monte Carlo
search over worlds consistent with the seat's view (determinize.py) played out by the rule of
thumb. Both decide from the view only.

The rule of thumb ("match the card to the prize"): the votes on the table (and any tied votes the
seat may win with them) are ranked among the prizes the rest of the deck can still bring; the
candidate lays the card of the same rank in his hand - his best card for the best prize, his
worst for the poorest - with the card he has to spare when the prize is among the richest. He
answers nothing (no second card, upset or stop).
"""
from __future__ import annotations

import math
import random

from engine.core.protocol import CHANCE

from .data import STATES
from .determinize import Determinizer
from .rounds import may_double, round_size, votes_of

SAMPLES = 8         # futures of the deck drawn to rank the prize on the table
UCB_C = 0.7         # the search's exploration (UCB1), for rewards from 0 to 1


def _prize(g, seat) -> int:
    """The electoral votes the seat plays for this round: the table, and the tied votes carried
    over that its side is among."""
    contest, side = g.s["contests"][g.contest_of(seat)], g.side_of(seat)
    return votes_of(g.s["table"]) + sum(votes_of(pot["states"]) for pot in contest["pots"]
                                        if side in pot["sides"])


def _sizes_ahead(g) -> list:
    """How many electoral cards each round after this one turns up."""
    s = g.s
    if s["options"]["version"] == "long":
        return [1] * len(s["deck"])
    return [round_size("short", r) for r in range(s["round"] + 1, 13)]


def prize_rank(g, seat, m: int, rng: random.Random) -> float:
    """Where this round's prize stands among the next ``m`` rounds' prizes, as the deck left may
    deal them: the expected number of them it beats (a tie counts half), 0 to ``m``. For each
    round, the chance that a round of its size deals less; one card a round is counted exactly,
    sums of several estimated from SAMPLES draws."""
    if m == 0:
        return 0.0
    prize = _prize(g, seat)
    deck = [STATES[c]["ev"] for c in g.s["deck"]]
    if not deck:
        return 0.0
    sizes = [min(k, len(deck)) for k in _sizes_ahead(g)[:m]]
    chance = {}
    for k in set(sizes):
        sums = deck if k == 1 else [sum(rng.sample(deck, k)) for _ in range(SAMPLES)]
        chance[k] = (sum(1 for p in sums if p < prize)
                     + 0.5 * sum(1 for p in sums if p == prize)) / len(sums)
    return sum(chance[k] for k in sizes)


def greedy_action(g, seat, rng: random.Random) -> str:
    """The rule of thumb's order for ``seat`` in world ``g``: the hand's best cards matched to
    the prizes it will meet (this round's and the next ones', one card a round until the hand is
    played out), rank for rank; a card the hand has to spare goes with the matched card when the
    prize is among the richest, or in the last round."""
    s = g.s
    step = g.top["step"]
    if step not in ("lead", "play"):
        return {"answer": "second none", "upset": "upset none", "stop": "stop none"}[step]
    hand = sorted(s["hands"][seat])
    n = len(hand)
    ahead = len(_sizes_ahead(g))
    m = min(n - 1, ahead)                 # the rounds after this one this hand will play
    rank = prize_rank(g, seat, m, rng)
    card = hand[min(n - 1, n - 1 - m + int(rank + 0.5))]
    spare = n - 1 - m if s["refills"][seat] == 0 else n + 13 * s["refills"][seat] - 1 - ahead
    if spare > 0 and (m == 0 or rank >= 0.8 * m) and may_double(g, seat):
        low = hand[0] if hand[0] != card else hand[1]
        # the dial edition turns up the first card named; the chalkboard's order is low, high
        return f"play {card} {low}" if g.dial or low > card else f"play {low} {card}"
    return f"play {card}"


def noisy_greedy(noise: float, me=None, own_noise: float = 0.1):
    """The rule of thumb with ``noise`` of random orders (``own_noise`` for the seat ``me``)."""
    def policy(g, seat, rng):
        if rng.random() < (own_noise if seat == me else noise):
            return rng.choice(g.legal_actions(seat))
        return greedy_action(g, seat, rng)
    return policy


class GreedyBot:
    """The rule of thumb, from a world consistent with the view."""

    level = "greedy"

    def choose(self, view: dict, rng: random.Random) -> str:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        return greedy_action(Determinizer(view, rng).sample(rng), view["seat"], rng)


def candidates(view: dict, suggested: str) -> list:
    """The orders worth searching: every answer (second card, upset, stop); of the cards, the
    rule of thumb's (``suggested``) and those up to three ranks either side of it in the hand,
    the lowest and the best; of the two-card plays, the suggested one and the best card with each
    of the two lowest (both ways round in the dial edition, where the first is turned up first)."""
    legal = view["legal_actions"]
    singles = [a for a in legal if a.startswith("play ") and len(a.split()) == 2]
    if not singles:
        return legal
    cards = sorted(int(a.split()[1]) for a in singles)
    near = int(suggested.split()[1]) if suggested.startswith("play ") else cards[0]
    i = cards.index(near) if near in cards else 0
    keep = set(cards[max(0, i - 3):i + 4]) | {cards[0], cards[-1]}
    out = [f"play {c}" for c in cards if c in keep]
    best, low = cards[-1], cards[:2]
    for a in (suggested, *[f"play {x} {y}" for c in low if c != best
                            for x, y in ((c, best), (best, c))]):
        if a in legal and a not in out:
            out.append(a)
    return out


class StrongBot:
    """Monte Carlo search: each of ``iterations`` playouts samples a world consistent with the
    view, lays a candidate order chosen by UCB1, and plays on with the rule of thumb (the others
    with ``noise`` of random orders, itself with a tenth) to the end of the election. A won
    game scores 0.8 (the seat's party's, Nominee version, 0.4) and up to 0.2 more by the final
    tally's margin; an election to be replayed scores by its tally's lead; the party
    conventions score the nomination. (Playouts cut short after a few rounds and scored by the
    tally rewarded spending the cards the long game needs later: they lost to the rule of
    thumb itself in the dial edition.)"""

    level = "strong"

    def __init__(self, iterations: int = 200, noise: float = 0.7):
        self.iterations = iterations
        self.noise = noise

    def choose(self, view: dict, rng: random.Random) -> str:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        policy = noisy_greedy(self.noise, view["seat"])
        worlds = Determinizer(view, rng, policy=policy)
        cands = candidates(view, greedy_action(worlds.sample(rng), view["seat"], rng))
        n = {a: 0 for a in cands}
        total = {a: 0.0 for a in cands}
        for it in range(max(self.iterations, len(cands))):
            if it < len(cands):
                action = cands[it]
            else:
                log_it = math.log(it)
                action = max(cands, key=lambda a: total[a] / n[a]
                             + UCB_C * math.sqrt(log_it / n[a]))
            world = worlds.sample(rng)
            total[action] += self._playout(world, view["seat"], action, policy, rng)
            n[action] += 1
        return max(cands, key=lambda a: (n[a], total[a]))

    def _playout(self, g, me, action, policy, rng) -> float:
        g.records_notes = False
        g._do(me, action)
        stage, election = g.s["stage"], g.s["election"]
        while True:
            active = g.active()
            if not active:
                return _score(g, me)
            if g.s["stage"] != stage:           # the conventions are over
                return _nominated(g, me)
            if g.s["election"] != election:     # no majority: the election is replayed
                return _estimate(g, me)
            if active == [CHANCE]:
                actions, weights = g.chance_weights()
                g._do(CHANCE, rng.choices(actions, weights)[0])
                continue
            for seat in active:
                g._do(seat, policy(g, seat, rng))
                if g.active() != active:
                    break


def _score(g, me) -> float:
    """A finished game: 0.8 for the win (0.4 for the seat's party's, Nominee version), and up
    to 0.2 more by the margin of the final tally (which tells close games from lost causes)."""
    result = g.s["result"]
    if result["president"] == me:
        won = 1.0
    elif g.s["nominees"] and me in g.s["parties"][result["winner"]]:
        won = 0.5
    else:
        won = 0.0
    return 0.8 * won + 0.2 * _estimate(g, me)


def _nominated(g, me) -> float:
    """A playout of the party conventions: the seat's party's presidential candidate scores 0.8,
    its vice-presidential candidate 0.2 (the national election is the party's together)."""
    return 0.8 if any(n["president"] == me for n in g.s["nominees"].values()) else 0.2


def _estimate(g, me) -> float:
    """The seat's side's lead over the best other side, as a probability of winning (a logistic
    curve, 0.5 for level)."""
    tally, side = g.s["contests"][g.contest_of(me)]["tally"], g.side_of(me)
    best_other = max(v for k, v in tally.items() if k != side)
    scale = 60.0 if g.s["options"]["count"] == "electoral" else 3000.0
    return 1.0 / (1.0 + math.exp(-(tally[side] - best_other) / scale))
