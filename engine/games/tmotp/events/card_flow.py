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
from ..data import CARDS, ISSUES, SEAT_NAMES, STATES_BY_REGION, other
from ..flow import Step, step
from .common import add_support, beneficiary, choose, gain_issue, gain_momentum, lose_momentum, \
    place_support

MOST_DISCARDED = 12      # the longest 'discard' action (VERBS); hands never come near it


def _names(cards) -> str:
    return ", ".join(CARDS[c]["name"] for c in cards)


# --- taking a card from the discard pile -------------------------------------------------------

def pick_from_discard(g, seat: str, cards, key: str, text: str) -> None:
    """Let ``seat`` pick one of ``cards`` (all in the discard pile) or none (``take C`` /
    ``done``); the card (or None) is stored in the event frame under ``key``."""
    g.top[key] = None
    cards = sorted(set(cards))
    if cards:
        g.call("pick_discard", then="event_continue", seat=seat, cards=cards, key=key, text=text,
               card=g.top["card"])


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
        return f["text"]


def _take_into_hand(seat: str, key: str = "taken"):
    """A stage: the card picked from the discard pile goes into ``seat``'s hand."""
    def stage(g, f):
        cid = f.get(key)
        if cid is None:
            return
        g.s["discard"].remove(cid)
        g.s["hands"][seat].append(cid)
        g.s["hands"][seat].sort()
        g.note(f"{SEAT_NAMES[seat]} takes {CARDS[cid]['name']} back from the discard pile.")
    return stage


def _offer_any_discard(seat: str):
    def stage(g, f):
        pick_from_discard(g, seat, g.s["discard"], "taken",
                          f"{CARDS[f['card']]['name']}: you may take back any one card from the "
                          f"discard pile: take CARD, or done to take none.")
    return stage


# --- discarding and drawing ------------------------------------------------------------------

def discard_and_redraw(g, seat: str) -> None:
    """"May throw away as many cards from his hand as he wishes and then draw that many": one
    decision, ``discard C1 C2 ...`` (any cards of the hand, in increasing order) or ``done``."""
    if not g.s["hands"][seat]:
        g.note(f"{SEAT_NAMES[seat]} has no cards in hand to throw away.")
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
        if thrown:
            g.note(f"{SEAT_NAMES[seat]} throws away {_names(thrown)} and draws {len(thrown)} "
                   f"new card{'s' if len(thrown) > 1 else ''}.")
        else:
            g.note(f"{SEAT_NAMES[seat]} keeps his hand.")
        g.s["stack"][-2]["redraw"] = len(thrown)
        g.end()

    def prompt(self, g, f, seat):
        return (f"{CARDS[f['card']]['name']}: throw away any cards from your hand and draw as many "
                f"new ones: discard and the card numbers in increasing order, or done to keep "
                f"your hand.")


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
        g.note("Henry Cabot Lodge is not in the discard pile.")
    pick_from_discard(g, "nixon", cards, "taken",
                      "The Great Seal Bug: you may take Henry Cabot Lodge back from the discard "
                      "pile: take 42, or done to leave it.")


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
        g.note("High Hopes: no card is left to turn over.")
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
        g.note(f"High Hopes turns over {CARDS[cid]['name']}.")
        g.end()

    def prompt(self, g, f, seat):
        return "High Hopes: the top card of the campaign deck is turned over."


def _high_hopes_resolve(i):
    def stage(g, f):
        from . import event_playable, run_event
        revealed = f.get("revealed", [])
        if i >= len(revealed):
            return
        cid = revealed[i]
        name = CARDS[cid]["name"]
        if not _carries_kennedy_icon(cid):
            g.s["discard"].append(cid)
            g.note(f"{name} does not carry the Kennedy icon: it goes to the discard pile.")
        elif not event_playable(g, cid):
            g.s["discard"].append(cid)
            g.note(f"The event of {name} cannot be played now: the card goes to the discard pile.")
        else:
            g.note(f"{name} is carried out as though Kennedy had played it.")
            run_event(g, cid, by="kennedy", then="event_continue")
    return stage


# --- 39 Lyndon Johnson, 42 Henry Cabot Lodge, 61 Fatigue Sets In ------------------------------

