"""Card events that move cards (hands, deck, discard pile) or grant campaign points (issue 3).

27 Nelson Rockefeller, 29 The Great Seal Bug, 38 High Hopes, 39 Lyndon Johnson, 42 Henry Cabot
Lodge, 53 Campaign Headquarters, 56 Opposition Research, 57 A New Frontier, 58 Tricky Dick,
61 Fatigue Sets In, 66 Adlai Stevenson, 83 Whistlestop, 91 Political Capital, 94 A Low Blow.

Cards drawn from the campaign deck are chance steps (``bag.deal``, logged ``deal <seat> <card>``
and redacted for the opponent); cards High Hopes turns over face up are public chance steps
(``reveal deck <card>``). The discard pile is public, so taking a card from it is named in notes.
"""
from itertools import combinations

from ..bag import deal
from ..board import issue_leader
from ..data import CARDS, ISSUES, STATES_BY_REGION, other
from engine.core.messages import data

from ..flow import Step, step
from ..messages import msg
from .common import add_support, beneficiary, choose, gain_issue, gain_momentum, lose_momentum, \
    place_support, told

MOST_DISCARDED = 12      # the longest 'discard' action (VERBS); hands never come near it


# --- taking a card from the discard pile -------------------------------------------------------

def pick_from_discard(g, seat: str, cards, key: str, text: str) -> None:
    """Let ``seat`` pick one of ``cards`` (all in the discard pile) or none (``take C`` /
    ``done``); the card (or None) is stored in the event frame under ``key``. ``text``, the
    prompt, is a message (kept in the frame as its template and arguments)."""
    g.top[key] = None
    cards = sorted(set(cards))
    if cards:
        g.call("pick_discard", then="event_continue", seat=seat, cards=cards, key=key,
               text=data(text), card=g.top["card"])


@step
class PickDiscard(Step):
    name = "pick_discard"

    def actions(self, g, f, seat):
        return ["done"] + [f"take {c}" for c in f["cards"]]

    def do(self, g, f, seat, action):
        words = action.split()
        g.s["stack"][-2][f["key"]] = int(words[1]) if words[0] == "take" else None
        g.end()

    def prompt(self, g, f, seat):
        return told(f["text"])


def _take_into_hand(seat: str, key: str = "taken"):
    """A stage: the card picked from the discard pile goes into ``seat``'s hand."""
    def stage(g, f):
        cid = f.get(key)
        if cid is None:
            return
        g.s["discard"].remove(cid)
        g.s["hands"][seat].append(cid)
        g.s["hands"][seat].sort()
        g.note("{seat} takes {card} back from the discard pile.", seat=seat, card=cid)
    return stage


def _offer_any_discard(seat: str):
    def stage(g, f):
        pick_from_discard(g, seat, g.s["discard"], "taken",
                          msg("{card}: you may take back any one card from the discard pile, or "
                              "take none.", card=f["card"]))
    return stage


# --- discarding and drawing ------------------------------------------------------------------

def discard_and_redraw(g, seat: str) -> None:
    """"May throw away as many cards from his hand as he wishes and then draw that many": one
    decision, ``discard C1 C2 ...`` (any cards of the hand, in increasing order) or ``done``."""
    if not g.s["hands"][seat]:
        g.note("{seat} has no cards in hand to throw away.", seat=seat)
        return
    g.call("discard_redraw", then="event_continue", seat=seat, card=g.top["card"])


@step
class DiscardRedraw(Step):
    name = "discard_redraw"

    def actions(self, g, f, seat):
        hand = sorted(g.s["hands"][seat])
        out = ["done"]
        for k in range(1, min(len(hand), MOST_DISCARDED) + 1):
            out += ["discard " + " ".join(str(c) for c in combo) for combo in combinations(hand, k)]
        return out

    def do(self, g, f, seat, action):
        words = action.split()
        thrown = [int(w) for w in words[1:]] if words[0] == "discard" else []
        for cid in thrown:
            g.s["hands"][seat].remove(cid)
            g.s["discard"].append(cid)
        if len(thrown) > 1:
            g.note("{seat} throws away {cards} and draws {n} new cards.", seat=seat, cards=thrown,
                   n=len(thrown))
        elif thrown:
            g.note("{seat} throws away {card} and draws 1 new card.", seat=seat, card=thrown[0])
        else:
            g.note("{seat} keeps his hand.", seat=seat)
        g.s["stack"][-2]["redraw"] = len(thrown)
        g.end()

    def prompt(self, g, f, seat):
        return msg("{card}: throw away any cards from your hand and draw as many new ones, or "
                   "keep your hand.", card=f["card"])


