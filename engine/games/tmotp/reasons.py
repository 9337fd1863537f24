"""Why an action is refused, in the game's words (the legal choices are listed by the caller)."""
from .data import CARDS, ISSUES, REGIONS, STATES, travel_cost
from .effects import (JACKIE_KENNEDY, NIXONS_KNEE, campaign_momentum_cost, momentum_banned,
                      preempt_cost)
from .messages import msg

MODES = ("event", "campaign", "advertise", "position")


def _int(word):
    return int(word) if word.isdigit() else None


def why_illegal(g, seat, action) -> str | None:
    """Return a specific reason ``action`` is refused for ``seat``, or None for the generic one."""
    active = g.active()
    if not active:
        return msg("The game is over.")
    if seat not in active:
        return msg("It is not {seat}'s decision now. {prompt}", seat=seat, prompt=g.prompt(None))
    words = action.split()
    verb = words[0]
    args = [w.upper() if w.upper() in STATES else w.lower() for w in words[1:]]
    step = g.top["step"]
    handler = _BY_STEP.get(step)
    reason = handler(g, g.top, seat, verb, args) if handler else None
    return reason


def _play(g, f, seat, verb, args):
    if verb not in ("play", "vp", "pass"):
        return msg("Now you play a card: {prompt}", prompt=g.prompt(seat))
    if verb == "pass":
        return msg("You may pass only when you have no card to play.")
    if verb == "vp":
        if not g.options["vp_cards"]:
            return msg("The Vice President cards optional rule is not in use in this game.")
        if not g.s["vp_available"][seat]:
            return msg("You have already played your Vice President card.")
        cid = _int(args[0])
        if cid not in g.s["hands"][seat]:
            return msg("To play your Vice President card, discard a card from your hand.")
        return msg("{card} (card {cid}) does not show only your own candidate: it cannot be "
                   "discarded for your Vice President card.", card=cid, cid=cid)
    which, mode = args[0], args[1]
    if mode not in MODES or (len(args) == 3 and args[2] != "preempt"):
        return msg("Play a card as 'event', 'campaign', 'advertise' or 'position', optionally with "
                   "'preempt'.")
    if which == "candidate":
        if g.s["exhausted"][seat]:
            return msg("Your candidate card is exhausted.")
        if mode == "event":
            return msg("Your candidate card has no event: play it for 5 CP.")
    else:
        cid = _int(which)
        if cid not in CARDS:
            return msg("There is no campaign card {which}.", which=which)
        if "vp_card" in f and cid != f["vp_card"]:
            return msg("You discarded a card for your Vice President card: now play {card} "
                       "(card {cid}).", card=f["vp_card"], cid=f["vp_card"])
        if "vp_card" not in f and cid not in g.s["hands"][seat]:
            return msg("You do not hold {card} (card {cid}).", card=cid, cid=cid)
        if mode == "event" or len(args) == 3:
            from .events import EVENTS
            blockers = [p for p in g.s["persistent"]["prevention"] if cid in CARDS[p]["prevents"]]
            if blockers:
                return msg("The event of {card} (card {cid}) cannot be played: {card_blocker} "
                           "is in effect.", card=cid, cid=cid, card_blocker=blockers[0])
            if cid not in EVENTS:
                return msg("The event of {card} (card {cid}) is not available yet in "
                           "Whistlestop; play the card for campaign points.", card=cid, cid=cid)
    from .effects import event_momentum_cost
    event_cost = event_momentum_cost(g, seat) if mode == "event" else 0
    campaign_cost = campaign_momentum_cost(g, seat) if mode == "campaign" else 0
    preempt = preempt_cost(g, seat) if len(args) == 3 else 0
    need = event_cost + campaign_cost + preempt
    if need and momentum_banned(g, seat):
        return msg("{seat} cannot spend momentum markers this turn.", seat=seat)
    have = g.s["momentum"][seat]
    if need > have:
        costs = [cost for cost in (
            event_cost and msg("{card} makes playing an event cost momentum", card=JACKIE_KENNEDY),
            campaign_cost and msg("{card} makes Campaigning cost momentum", card=NIXONS_KNEE),
            len(args) == 3 and msg("preempting an event costs momentum")) if cost]
        # A card is played either as an event or for CP: at most two of the three apply.
        why = costs[0] if len(costs) == 1 else msg("{reason} and {reason_more}", reason=costs[0],
                                                   reason_more=costs[1])
        return msg("That needs {n} momentum marker(s) ({reason}); you have {have}.", n=need,
                   reason=why, have=have)
    return None


def _state(word):
    return word if word in STATES else None


