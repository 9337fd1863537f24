"""Why an action is refused, in the game's words (the legal choices are listed by the caller)."""
from .data import CARDS, ISSUES, REGIONS, STATES, travel_cost
from .effects import (JACKIE_KENNEDY, NIXONS_KNEE, campaign_momentum_cost, momentum_banned,
                      preempt_cost)
from .messages import msg

MODES = ("event", "campaign", "advertise", "position")


def _int(word):
    return int(word) if word.isdigit() else None


def why_illegal(g, seat, action) -> str | None:
    """Return a specific reason ``action`` is refused for ``seat``, or None when the step's
    checks find nothing wrong with it (then the action is legal: tests/engine/
    test_reasons_agree.py holds the checks to ``legal_actions`` both ways)."""
    active = g.active()
    if not active:
        return msg("The game is over.")
    if seat not in active:
        return msg("It is not {seat}'s decision now. {prompt}", seat=seat, prompt=g.prompt(None))
    words = action.split()
    verb = words[0].lower()
    args = [w.upper() if w.upper() in STATES else w.lower() for w in words[1:]]
    handler = _BY_STEP.get(g.top["step"], _choices)
    return handler(g, g.top, seat, verb, args)


def _choices(g, f, seat, verb, args):
    """A step with no checks of its own: the action is one of the legal choices, or it is not."""
    given = " ".join([verb, *args])
    if given in g.legal_actions(seat):
        return None
    return msg("'{action}' is not allowed now: {prompt}", action=given, prompt=g.prompt(seat))


def _play(g, f, seat, verb, args):
    if verb not in ("play", "vp", "pass"):
        return msg("Now you play a card: {prompt}", prompt=g.prompt(seat))
    if verb == "pass":
        if g.legal_actions(seat) != ["pass"]:
            return msg("You may pass only when you have no card to play.")
        return None
    if "vp_card" not in f:
        from .strategy import required
        from .turn import keeping_strategy_cards, play_actions
        plays = play_actions(g, seat, g.s["hands"][seat], allow_vp=True)
        given = " ".join([verb, *args])
        if given in plays and given not in keeping_strategy_cards(g, seat, plays):
            if required(g) == 1:
                return msg("You must keep a card you can commit as your Campaign Strategy card "
                           "(not a Gathering Momentum card) until the Campaign Strategy Phase.")
            return msg("You must keep {n} cards you can commit as your Campaign Strategy cards "
                       "(not Gathering Momentum cards) until the Campaign Strategy Phase.",
                       n=required(g))
    if verb == "vp":
        return _vp(g, f, seat, args)
    if len(args) < 2:
        return msg("Play a card as 'event', 'campaign', 'advertise' or 'position', optionally with "
                   "'preempt'.")
    which, mode = args[0], args[1]
    preempt = len(args) == 3
    if mode not in MODES or (preempt and args[2] != "preempt"):
        return msg("Play a card as 'event', 'campaign', 'advertise' or 'position', optionally with "
                   "'preempt'.")
    if preempt and mode == "event":
        return msg("Preempting is for a card played for campaign points: its event then cannot "
                   "be triggered.")
    if which == "candidate":
        if "vp_card" in f:
            return msg("You discarded a card for your Vice President card: now play {card} "
                       "(card {cid}).", card=f["vp_card"], cid=f["vp_card"])
        if g.s["exhausted"][seat]:
            return msg("Your candidate card is exhausted.")
        if mode == "event":
            return msg("Your candidate card has no event: play it for 5 CP.")
        if preempt:
            return msg("Your candidate card has no event to preempt.")
    else:
        cid = _int(which)
        if cid not in CARDS:
            return msg("There is no campaign card {which}.", which=which)
        if "vp_card" in f and cid != f["vp_card"]:
            return msg("You discarded a card for your Vice President card: now play {card} "
                       "(card {cid}).", card=f["vp_card"], cid=f["vp_card"])
        if "vp_card" not in f and cid not in g.s["hands"][seat]:
            return msg("You do not hold {card} (card {cid}).", card=cid, cid=cid)
        if mode == "event" or preempt:
            from .events import EVENTS
            blockers = [p for p in g.s["persistent"]["prevention"] if cid in CARDS[p]["prevents"]]
            if blockers:
                return msg("The event of {card} (card {cid}) cannot be played: {card_blocker} "
                           "is in effect.", card=cid, cid=cid, card_blocker=blockers[0])
            if cid not in EVENTS:
                return msg("The event of {card} (card {cid}) is not available yet in "
                           "Whistlestop; play the card for campaign points.", card=cid, cid=cid)
    return _momentum(g, seat, mode, preempt)