def _discard_stage(seat_of):
    """Stages of "throw away ... and draw that many" for the seat ``seat_of(frame)`` names:
    the player for Campaign Headquarters, Kennedy for A New Frontier and A Low Blow."""
    def stage(g, f):
        discard_and_redraw(g, seat_of(f))
    return stage


def _redraw_stage(seat_of):
    def stage(g, f):
        n = f.pop("redraw", 0)
        if n:
            deal(g, [seat_of(f)] * n, then="event_continue")
    return stage


# 27 Nelson Rockefeller (Nixon): Nixon adds 1 state support to New York; he may also take back
# any one card of his choice from the discard pile.
def _rockefeller_ny(g, f):
    add_support(g, "nixon", "NY", 1)


# 66 Adlai Stevenson (Kennedy): the same for Kennedy in Illinois.
def _stevenson_il(g, f):
    add_support(g, "kennedy", "IL", 1)


# 29 The Great Seal Bug (Nixon): Nixon +1 Defense issue support; if Henry Cabot Lodge is in the
# discard pile, Nixon may take it back.
HENRY_CABOT_LODGE = 42


def _seal_bug_issue(g, f):
    gain_issue(g, "nixon", "defense", 1)


def _seal_bug_offer(g, f):
    cards = [HENRY_CABOT_LODGE] if HENRY_CABOT_LODGE in g.s["discard"] else []
    if not cards:
        g.note("{card} is not in the discard pile.", card=HENRY_CABOT_LODGE)
    pick_from_discard(g, "nixon", cards, "taken",
                      msg("{card}: you may take {card_taken} back from the discard pile, or leave "
                          "it.", card=f["card"], card_taken=HENRY_CABOT_LODGE))


# --- 38 High Hopes -------------------------------------------------------------------------

def _carries_kennedy_icon(cid) -> bool:
    """A card with both candidates' icons carries the Kennedy icon too (the Vice President rule
    speaks of a card featuring "only his own candidate icon" as the narrower case)."""
    return CARDS[cid]["icon"] in ("kennedy", "both")


def _reveal(g, f):
    """Turn over the top card of the deck (a chance step); an empty deck is first reformed from
    the discards, as when dealing (Initiative Phase, New Cards)."""
    if not g.s["deck"] and g.s["discard"]:
        g.s["deck"] = sorted(g.s["discard"])
        g.s["discard"] = []
        g.note("The campaign deck is empty: the discards are shuffled into a new deck.")
    if not g.s["deck"]:
        g.note("{card}: no card is left to turn over.", card=f["card"])
        return
    f.setdefault("revealed", [])
    g.call("high_hopes_reveal", then="event_continue", card=f["card"])


@step
class HighHopesReveal(Step):
    name = "high_hopes_reveal"
    chance = True

    def outcomes(self, g, f):
        return [(f"reveal deck {c}", 1) for c in g.s["deck"]]

    def do(self, g, f, seat, action):
        cid = int(action.split()[2])
        g.s["deck"].remove(cid)
        g.s["stack"][-2]["revealed"].append(cid)
        g.note("{card} turns over {card_turned}.", card=f["card"], card_turned=cid)
        g.end()

    def prompt(self, g, f, seat):
        return msg("{card}: the top card of the campaign deck is turned over.", card=f["card"])


def _high_hopes_resolve(i):
    def stage(g, f):
        from . import event_playable, run_event
        revealed = f.get("revealed", [])
        if i >= len(revealed):
            return
        cid = revealed[i]
        if not _carries_kennedy_icon(cid):
            g.s["discard"].append(cid)
            g.note("{card} does not carry the {seat} icon: it goes to the discard pile.", card=cid,
                   seat="kennedy")
        elif not event_playable(g, cid):
            g.s["discard"].append(cid)
            g.note("The event of {card} cannot be played now: the card goes to the discard pile.",
                   card=cid)
        else:
            g.note("{card} is carried out as though {seat} had played it.", card=cid,
                   seat="kennedy")
            run_event(g, cid, by="kennedy", then="event_continue")
    return stage