def _campaigning(g, f, seat, verb, args):
    if verb not in ("campaign", "travel", "done"):
        return msg("You are Campaigning: {prompt}", prompt=g.prompt(seat))
    st = _state(args[0]) if args else None
    if args and st is None:
        return msg("There is no state '{word}'; use the two-letter postal code, e.g. NY.",
                   word=args[0])
    token = g.s["tokens"][seat]
    cost = travel_cost(token, st)
    from .effects import campaign_barred, free_travel
    if free_travel(g, seat):
        cost = 0
    if verb == "travel":
        if STATES[st]["zone"] == STATES[token]["zone"]:
            return msg("Your token is already in that region; it moves there when you campaign in "
                       "a state.")
        if f.get("moved_free"):
            return msg("Your travel is free this turn and you have just moved: campaign in a "
                       "state, or stop with 'done', before moving again.")
        return msg("Travelling to {state} costs {cost} CP; you have {cp}.", state=st, cost=cost,
                   cp=f["cp"])
    if campaign_barred(g, seat, st):
        from .effects import campaign_bar_reason
        return campaign_bar_reason(g, seat, st)
    if st in f["declared"]:
        return msg("You already declared support checks in {state} this action: the CP spent "
                   "there are declared once.", state=st)
    n = _int(args[1])
    if not n:
        return msg("Campaign with a number of CP: e.g. 'campaign NY 2'.")
    if cost:
        return msg("{n} CP in {state} plus {cost} CP of travel from {state_from} is more than the "
                   "{cp} CP you have left.", n=n, state=st, cost=cost, state_from=token,
                   cp=f["cp"])
    return msg("{n} CP in {state} is more than the {cp} CP you have left.", n=n, state=st,
               cp=f["cp"])


def _positioning(g, f, seat, verb, args):
    if verb not in ("position", "done"):
        return msg("You are Positioning on issues: {prompt}", prompt=g.prompt(seat))
    issue = args[0]
    if issue not in ISSUES:
        return msg("There is no issue '{word}'; the issues are {choices}.", word=issue,
                   choices=", ".join(ISSUES))
    if g.options["restricted_positioning"] and f["card"] != "candidate" and \
            CARDS[f["card"]]["issue"] == issue:
        return msg("Restricted Positioning: you may not add support to {issue}, this card's "
                   "debate issue.", issue=issue)
    price = 1 if f["bought"].get(issue, 0) == 0 else 2
    return msg("Another cube in {issue} costs {price} CP; you have {cp} left.", issue=issue,
               price=price, cp=f["cp"])


def _advertising(g, f, seat, verb, args):
    if verb != "media" or args[0] not in REGIONS:
        return msg("Place your media support cube in a region: {choices}.",
                   choices=", ".join(REGIONS))
    return None


def _strategy(g, f, seat, verb, args):
    from .strategy import required
    if verb != "strategy":
        return msg("Now choose your Campaign Strategy cards: {prompt}", prompt=g.prompt(seat))
    if seat in f.get("commits", {}):
        return msg("You have already placed your Campaign Strategy cards.")
    ids = [_int(a) for a in args]
    for cid in ids:
        if cid not in g.s["hands"][seat]:
            if cid is None or cid not in CARDS:
                return msg("You do not hold card {which}.", which=args[ids.index(cid)])
            return msg("You do not hold {card} (card {cid}).", card=cid, cid=cid)
        if not CARDS[cid]["campaign_strategy_allowed"]:
            return msg("{card} may not be a Campaign Strategy card.", card=cid)
    return msg("Place exactly {n} different card(s), written in increasing order.", n=required(g))


def _debate(g, f, seat, verb, args):
    if verb != "debate":
        return msg("Choose a card for this Debate round: {prompt}", prompt=g.prompt(seat))
    return msg("Reveal one of your remaining Campaign Strategy cards.")


def _place_support(g, f, seat, verb, args):
    if verb not in ("support", "done"):
        return g.prompt(seat)
    if verb == "done":
        return msg("You must place all {left} state support cube(s) before you are done.",
                   left=f["left"])
    st = _state(args[0])
    if st is None:
        return msg("There is no state '{word}'.", word=args[0])
    if st not in f["allowed"]:
        return msg("This event does not let you add support in {state}.", state=st)
    return msg("At most {per_state} per state and {left} in all; {placed} already placed in "
               "{state}.", per_state=f["per_state"], left=f["left"],
               placed=f["placed"].get(st, 0), state=st)


def _remove_support(g, f, seat, verb, args):
    if verb not in ("remove", "done"):
        return g.prompt(seat)
    if verb == "done":
        return msg("This removal is not optional: {prompt}", prompt=g.prompt(seat))
    st = _state(args[0])
    if st is None or st not in f["allowed"]:
        return msg("This event does not let you remove support there.")
    return msg("{seat} has no support cube there that you may still remove.", seat=f["target"])


def _card_flow(g, f, seat, verb, args):
    from .events.card_flow import why_illegal as card_flow_reason
    return card_flow_reason(g, f, seat, verb, args)


_BY_STEP = {
    "activity": _play, "campaigning": _campaigning, "positioning": _positioning,
    "advertising": _advertising, "campaign_strategy": _strategy, "debate_round": _debate,
    "place_support": _place_support, "remove_support": _remove_support,
    "discard_redraw": _card_flow, "pick_discard": _card_flow,
}
