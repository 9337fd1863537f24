"""Why an action is refused, in the game's words (the legal choices are listed by the caller)."""
from .data import CARDS, ISSUE_NAMES, ISSUES, REGIONS, SEAT_NAMES, STATES, travel_cost
from .effects import campaign_momentum_cost, momentum_banned, preempt_cost

MODES = ("event", "campaign", "advertise", "position")


def _card_name(cid) -> str:
    return f"{CARDS[cid]['name']} (card {cid})"


def _int(word):
    return int(word) if word.isdigit() else None


def why_illegal(g, seat, action) -> str | None:
    """Return a specific reason ``action`` is refused for ``seat``, or None for the generic one."""
    active = g.active()
    if not active:
        return "The game is over."
    if seat not in active:
        return f"It is not {SEAT_NAMES.get(seat, seat)}'s decision now. {g.prompt(None)}"
    words = action.split()
    verb = words[0]
    args = [w.upper() if w.upper() in STATES else w.lower() for w in words[1:]]
    step = g.top["step"]
    handler = _BY_STEP.get(step)
    reason = handler(g, g.top, seat, verb, args) if handler else None
    return reason


def _play(g, f, seat, verb, args):
    if verb not in ("play", "vp", "pass"):
        return f"Now you play a card: {g.prompt(seat)}"
    if verb == "pass":
        return "You may pass only when you have no card to play."
    if verb == "vp":
        if not g.options["vp_cards"]:
            return "The Vice President cards optional rule is not in use in this game."
        if not g.s["vp_available"][seat]:
            return "You have already played your Vice President card."
        cid = _int(args[0])
        if cid not in g.s["hands"][seat]:
            return "To play your Vice President card, discard a card from your hand."
        return (f"{_card_name(cid)} does not show only your own candidate: it cannot be discarded for "
                f"your Vice President card.")
    which, mode = args[0], args[1]
    if mode not in MODES or (len(args) == 3 and args[2] != "preempt"):
        return "Play a card as 'event', 'campaign', 'advertise' or 'position', optionally with 'preempt'."
    if which == "candidate":
        if g.s["exhausted"][seat]:
            return "Your candidate card is exhausted."
        if mode == "event":
            return "Your candidate card has no event: play it for 5 CP."
    else:
        cid = _int(which)
        if cid not in CARDS:
            return f"There is no campaign card {which}."
        if "vp_card" in f and cid != f["vp_card"]:
            return f"You discarded a card for your Vice President card: now play {_card_name(f['vp_card'])}."
        if "vp_card" not in f and cid not in g.s["hands"][seat]:
            return f"You do not hold {_card_name(cid)}."
        if mode == "event" or len(args) == 3:
            from .events import EVENTS
            blockers = [p for p in g.s["persistent"]["prevention"] if cid in CARDS[p]["prevents"]]
            if blockers:
                return (f"The event of {_card_name(cid)} cannot be played: {CARDS[blockers[0]]['name']} "
                        f"is in effect.")
            if cid not in EVENTS:
                return (f"The event of {_card_name(cid)} is not available yet in Whistlestop; play "
                        f"the card for campaign points.")
    costs = []
    from .effects import event_momentum_cost
    if mode == "event" and event_momentum_cost(g, seat):
        costs.append((event_momentum_cost(g, seat), "Jackie Kennedy makes playing an event cost momentum"))
    if mode == "campaign" and campaign_momentum_cost(g, seat):
        costs.append((campaign_momentum_cost(g, seat), "Nixon's Knee makes Campaigning cost momentum"))
    if len(args) == 3:
        costs.append((preempt_cost(g, seat), "preempting an event costs momentum"))
    need = sum(n for n, _ in costs)
    if need and momentum_banned(g, seat):
        return f"{SEAT_NAMES[seat]} cannot spend momentum markers this turn."
    if need > g.s["momentum"][seat]:
        why = " and ".join(w for _, w in costs)
        return f"That needs {need} momentum marker(s) ({why}); you have {g.s['momentum'][seat]}."
    return None


def _state(word):
    return word if word in STATES else None