# --- 39 Lyndon Johnson, 42 Henry Cabot Lodge, 61 Fatigue Sets In ------------------------------

def _refresh_candidate(seat: str):
    """A stage: an exhausted candidate card is turned back face up ("may": always taken, as an
    active candidate card only adds a choice)."""
    def stage(g, f):
        if g.s["exhausted"][seat]:
            g.s["exhausted"][seat] = False
            g.note("{seat}'s candidate card is turned face up again.", seat=seat)
    return stage


def _lbj_ask_texas(g, f):
    choose(g, "kennedy", ["yes", "no"], "texas",
           msg("{card}: put 2 state support cubes into {state}? choose yes or choose no.",
               card=f["card"], state="TX"))


def _lbj_texas(g, f):
    if f.get("texas") == "yes":
        add_support(g, "kennedy", "TX", 2)


def _lbj_south(g, f):
    place_support(g, "kennedy", 3, 2, STATES_BY_REGION["south"])


def _hcl_massachusetts(g, f):
    add_support(g, "nixon", "MA", 2)


def _hcl_defense(g, f):
    gain_issue(g, "nixon", "defense", 2)


def _fatigue(g, f):
    victim = other(f["by"])
    if g.s["exhausted"][victim]:
        g.note("{seat}'s candidate card is already exhausted.", seat=victim)
        return
    g.s["exhausted"][victim] = True
    g.note("{seat}'s candidate card is turned to its Exhausted side.", seat=victim)


# --- 56 Opposition Research, 83 Whistlestop -----------------------------------------------

def _show_hand(g, f):
    """Kennedy shows his whole hand to Nixon: Nixon's view shows these cards (as they are now)
    until the end of the turn; nobody else sees them."""
    shown = [r for r in g.s.get("shown_hands", []) if r["turn"] == g.s["turn"]]
    shown.append({"turn": g.s["turn"], "seat": "kennedy", "to": "nixon",
                  "cards": sorted(g.s["hands"]["kennedy"])})
    g.s["shown_hands"] = shown
    g.note("{seat} shows his hand of {n} card(s) to {seat_to}.", seat="kennedy",
           n=len(g.s["hands"]["kennedy"]), seat_to="nixon")


def _research_ask(g, f):
    choose(g, "nixon", ["campaign", "advertise", "position", "none"], "mode",
           msg("{card}: spend 3 CP on one action: choose campaign, choose advertise or choose "
               "position; or choose none.", card=f["card"]))


def _research_cp(g, f):
    from ..campaign_points import start_cp_action
    mode = f.get("mode")
    if mode in (None, "none"):
        g.note("{seat} spends none of {card}'s 3 CP.", seat="nixon", card=f["card"])
        return
    if mode == "campaign":
        g.note("{seat} spends {card}'s 3 CP on Campaigning.", seat="nixon", card=f["card"])
    elif mode == "advertise":
        g.note("{seat} spends {card}'s 3 CP on Advertising.", seat="nixon", card=f["card"])
    else:
        g.note("{seat} spends {card}'s 3 CP on Positioning.", seat="nixon", card=f["card"])
    start_cp_action(g, "nixon", f["card"], mode, False, then="event_continue", cp=3)
    _mark_from_event(g, f)


def _mark_from_event(g, f):
    """The CP come from the event, not from the card's CP value: Restricted Positioning "does not
    affect Issue Support granted by Events"."""
    if g.s["stack"] and g.top is not f and g.top.get("step") == "positioning":
        g.top["from_event"] = True


def _whistlestop(g, f):
    from ..campaign_points import start_cp_action
    start_cp_action(g, f["by"], f["card"], "campaign", False, then="event_continue", cp=7,
                    max_per_state=1)


# --- 58 Tricky Dick ------------------------------------------------------------------------

def _tricky_momentum(g, f):
    lose_momentum(g, "nixon", 1)


def _tricky_choices(g):
    from ..effects import event_momentum_cost
    from ..turn import can_spend_momentum
    from . import event_playable
    cost = event_momentum_cost(g, "nixon")
    if not can_spend_momentum(g, "nixon", cost):
        return []
    return [c for c in g.s["discard"] if event_playable(g, c)]


