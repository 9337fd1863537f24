"""Worlds a seat cannot tell from the real one: full states consistent with its view, for the
bots' search (engine/bots). Built from the view alone, never from the state.

What Mr. President hides is small: every campaign card laid is turned up by the end of its round,
so the other candidates' hands follow from the public log (the view's log shows every past
round's orders), and the electoral deck is a chance draw from the cards left, not a hidden order.
Hidden are only the round being played - the others' sealed orders (a count), the cards still
face down (a count) - and the upset attempts taken back unseen in earlier rounds.

So a world is the view's log replayed from the opening, with each sealed entry given a seat and
an order: an earlier round's sealed entry is an upset attempt taken back (the seat of its step
that has no public entry there, with any card); the current round's are proposed from what the
view shows (the cards turned up, how many lie face down, how many cards each candidate has laid)
and the world is kept only if the seat's view of it is the view it was given.
"""
from __future__ import annotations

import random

from engine.core.protocol import CHANCE

from .setup import new
from .state import MrPresidentState

# What a world must show the seat exactly as the real game did.
CHECKED = ("plays", "placing", "notes", "hand_sizes", "discard_counts", "committed", "active",
           "legal_actions", "contests", "table", "deck_count", "round", "election")


class Inconsistent(ValueError):
    """No world found that shows the seat its view (a bug in the proposals, or a foreign view)."""


def _group(g, log, i, me) -> list:
    """The seats of the simultaneous step at log entry ``i`` that the sealed entries there may
    belong to: those still to commit, less the seat itself and those named by a later public
    entry of the same step."""
    waiting = g.active()
    named = {who for who, _ in log[i:i + len(waiting)] if who is not None}
    return [x for x in waiting if x != me and x not in named]


class Determinizer:
    """Replays the public part of the view once; ``sample(rng)`` then returns a fresh world."""

    def __init__(self, view: dict, rng: random.Random, policy=None):
        self.view = view
        self.me = view["seat"]
        self.policy = policy        # policy(g, seat, rng) -> action, for sealed orders unseen
        log = view["log"]
        turns = [i for i, (who, action) in enumerate(log)
                 if who == CHANCE and action.startswith("turn ")]
        self.start = turns[-1] + 1 if turns else len(log)
        g = new(seed=0, options=view["options"])
        for i in range(self.start):
            who, action = log[i]
            if who is None:     # an earlier upset attempt, taken back unseen
                who = rng.choice(_group(g, log, i, self.me))
                hand = g.s["hands"][who]
                action = f"upset {rng.choice(hand)}"
            g._do(who, action)
        self.opening = g.to_dict()

    def sample(self, rng: random.Random, tries: int = 200) -> MrPresidentState:
        """A world consistent with the view; Inconsistent after ``tries`` proposals."""
        for _ in range(tries):
            g = MrPresidentState.from_dict(self.opening)
            final = self._final_cards(g, rng)
            if self._replay_round(g, final, rng) and self._shows_the_view(g):
                return g
        raise Inconsistent("no world shows this view")

    def _final_cards(self, g, rng) -> dict:
        """Each other candidate's cards laid this round as far as the view shows them, the face-down
        ones drawn from the hand he held when the round began."""
        out = {}
        for seat, play in self.view["plays"].items():
            if seat == self.me:
                out[seat] = list(play["cards"])
                continue
            known = list(play["cards"])
            rest = [c for c in g.s["hands"][seat] if c not in known]
            out[seat] = known + rng.sample(rest, play["face_down"])
        return out

    def _replay_round(self, g, final: dict, rng) -> bool:
        """The round's entries, the sealed ones proposed; False as soon as the world parts from
        the log (a proposal the real game did not take)."""
        log = self.view["log"]
        for i in range(self.start, len(log)):
            who, action = log[i]
            if who is None:
                group = _group(g, log, i, self.me)
                if not group or CHANCE in group:
                    return False
                who = rng.choice(group)
                action = self._propose(g, who, final, rng)
            if action not in g.legal_actions(who):
                return False
            g._do(who, action)
        return True

    def _propose(self, g, seat, final: dict, rng) -> str:
        step = g.top["step"]
        laid = g.s["plays"].get(seat, {}).get("cards", [])
        cards = final.get(seat)
        if cards is None:       # not laid yet as far as the view tells: any order he may give
            return self.policy(g, seat, rng) if self.policy \
                else rng.choice(g.legal_actions(seat))
        if step in ("lead", "play"):
            # the first two cards, in the order the edition writes them (the chalkboard's: low
            # first), or the first alone
            legal = g.legal_actions(seat)
            pairs = (f"play {cards[0]} {cards[1]}", f"play {cards[1]} {cards[0]}") \
                if len(cards) >= 2 else ()
            two = [a for a in pairs if a in legal]
            return two[0] if two and rng.random() < 0.5 else f"play {cards[0]}"
        verb = {"answer": "second", "upset": "upset", "stop": "stop"}[step]
        if len(cards) > len(laid):
            return f"{verb} {cards[len(laid)]}"
        if step == "upset" and rng.random() < 0.2 and g.s["hands"][seat]:
            return f"upset {rng.choice(g.s['hands'][seat])}"     # an attempt taken back
        return f"{verb} none"

    def _shows_the_view(self, g) -> bool:
        seen = g.view(self.me)
        return all(seen[key] == self.view[key] for key in CHECKED)
