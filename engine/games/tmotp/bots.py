"""Bots for 1960 (engine/bots): ``greedy``, rules of thumb with a one-step look at the board, and
``strong``, a Monte Carlo search over worlds consistent with the seat's view (determinize.py)
played on by the greedy bot and judged by evaluate.py. Both decide from the view only.

The greedy bot's rules of thumb:
- Activity Phase: the card with the most CP, for Campaigning (Advertising and Positioning a
  little behind); as an event only a card with its own candidate's icon; never the opponent's
  event, and a card with his icon costs a little for the trigger it offers him. The candidate
  card counts 5 CP less a point (it is spent once).
- Campaigning: one cube at a time where it adds most electoral votes per CP (the travel paid on
  the way counted), where a support check is needed at the bag's odds.
- Triggering: the event of a card with its own candidate's icon (or both icons).
- Campaign Strategy: for the Debates, cards with its own icon and the most CP (a card goes to
  the side of its icon); for Election Day, the cards whose states are the closest, richest
  contests, and there (Z-Man) the closest, richest contest resolved first.
- Debates: its best card for an issue still open, its weakest when none helps; its own side.
- Every other decision: each legal choice tried in the world, its chance steps drawn, and the
  board judged by evaluate.lead.
"""
from __future__ import annotations

import pickle
import random

from engine.core.protocol import CHANCE

from .campaign_points import travel_price
from .data import CARDS, STATES, other, sign
from .determinize import Determinizer
from .effects import support_check_needed
from .evaluate import lead, sharpness, state_worth, win_chance
from .state import TmotpState

MOST_TRIED = 24         # the one-step look tries at most this many choices (a random sample)
SETTLE = 40             # chance draws played out after a choice before it is judged
# The rule of thumb's preference among the ways to spend CP (subtracted from the card's CP).
MODE_COST = {"campaign": 0.0, "advertise": 1.0, "position": 0.8}


def copy_world(g) -> TmotpState:
    w = TmotpState(pickle.loads(pickle.dumps(g.s, protocol=pickle.HIGHEST_PROTOCOL)))
    w.records_notes = False
    return w


def draw_chance(g, rng) -> None:
    """Play the pending chance step with an outcome drawn from ``rng`` (the world's, not the
    game's seed: a world's future is a guess)."""
    actions, weights = g.chance_weights()
    g._do(CHANCE, rng.choices(actions, weights)[0])


def settle(g, rng) -> None:
    """Draw the chance steps that follow a choice (support checks, deals), a bounded number."""
    for _ in range(SETTLE):
        if g.active() != [CHANCE]:
            return
        draw_chance(g, rng)


def one_step(g, seat, actions, rng) -> str:
    """The choice whose board evaluate.lead judges best, its chance steps drawn alike for each
    choice (the same draws: common random numbers)."""
    if len(actions) > MOST_TRIED:
        actions = rng.sample(actions, MOST_TRIED)
    seed = rng.random()
    best, best_value = actions[0], None
    for a in actions:
        w = copy_world(g)
        w._do(seat, a)
        settle(w, random.Random(seed))
        value = lead(w.s, seat) + rng.random() * 1e-6
        if best_value is None or value > best_value:
            best, best_value = a, value
    return best


# --- rules of thumb --------------------------------------------------------------------------

def play_score(g, seat, action) -> float:
    """The Activity Phase rule of thumb's score of a legal play (higher is better)."""
    words = action.split()
    if words[0] == "pass":
        return -100.0
    if words[0] == "vp":
        return -5.0
    if words[1] == "candidate":
        return 4.0 - MODE_COST[words[2]]
    card = CARDS[int(words[1])]
    cp, icon, mode = card["cp"], card["icon"], words[2]
    if mode == "event":
        return cp + 1.0 if icon == seat else -10.0
    score = cp - MODE_COST[mode]
    if len(words) == 4:         # preempting costs two momentum markers
        return score - 4.0
    return score - 1.5 if icon == other(seat) else score


def campaign_choice(g, seat, legal) -> str:
    """Campaigning: the cube (or, where a support check is needed, the declaration) adding most
    electoral votes per CP, travel included."""
    s = g.s
    k = sharpness(s["turn"])
    bag = s["bag"][seat] + s["bag"][other(seat)]
    odds = s["bag"][seat] / bag if bag else 0.0
    best, best_score = "done", 0.0
    for a in legal:
        words = a.split()
        if words[0] != "campaign":
            continue
        st, n = words[1], int(words[2])
        travel = travel_price(g, seat, st)
        checks = support_check_needed(g, seat, st)
        if n != (min(3, g.top["cp"] - travel) if checks else 1):
            continue
        m = s["support"][st] * sign(seat)
        gained = n * odds if checks else n
        ev = STATES[st]["ev"]
        score = (state_worth(ev, m + gained, k) - state_worth(ev, m, k)) / (n + travel)
        if score > best_score:
            best, best_score = a, score
    return best         # "done" is always legal while Campaigning


def support_choice(g, seat, legal) -> str | None:
    """Placing or removing state support an event (or a Debate award) gives: the choice adding
    most electoral votes (removal takes the target's cubes, never past none); None when the
    step offers something else."""
    s = g.s
    k = sharpness(s["turn"])
    f = g.top
    target = f.get("target", other(seat))
    best, best_score = None, None
    for a in legal:
        words = a.split()
        if words[0] == "done":
            score = 0.0
        elif words[0] in ("support", "remove") and len(words) >= 2 and words[1] in STATES:
            st, n = words[1], int(words[2]) if len(words) == 3 else 1
            m = s["support"][st] * sign(seat)
            if words[0] == "support":
                after = m + n
            elif target == seat:        # an event making the seat take its own cubes
                after = m - min(n, max(m, 0))
            else:
                after = m + min(n, max(-m, 0))
            ev = STATES[st]["ev"]
            score = state_worth(ev, after, k) - state_worth(ev, m, k)
        else:
            return None
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