def _tricky_offer(g, f):
    cards = _tricky_choices(g)
    if not cards:
        g.note("{card}: no card in the discard pile can be played as an event now.",
               card=f["card"])
    pick_from_discard(g, "nixon", cards, "picked",
                      msg("{card}: pick a card from the discard pile to play at once as an event, "
                          "with no rest cubes, or play none.", card=f["card"]))


def _tricky_play(g, f):
    from ..effects import event_momentum_cost, on_card_played
    from . import run_event
    cid = f.get("picked")
    if cid is None:
        return
    g.s["discard"].remove(cid)
    g.s["momentum"]["nixon"] -= event_momentum_cost(g, "nixon")
    on_card_played(g, "nixon", "event")
    g.note("{seat} plays {card} from the discard pile as an event.", seat="nixon", card=cid)
    run_event(g, cid, by="nixon", then="event_continue")


# --- 91 Political Capital, 94 A Low Blow ----------------------------------------------------

def _political_capital(g, f):
    g.note("{seat} draws 2 cards from the campaign deck.", seat="nixon")
    deal(g, ["nixon", "nixon"], then="event_continue")


def _low_blow_condition(g, f):
    led = sum(1 for i in ISSUES if issue_leader(g.s, i) == "nixon")
    f["applies"] = led >= 2
    if not f["applies"]:
        g.note("{seat} leads {n} issue(s), fewer than two: {card} has no effect.", seat="nixon",
               n=led, card=f["card"])
        return
    gain_momentum(g, "kennedy")


def _low_blow_discard(g, f):
    if f["applies"]:
        discard_and_redraw(g, "kennedy")


EVENTS = {
    27: (_rockefeller_ny, _offer_any_discard("nixon"), _take_into_hand("nixon")),
    29: (_seal_bug_issue, _seal_bug_offer, _take_into_hand("nixon")),
    38: (_reveal, _reveal, _high_hopes_resolve(0), _high_hopes_resolve(1)),
    39: (_lbj_ask_texas, _lbj_texas, _lbj_south, _refresh_candidate("kennedy")),
    42: (_hcl_massachusetts, _hcl_defense, _refresh_candidate("nixon")),
    53: (_discard_stage(beneficiary), _redraw_stage(beneficiary)),
    56: (_show_hand, _research_ask, _research_cp),
    57: (_discard_stage(beneficiary), _redraw_stage(beneficiary)),
    58: (_tricky_momentum, _tricky_offer, _tricky_play),
    61: (_fatigue,),
    66: (_stevenson_il, _offer_any_discard("kennedy"), _take_into_hand("kennedy")),
    83: (_whistlestop,),
    91: (_political_capital,),
    94: (_low_blow_condition, _low_blow_discard, _redraw_stage(beneficiary)),
}


# --- refusals (reasons.py asks here for this module's steps) ----------------------------------

def _card_word(word: str):
    return int(word) if word.isdigit() and int(word) in CARDS else None


def why_illegal(g, f, seat, verb, args) -> str | None:
    """Why an action is refused at a step of this module, in the game's words (or None)."""
    if f["step"] == "discard_redraw":
        if verb not in ("discard", "done"):
            return g.prompt(seat)
        if verb == "done":
            return None if not args else g.prompt(seat)
        ids = [_card_word(a) for a in args]
        for word, cid in zip(args, ids):
            if cid not in g.s["hands"][seat]:
                return msg("You do not hold card {word}.", word=word)
        if ids != sorted(set(ids)):
            return msg("Name each card once, in increasing order: e.g. discard 12 40.")
        return None
    if f["step"] == "pick_discard":
        if verb not in ("take", "done"):
            return g.prompt(seat)
        if verb == "done":
            return None
        cid = _card_word(args[0]) if args else None
        if cid is None or cid not in g.s["discard"]:
            return msg("Card {word} is not in the discard pile.", word=args[0] if args else "")
        if cid in f["cards"]:
            return None
        if f["card"] == 29:
            return msg("{card} lets you take back {card_taken} only.", card=29,
                       card_taken=HENRY_CABOT_LODGE)
        return msg("The event of {card} cannot be played now.", card=cid)
    return None