def _vp(g, f, seat, args):
    if "vp_card" in f:
        return msg("You discarded a card for your Vice President card: now play {card} "
                   "(card {cid}).", card=f["vp_card"], cid=f["vp_card"])
    if not g.options["vp_cards"]:
        return msg("The Vice President cards optional rule is not in use in this game.")
    if not g.s["vp_available"][seat]:
        return msg("You have already played your Vice President card.")
    cid = _int(args[0])
    if cid not in g.s["hands"][seat]:
        return msg("To play your Vice President card, discard a card from your hand.")
    if CARDS[cid]["icon"] != seat:
        return msg("{card} (card {cid}) does not show only your own candidate: it cannot be "
                   "discarded for your Vice President card.", card=cid, cid=cid)
    return None


def _momentum(g, seat, mode, preempt):
    from .effects import event_momentum_cost
    event_cost = event_momentum_cost(g, seat) if mode == "event" else 0
    campaign_cost = campaign_momentum_cost(g, seat) if mode == "campaign" else 0
    preempt_need = preempt_cost(g, seat) if preempt else 0
    need = event_cost + campaign_cost + preempt_need
    if need and momentum_banned(g, seat):
        return msg("{seat} cannot spend momentum markers this turn.", seat=seat)
    have = g.s["momentum"][seat]
    if need > have:
        costs = [cost for cost in (
            event_cost and msg("{card} makes playing an event cost momentum", card=JACKIE_KENNEDY),
            campaign_cost and msg("{card} makes Campaigning cost momentum", card=NIXONS_KNEE),
            preempt and msg("preempting an event costs momentum")) if cost]
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
    if verb == "done":
        return None if not args else g.prompt(seat)
    if len(args) != (1 if verb == "travel" else 2):
        return g.prompt(seat)
    st = _state(args[0])
    if st is None:
        return msg("There is no state '{word}'; use the two-letter postal code, e.g. NY.",
                   word=args[0])
    from .campaign_points import travel_price
    token = g.s["tokens"][seat]
    cost = travel_price(g, seat, st)
    if verb == "travel":
        if STATES[st]["zone"] == STATES[token]["zone"]:
            return msg("Your token is already in that region; it moves there when you campaign in "
                       "a state.")
        if f.get("moved_free"):
            return msg("Your travel is free this turn and you have just moved: campaign in a "
                       "state, or stop, before moving again.")
        if cost > f["cp"]:
            return msg("Travelling to {state} costs {cost} CP; you have {cp}.", state=st,
                       cost=cost, cp=f["cp"])
        return None
    from .effects import campaign_bar_reason
    barred = campaign_bar_reason(g, seat, st)
    if barred:
        return barred
    if st in f["declared"]:
        return msg("You already declared support checks in {state} this action: the CP spent "
                   "there are declared once.", state=st)
    n = _int(args[1])
    if not n:
        return msg("Campaign with a number of CP: e.g. 'campaign NY 2'.")
    if f.get("max_per_state") and n > f["max_per_state"] - f["spent"].get(st, 0):
        return msg("{card} allows at most {n} CP in any one state; {spent} already spent in "
                   "{state}.", card=f["card"], n=f["max_per_state"],
                   spent=f["spent"].get(st, 0), state=st)
    if n + cost > f["cp"]:
        if cost:
            return msg("{n} CP in {state} plus {cost} CP of travel from {state_from} is more than "
                       "the {cp} CP you have left.", n=n, state=st, cost=cost, state_from=token,
                       cp=f["cp"])
        return msg("{n} CP in {state} is more than the {cp} CP you have left.", n=n, state=st,
                   cp=f["cp"])
    return None


def _positioning(g, f, seat, verb, args):
    if verb not in ("position", "done"):
        return msg("You are Positioning on issues: {prompt}", prompt=g.prompt(seat))
    if verb == "done":
        return None if not args else g.prompt(seat)
    if len(args) != 1:
        return g.prompt(seat)
    issue = args[0]
    if issue not in ISSUES:
        return msg("There is no issue '{word}'; the issues are {choices}.", word=issue,
                   choices=", ".join(ISSUES))
    if g.options["restricted_positioning"] and f["card"] in CARDS and not f.get("from_event") \
            and CARDS[f["card"]]["issue"] == issue:
        return msg("Restricted Positioning: you may not add support to {issue}, this card's "
                   "debate issue.", issue=issue)
    price = 1 if f["bought"].get(issue, 0) == 0 else 2
    if price > f["cp"]:
        return msg("Another cube in {issue} costs {price} CP; you have {cp} left.", issue=issue,
                   price=price, cp=f["cp"])
    return None