def _campaigning(g, f, seat, verb, args):
    if verb not in ("campaign", "travel", "done"):
        return f"You are Campaigning: {g.prompt(seat)}"
    st = _state(args[0]) if args else None
    if args and st is None:
        return f"There is no state '{args[0]}'; use the two-letter postal code, e.g. NY."
    token = g.s["tokens"][seat]
    cost = travel_cost(token, st)
    from .effects import campaign_barred, free_travel
    if free_travel(g, seat):
        cost = 0
    if verb == "travel":
        if STATES[st]["zone"] == STATES[token]["zone"]:
            return "Your token is already in that region; it moves there when you campaign in a state."
        if f.get("moved_free"):
            return ("Your travel is free this turn and you have just moved: campaign in a state, "
                    "or stop with 'done', before moving again.")
        return f"Travelling to {STATES[st]['name']} costs {cost} CP; you have {f['cp']}."
    if campaign_barred(g, seat, st):
        from .effects import campaign_bar_reason
        return campaign_bar_reason(g, seat, st)
    if st in f["declared"]:
        return (f"You already declared support checks in {STATES[st]['name']} this action: "
                f"the CP spent there are declared once.")
    n = _int(args[1])
    if not n:
        return "Campaign with a number of CP: e.g. 'campaign NY 2'."
    travel = f" plus {cost} CP of travel from {STATES[token]['name']}" if cost else ""
    return f"{n} CP in {STATES[st]['name']}{travel} is more than the {f['cp']} CP you have left."


def _positioning(g, f, seat, verb, args):
    if verb not in ("position", "done"):
        return f"You are Positioning on issues: {g.prompt(seat)}"
    issue = args[0]
    if issue not in ISSUES:
        return f"There is no issue '{issue}'; the issues are {', '.join(ISSUES)}."
    if g.options["restricted_positioning"] and f["card"] != "candidate" and \
            CARDS[f["card"]]["issue"] == issue:
        return f"Restricted Positioning: you may not add support to {ISSUE_NAMES[issue]}, this card's debate issue."
    price = 1 if f["bought"].get(issue, 0) == 0 else 2
    return f"Another cube in {ISSUE_NAMES[issue]} costs {price} CP; you have {f['cp']} left."


def _advertising(g, f, seat, verb, args):
    if verb != "media" or args[0] not in REGIONS:
        return f"Place your media support cube in a region: {', '.join(REGIONS)}."
    return None


def _strategy(g, f, seat, verb, args):
    from .strategy import required
    if verb != "strategy":
        return f"Now choose your Campaign Strategy cards: {g.prompt(seat)}"
    if seat in f.get("commits", {}):
        return "You have already placed your Campaign Strategy cards."
    ids = [_int(a) for a in args]
    for cid in ids:
        if cid not in g.s["hands"][seat]:
            return f"You do not hold card {args[ids.index(cid)]}." if cid is None or cid not in CARDS \
                else f"You do not hold {_card_name(cid)}."
        if not CARDS[cid]["campaign_strategy_allowed"]:
            return f"{CARDS[cid]['name']} may not be a Campaign Strategy card."
    return f"Place exactly {required(g)} different card(s), written in increasing order."


def _debate(g, f, seat, verb, args):
    if verb != "debate":
        return f"Choose a card for this Debate round: {g.prompt(seat)}"
    return "Reveal one of your remaining Campaign Strategy cards."


def _place_support(g, f, seat, verb, args):
    if verb not in ("support", "done"):
        return g.prompt(seat)
    if verb == "done":
        return f"You must place all {f['left']} state support cube(s) before you are done."
    st = _state(args[0])
    if st is None:
        return f"There is no state '{args[0]}'."
    if st not in f["allowed"]:
        return f"This event does not let you add support in {STATES[st]['name']}."
    return (f"At most {f['per_state']} per state and {f['left']} in all; "
            f"{f['placed'].get(st, 0)} already placed in {STATES[st]['name']}.")


def _remove_support(g, f, seat, verb, args):
    if verb not in ("remove", "done"):
        return g.prompt(seat)
    if verb == "done":
        return f"This removal is not optional: {g.prompt(seat)}"
    st = _state(args[0])
    if st is None or st not in f["allowed"]:
        return "This event does not let you remove support there."
    return f"{SEAT_NAMES[f['target']]} has no support cube there that you may still remove."


def _card_flow(g, f, seat, verb, args):
    from .events.card_flow import why_illegal as card_flow_reason
    return card_flow_reason(g, f, seat, verb, args)


_BY_STEP = {
    "activity": _play, "campaigning": _campaigning, "positioning": _positioning,
    "advertising": _advertising, "campaign_strategy": _strategy, "debate_round": _debate,
    "place_support": _place_support, "remove_support": _remove_support,
    "discard_redraw": _card_flow, "pick_discard": _card_flow,
}