def strategy_score(g, seat, cid) -> float:
    """A Campaign Strategy card's worth: in the Debates its CP on its icon's side; on Election Day
    three support checks in its state, worth most in a close, rich contest."""
    card = CARDS[cid]
    if g.s["turn"] <= 5:
        return card["cp"] if card["icon"] in (seat, "both") else -card["cp"]
    st = card["state"]
    m = g.s["support"][st] * sign(seat)
    return STATES[st]["ev"] / (1.0 + abs(m))


def debate_score(g, seat, cid) -> float:
    card = CARDS[cid]
    tile = g.s["debate"]["tiles"][card["issue"]]
    if tile["won"] is not None or card["icon"] not in (seat, "both"):
        return -card["cp"]
    return card["cp"]


def greedy_action(g, seat, rng) -> str:
    """The greedy bot's choice for ``seat`` in the world ``g``."""
    legal = g.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    step = g.top["step"]
    if step == "activity":
        return max(legal, key=lambda a: (play_score(g, seat, a), rng.random()))
    if step == "campaigning":
        return campaign_choice(g, seat, legal)
    if step == "trigger":
        return "trigger" if CARDS[g.top["card"]]["icon"] in (seat, "both") else "pass"
    if step == "campaign_strategy":
        return max(legal, key=lambda a: (sum(strategy_score(g, seat, int(w))
                                             for w in a.split()[1:] if w.isdigit()), rng.random()))
    if step == "debate_round":
        return max(legal, key=lambda a: (debate_score(g, seat, int(a.split()[1])), rng.random()))
    if step == "election_day_strategy_order":
        # the closest, richest contest first, before the bag can run out
        return max(legal, key=lambda a: (strategy_score(g, seat, int(a.split()[1])),
                                         rng.random()))
    if step in ("debate_side", "debate_first", "choose_start_player"):
        mine = [a for a in legal if a.split()[-1] == seat]
        return mine[0] if mine else legal[0]
    if step == "redraw_check":
        return "choose redraw"
    if step in ("place_support", "remove_support", "debate_award"):
        choice = support_choice(g, seat, legal)
        if choice is not None:
            return choice
    return one_step(g, seat, legal, rng)


class GreedyBot:
    """The rules of thumb, in a world consistent with the view."""

    level = "greedy"

    def choose(self, view: dict, rng: random.Random) -> str:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        world = Determinizer(view).sample(rng)
        return greedy_action(world, view["seat"], rng)


# --- the search ------------------------------------------------------------------------------

SEARCHED = ("activity", "trigger", "debate_round")
MOST_CANDIDATES = 10    # the plays searched: the rule of thumb's best


def _candidates(g, seat, legal, rng) -> list:
    step = g.top["step"]
    if step != "activity" or len(legal) <= MOST_CANDIDATES:
        return list(legal)
    ranked = sorted(legal, key=lambda a: (play_score(g, seat, a), rng.random()), reverse=True)
    events = [a for a in legal if a.endswith(" event") and a not in ranked[:MOST_CANDIDATES]]
    return ranked[:MOST_CANDIDATES] + events[:3]


def _over(g, seat, start) -> bool:
    """A playout stops at the seat's next Activity play in a later phase (after a trigger
    decision, the one after its next play when the opponent led the phase), a new turn, or the
    Debates' end."""
    if not g.s["stack"]:
        return True
    if g.s["turn"] != start["turn"]:
        return True
    if start["step"] == "debate_round":
        return g.s["round"] != "debates"
    top = g.top
    return top["step"] == "activity" and top["seat"] == seat and g.s["phase"] != start["phase"]


class StrongBot:
    """Monte Carlo search over the Activity Phase plays (the rule of thumb's ten best and up to
    three events besides), the trigger decision and the Debate cards: each candidate is played
    in the same ``iterations // candidates`` worlds (at least two) consistent with the view,
    the game played on by the greedy bot on both sides to the seat's next play (or the turn's
    end, or the Debates' end), and the board judged by evaluate.win_chance; the best average
    wins. Every other decision is the greedy bot's."""

    level = "strong"

    def __init__(self, iterations: int = 32, most_steps: int = 300):
        self.iterations = iterations
        self.most_steps = most_steps

    def choose(self, view: dict, rng: random.Random) -> str:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        det = Determinizer(view)
        first = det.sample(rng)
        if first.top["step"] not in SEARCHED:
            return greedy_action(first, seat, rng)
        cands = _candidates(first, seat, legal, rng)
        per = max(2, self.iterations // len(cands))
        worlds = [first] + [det.sample(rng) for _ in range(per - 1)]
        seeds = [rng.random() for _ in worlds]
        start = {"turn": first.s["turn"], "phase": first.s["phase"], "step": first.top["step"]}
        scores = {}
        for a in cands:
            total = 0.0
            for w, seed in zip(worlds, seeds):
                total += self._playout(copy_world(w), seat, a, random.Random(seed), start)
            scores[a] = total / len(worlds)
        return max(cands, key=lambda a: (scores[a], -cands.index(a)))

    def _playout(self, g, seat, action, rng, start) -> float:
        g._do(seat, action)
        for _ in range(self.most_steps):
            if _over(g, seat, start):
                break
            active = g.active()
            if active == [CHANCE]:
                draw_chance(g, rng)
                continue
            for x in active:
                g._do(x, greedy_action(g, x, rng))
                if g.active() != active:
                    break
        return win_chance(g.s, seat)