def _advertising(g, f, seat, verb, args):
    if verb != "media" or len(args) != 1 or args[0] not in REGIONS:
        return msg("Place your media support cube in a region: {choices}.",
                   choices=", ".join(REGIONS))
    return None


def _strategy(g, f, seat, verb, args):
    from .strategy import strategy_choices
    if verb != "strategy":
        return msg("Now choose your Campaign Strategy cards: {prompt}", prompt=g.prompt(seat))
    if seat in f.get("commits", {}):
        return msg("You have already placed your Campaign Strategy cards.")
    legal = strategy_choices(g, seat)
    if args == ["none"]:
        if legal != ["strategy none"]:
            return msg("Place exactly {n} different card(s), written in increasing order.",
                       n=len(legal[0].split()) - 1)
        return None
    ids = [_int(a) for a in args]
    for word, cid in zip(args, ids):
        if cid not in g.s["hands"][seat]:
            if cid is None or cid not in CARDS:
                return msg("You do not hold card {which}.", which=word)
            return msg("You do not hold {card} (card {cid}).", card=cid, cid=cid)
        if not CARDS[cid]["campaign_strategy_allowed"]:
            return msg("{card} may not be a Campaign Strategy card.", card=cid)
    if "strategy " + " ".join(args) not in legal:
        n = 0 if legal == ["strategy none"] else len(legal[0].split()) - 1
        return msg("Place exactly {n} different card(s), written in increasing order.", n=n)
    return None


def _debate(g, f, seat, verb, args):
    if verb != "debate":
        return msg("Choose a card for this Debate round: {prompt}", prompt=g.prompt(seat))
    if len(args) != 1 or _int(args[0]) not in g.s["debate"]["cards"][seat]:
        return msg("Reveal one of your remaining Campaign Strategy cards.")
    return None


def _place_support(g, f, seat, verb, args):
    if verb not in ("support", "done"):
        return g.prompt(seat)
    if verb == "done":
        if not f["optional"]:
            if f["left"] == 1:
                return msg("You must place the last state support cube before you are done.",
                           left=f["left"])
            return msg("You must place all {left} state support cubes before you are done.",
                       left=f["left"])
        return None if not args else g.prompt(seat)
    if len(args) != 2:
        return g.prompt(seat)
    st = _state(args[0])
    if st is None:
        return msg("There is no state '{word}'.", word=args[0])
    if st not in f["allowed"]:
        return msg("This event does not let you add support in {state}.", state=st)
    n = _int(args[1])
    if not n or n > min(f["per_state"] - f["placed"].get(st, 0), f["left"]):
        return msg("At most {per_state} per state and {left} in all; {placed} already placed in "
                   "{state}.", per_state=f["per_state"], left=f["left"],
                   placed=f["placed"].get(st, 0), state=st)
    return None


def _remove_support(g, f, seat, verb, args):
    from .events.common import removable
    if verb not in ("remove", "done"):
        return g.prompt(seat)
    if verb == "done":
        if not f.get("optional", True):
            return msg("This removal is not optional: {prompt}", prompt=g.prompt(seat))
        return None if not args else g.prompt(seat)
    if len(args) != 1:
        return g.prompt(seat)
    st = _state(args[0])
    if st is None or st not in f["allowed"]:
        return msg("This event does not let you remove support there.")
    if st not in removable(g, f):
        return msg("{seat} has no support cube there that you may still remove.",
                   seat=f["target"])
    return None


def _card_flow(g, f, seat, verb, args):
    from .events.card_flow import why_illegal as card_flow_reason
    return card_flow_reason(g, f, seat, verb, args)


_BY_STEP = {
    "activity": _play, "campaigning": _campaigning, "positioning": _positioning,
    "advertising": _advertising, "campaign_strategy": _strategy, "debate_round": _debate,
    "place_support": _place_support, "remove_support": _remove_support,
    "discard_redraw": _card_flow, "pick_discard": _card_flow,
}