def _refresh_candidate(seat: str):
    """A stage: an exhausted candidate card is turned back face up ("may": always taken, as an
    active candidate card only adds a choice)."""
    def stage(g, f):
        if g.s["exhausted"][seat]:
            g.s["exhausted"][seat] = False
            g.note(f"{SEAT_NAMES[seat]}'s candidate card is turned face up again.")
    return stage


def _lbj_ask_texas(g, f):
    choose(g, "kennedy", ["yes", "no"], "texas",
           "Lyndon Johnson: put 2 state support cubes into Texas? choose yes or choose no.")


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
        g.note(f"{SEAT_NAMES[victim]}'s candidate card is already exhausted.")
        return
    g.s["exhausted"][victim] = True
    g.note(f"{SEAT_NAMES[victim]}'s candidate card is turned to its Exhausted side.")


# --- 56 Opposition Research, 83 Whistlestop -----------------------------------------------

def _show_hand(g, f):
    """Kennedy shows his whole hand to Nixon: Nixon's view shows these cards (as they are now)
    until the end of the turn; nobody else sees them."""
    shown = [r for r in g.s.get("shown_hands", []) if r["turn"] == g.s["turn"]]
    shown.append({"turn": g.s["turn"], "seat": "kennedy", "to": "nixon",
                  "cards": sorted(g.s["hands"]["kennedy"])})
    g.s["shown_hands"] = shown
    g.note(f"Kennedy shows his hand of {len(g.s['hands']['kennedy'])} card(s) to Nixon.")


def _research_ask(g, f):
    choose(g, "nixon", ["campaign", "advertise", "position", "none"], "mode",
           "Opposition Research: spend 3 CP on one action: choose campaign, choose advertise or "
           "choose position; or choose none.")


def _research_cp(g, f):
    from ..campaign_points import start_cp_action
    mode = f.get("mode")
    if mode in (None, "none"):
        g.note("Nixon spends none of Opposition Research's 3 CP.")
        return
    g.note(f"Nixon spends Opposition Research's 3 CP ({mode}).")
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
        g.note("Tricky Dick: no card in the discard pile can be played as an event now.")
    pick_from_discard(g, "nixon", cards, "picked",
                      "Tricky Dick: pick a card from the discard pile to play at once as an event, "
                      "with no rest cubes: take CARD, or done to play none.")


def _tricky_play(g, f):
    from ..effects import event_momentum_cost, on_card_played
    from . import run_event
    cid = f.get("picked")
    if cid is None:
        return
    g.s["discard"].remove(cid)
    g.s["momentum"]["nixon"] -= event_momentum_cost(g, "nixon")
    on_card_played(g, "nixon", "event")
    g.note(f"Nixon plays {CARDS[cid]['name']} from the discard pile as an event.")
    run_event(g, cid, by="nixon", then="event_continue")


# --- 91 Political Capital, 94 A Low Blow ----------------------------------------------------

def _political_capital(g, f):
    g.note("Nixon draws 2 cards from the campaign deck.")
    deal(g, ["nixon", "nixon"], then="event_continue")


def _low_blow_condition(g, f):
    led = sum(1 for i in ISSUES if issue_leader(g.s, i) == "nixon")
    f["applies"] = led >= 2
    if not f["applies"]:
        g.note(f"Nixon leads {led} issue(s), fewer than two: A Low Blow has no effect.")
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
        ids = [_card_word(a) for a in args]
        for word, cid in zip(args, ids):
            if cid not in g.s["hands"][seat]:
                return f"You do not hold card {word}."
        if ids != sorted(set(ids)):
            return "Name each card once, in increasing order: e.g. discard 12 40."
        return None
    if f["step"] == "pick_discard":
        if verb not in ("take", "done"):
            return g.prompt(seat)
        cid = _card_word(args[0])
        if cid is None or cid not in g.s["discard"]:
            return f"Card {args[0]} is not in the discard pile."
        if f["card"] == 29:
            return "The Great Seal Bug lets you take back Henry Cabot Lodge only."
        return f"The event of {CARDS[cid]['name']} cannot be played now."
    return None
