"""Worlds a seat cannot tell from the real one: full states of 1960 consistent with its view, for
the bots' search (engine/bots). Built from the view alone, never from the state.

1960 hides cards only: the opponent's hand, his face-down Campaign Strategy and debate cards
(counts in the view), the deck (a count; an unordered pile, bag.py) and his commitment not yet
revealed. The view's ``public`` part is the state with those taken out (view.public_state), so
a world is that state with the unseen cards dealt anew: every card the seat does not see where
it is goes to one pool, and the pool is dealt to the opponent's hand (first the cards Opposition
Research showed the seat this turn), his strategy and debate cards (never a Gathering Momentum
card, which may not be placed face down) and the deck. A commitment of his not yet revealed is
proposed again from the world's hand.

The pool is a uniform guess: the bot does not infer from the opponent's play which cards he
is likely to hold (a human would, a little; a stronger bot could weight the deal).
"""
from __future__ import annotations

import pickle
import random

from .data import CARDS, SEATS, VP_CARDS, other
from .setup import deck_for
from .state import TmotpState


class Inconsistent(ValueError):
    """The view's counts do not add up to the cards it does not show (a foreign view)."""


class Determinizer:
    """Reads the view once; ``sample(rng)`` then returns a fresh world."""

    def __init__(self, view: dict):
        self.view = view
        self.me = view["seat"]
        self.opp = other(self.me)
        s = dict(view["public"], seed=0, log=[], notes=[])
        # the Vice President cards are set aside while their seats may still play them
        every = deck_for(view["options"]) + [VP_CARDS[x] for x in SEATS
                                             if view["options"]["vp_cards"]
                                             and not s["vp_available"][x]]
        self.pool = sorted(set(every) - set(self._seen(s)))
        d = view["debate"]
        self.sizes = {"hand": view["hand_sizes"][self.opp],
                      "strategy": view["strategy_counts"][self.opp],
                      "debate": d["cards_left"][self.opp] if d else 0}
        if len(self.pool) != sum(self.sizes.values()) + view["deck_count"]:
            raise Inconsistent(f"{len(self.pool)} unseen cards for {self.sizes} and a deck of "
                               f"{view['deck_count']}")
        shown = view["shown_hands"].get(self.opp, [])
        self.pinned = [c for c in shown if c in self.pool][:self.sizes["hand"]]
        self.opening = pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)

    def _seen(self, s) -> list:
        """Every card the seat sees where it is: its own hand, strategy and debate cards, the
        piles, the cards in force, the Campaign Strategy cards revealed on Election Day and the
        cards being played."""
        out = list(s["hands"][self.me]) + list(s["strategy"][self.me]) + s["discard"] + s["removed"]
        for cards in s["persistent"].values():
            out += cards
        for cards in ((s.get("election") or {}).get("strategy") or {}).values():
            out += cards        # revealed on Election Day, not yet resolved
        d = s["debate"]
        if d:
            out += d["cards"][self.me] + list(d["revealed"].values())
            for tile in d["tiles"].values():
                out += tile["kennedy"] + tile["nixon"]
        for f in s["stack"]:
            for key in ("card", "vp_card"):
                if isinstance(f.get(key), int):
                    out.append(f[key])
            out += f.get("revealed", [])        # High Hopes: the cards turned over
        return [c for c in set(out) if c in CARDS]

    def sample(self, rng: random.Random) -> TmotpState:
        """A world: the view's state with the unseen cards dealt at random."""
        g = TmotpState(pickle.loads(self.opening))
        g.records_notes = False
        s = g.s
        rest = [c for c in self.pool if c not in self.pinned]
        rng.shuffle(rest)
        n_face_down = self.sizes["strategy"] + self.sizes["debate"]
        face_down = [c for c in rest if CARDS[c]["campaign_strategy_allowed"]][:n_face_down]
        if len(face_down) < n_face_down:
            raise Inconsistent("too few cards may lie face down")
        taken = set(face_down)
        rest = [c for c in rest if c not in taken]
        n_hand = self.sizes["hand"] - len(self.pinned)
        s["hands"][self.opp] = sorted(self.pinned + rest[:n_hand])
        s["strategy"][self.opp] = sorted(face_down[:self.sizes["strategy"]])
        if s["debate"]:
            s["debate"]["cards"][self.opp] = sorted(face_down[self.sizes["strategy"]:])
        s["deck"] = sorted(rest[n_hand:])
        top = s["stack"][-1] if s["stack"] else None
        if top and top.get("commits") is not None and self.opp in self.view["committed"]:
            top["commits"][self.opp] = rng.choice(g.legal_actions(self.opp))
        return g
