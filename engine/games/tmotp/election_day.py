"""Election Day - Turn 9: bonus cubes, initiative, strategy cards, events, undecided states, tally."""
from engine.core.protocol import Outcome, Termination

from .bag import bag_size, initiative_check, support_checks
from .board import electoral_votes, gain, leader, own
from .data import CARDS, ISSUES, REGIONS, SEATS, STATES, other
from .flow import Step, step, then
from .messages import msg

LATE_RETURNS, EARLY_RETURNS, UNPLEDGED_ELECTORS, RECOUNT = 7, 32, 33, 90
UNPLEDGED_STATES = ("AL", "LA", "MS")


def election_day(g) -> None:
    """1. Deposit Bonus Cubes, then 2. Determine Initiative."""
    s = g.s
    s["round"] = "election_day"
    s["election"] = {"strategy": {x: [] for x in SEATS}, "events": []}
    for seat in SEATS:
        media = sum(own(s["media"][r], seat) for r in REGIONS)
        issues = sum(own(s["issues"][i], seat) for i in ISSUES)
        bonus = media if g.gmt else 0       # GMT: bonus cubes equal to media support
        momentum = s["momentum"][seat]
        s["bag"][seat] += bonus + media + issues + 2 * momentum
        s["momentum"][seat] = 0
        g.note("Election Day: {seat} puts {total} cubes into the bag ({bonus} bonus, {media} "
               "media, {n_issue} issue, {momentum_cubes} for {momentum} momentum).",
               seat=seat, total=bonus + media + issues + 2 * momentum, bonus=bonus, media=media,
               n_issue=issues, momentum_cubes=2 * momentum, momentum=momentum)
    s["media"] = {r: 0 for r in REGIONS}
    s["issues"] = {i: 0 for i in ISSUES}
    initiative_check(g, then="election_day_strategy")


@then
def election_day_strategy(g, frame=None) -> None:
    """3. Campaign Strategy (GMT 2nd ed. and Z-Man 1st ed., Election Day, 3): "Both players
    retrieve the four cards from their respective Campaign Strategy Card Stacks and reveal
    them": from here every card is public, the opponent's too. "Note: If the Political Capital
    Bag runs out of cubes at this point, it is not refilled." """
    s = g.s
    s["no_reseed"] = True
    first = s["initiative"]
    for seat in (first, other(first)):
        _note_strategy_cards(g, seat, s["strategy"][seat])
    s["election"]["strategy"] = {x: list(s["strategy"][x]) for x in SEATS}
    s["strategy"] = {x: [] for x in SEATS}
    election_day_strategy_cards(g)


@then
def election_day_strategy_cards(g, frame=None) -> None:
    """The next Campaign Strategy card resolved: "For each of these cards, the player gains three
    Support Checks in the state indicated on that card. The player with the initiative resolves
    his cards first" (GMT; Z-Man "will resolve their cards first"). Z-Man adds "Each player may
    resolve their cards in any order desired": the player chooses the next card, one at a time,
    knowing the draws of the cards before (``strategy_order_asked``); GMT has no such sentence
    and keeps the order the cards were placed in (RULINGS.md, Election Day Campaign Strategy)."""
    s = g.s
    left = s["election"]["strategy"]
    first = s["initiative"]
    seat = next((x for x in (first, other(first)) if left[x]), None)
    if seat is None:
        election_day_events_begin(g)
    elif bag_size(g) == 0:
        g.note("The bag is empty: the remaining Election Day support checks are lost.")
        s["discard"] += left[first] + left[other(first)]
        s["election"]["strategy"] = {x: [] for x in SEATS}
        election_day_events_begin(g)
    elif strategy_order_asked(g, seat):
        g.call("election_day_strategy_order", then="strategy_card_chosen", seat=seat)
    else:
        resolve_strategy_card(g, seat, left[seat][0])


def strategy_order_asked(g, seat: str) -> bool:
    """Whether ``seat`` chooses which Campaign Strategy card he resolves next: in Z-Man, when
    his cards left name two states or more. Cards naming one state give the same three checks
    whichever comes first, so that choice is forced and not asked (RULINGS.md)."""
    cards = g.s["election"]["strategy"][seat]
    chosen = g.s["options"].get("strategy_order", True)  # False: a game begun before the ruling
    return not g.gmt and chosen and len({CARDS[c]["state"] for c in cards}) > 1


@step
class ElectionDayStrategyOrder(Step):
    """Z-Man 1st ed., Election Day, 3. Campaign Strategy: "Each player may resolve their cards in
    any order desired." The next card's three support checks are drawn before the player
    chooses the one after."""

    name = "election_day_strategy_order"

    def actions(self, g, f, seat):
        return [f"resolve {c}" for c in sorted(set(g.s["election"]["strategy"][seat]))]

    def do(self, g, f, seat, action):
        f["card"] = int(action.split()[1])
        g.end()

    def prompt(self, g, f, seat):
        cards = g.s["election"]["strategy"][f["seat"]]
        return msg("Campaign Strategy on Election Day: choose which of your Campaign Strategy "
                   "cards to resolve next, three support checks in its state ({cards}). The bag "
                   "holds {n} cubes for your {checks} checks and is not refilled.",
                   cards=list(cards), n=bag_size(g), checks=3 * len(cards))


@then
def strategy_card_chosen(g, frame) -> None:
    resolve_strategy_card(g, frame["seat"], frame["card"])


def resolve_strategy_card(g, seat: str, cid: int) -> None:
    """Three support checks in the card's state; the card goes to the discard pile."""
    g.s["election"]["strategy"][seat].remove(cid)
    g.s["discard"].append(cid)
    support_checks(g, seat, 3, "state", CARDS[cid]["state"], then="election_day_strategy_cards")


def _note_strategy_cards(g, seat: str, cards: list) -> None:
    """The note of the Campaign Strategy cards a player reveals: each card's name and its state's
    code (two cards a turn on turns 7 and 8, so four at most)."""
    codes = [CARDS[c]["state"] for c in cards]
    if not cards:
        g.note("{seat} reveals Campaign Strategy cards: none.", seat=seat)
    elif len(cards) == 1:
        g.note("{seat} reveals Campaign Strategy cards: {card} ({code}).", seat=seat, card=cards[0],
               code=codes[0])
    elif len(cards) == 2:
        g.note("{seat} reveals Campaign Strategy cards: {card1} ({code1}), {card2} ({code2}).",
               seat=seat, card1=cards[0], code1=codes[0], card2=cards[1], code2=codes[1])
    elif len(cards) == 3:
        g.note("{seat} reveals Campaign Strategy cards: {card1} ({code1}), {card2} ({code2}), "
               "{card3} ({code3}).", seat=seat, card1=cards[0], code1=codes[0], card2=cards[1],
               code2=codes[1], card3=cards[2], code3=codes[2])
    elif len(cards) == 4:
        g.note("{seat} reveals Campaign Strategy cards: {card1} ({code1}), {card2} ({code2}), "
               "{card3} ({code3}), {card4} ({code4}).", seat=seat, card1=cards[0],
               code1=codes[0], card2=cards[1], code2=codes[1], card3=cards[2], code3=codes[2],
               card4=cards[3], code4=codes[3])
    else:
        g.note("{seat} reveals Campaign Strategy cards: {cards}.", seat=seat, cards=list(cards))


@then
def election_checks(g, frame=None) -> None:
    """The Campaign Strategy checks of a game saved before issue 46 (a queue of [seat, state,
    n], built at once in the order the cards were placed); new games resolve card by card
    (``election_day_strategy_cards``)."""
    queue = g.s["election"]["checks"]
    if queue and bag_size(g) > 0:
        seat, st, n = queue.pop(0)
        support_checks(g, seat, n, "state", st, then="election_checks")
        return
    if queue:
        g.note("The bag is empty: the remaining Election Day support checks are lost.")
        queue.clear()
    election_day_events_begin(g)


def election_day_events_begin(g) -> None:
    """4. Election Day Events: the persistent ones are retrieved from the board."""
    g.s["election"]["events"] = list(g.s["persistent"]["election_day"])
    election_day_events(g)


@then
def election_day_events(g, frame=None) -> None:
    """4. Election Day Events, in the order the initiative player chooses."""
    pending = g.s["election"]["events"]
    if len(pending) > 1:
        g.call("election_day_event_order", then="election_day_events", seat=g.s["initiative"])
    elif pending:
        resolve_election_event(g, pending.pop(0))
    else:
        undecided_voters(g)


@step
class ElectionDayEventOrder(Step):
    name = "election_day_event_order"

    def actions(self, g, f, seat):
        return [f"resolve {c}" for c in g.s["election"]["events"]]

    def do(self, g, f, seat, action):
        cid = int(action.split()[1])
        g.s["election"]["events"].remove(cid)
        g.s["stack"].pop()
        resolve_election_event(g, cid)

    def prompt(self, g, f, seat):
        return msg("Election Day Events: choose which to resolve next ({cards}).",
                   cards=list(g.s["election"]["events"]))


def resolve_election_event(g, cid: int) -> None:
    g.note("Election Day event: {card}.", card=cid)
    if cid == LATE_RETURNS:           # Kennedy draws 5 support checks for Illinois
        support_checks(g, "kennedy", 5, "state", "IL", then="election_day_events")
    elif cid == EARLY_RETURNS:        # the leader in Connecticut draws 5 checks for California
        seat = leader(g.s["support"]["CT"])
        if seat:
            support_checks(g, seat, 5, "state", "CA", then="election_day_events")
        else:
            election_day_events(g)
    elif cid == RECOUNT:              # Nixon draws 3 support checks in a state of his choice
        g.call("recount", then="election_day_events", seat="nixon")
    else:                             # Unpledged Electors acts at the Final Tally
        election_day_events(g)


@step
class Recount(Step):
    name = "recount"

    def actions(self, g, f, seat):
        return [f"recount {st}" for st in STATES]

    def do(self, g, f, seat, action):
        st = action.split()[1]
        f["state"] = st
        g.s["stack"].pop()
        support_checks(g, "nixon", 3, "state", st, then=f["then"])

    def prompt(self, g, f, seat):
        return msg("Recount: choose the state for your three support checks.")


def undecided_voters(g) -> None:
    """5. Endorsements and Undecided Voters: each empty state goes to the player with an
    endorsement marker in its region, else to the player its edge shows."""
    s = g.s
    for st in sorted(STATES):
        if s["support"][st] == 0:
            seat = leader(s["endorsements"][STATES[st]["region"]]) or STATES[st]["edge"]
            gain(s["support"], st, seat, 1)
            g.note("{state} is empty and goes to {seat}.", state=st, seat=seat)
    final_tally(g)


def unawarded_states(g) -> list:
    """Unpledged Electors: AL, LA and MS that Kennedy leads with fewer than 4 support go to nobody."""
    if UNPLEDGED_ELECTORS not in g.s["persistent"]["election_day"]:
        return []
    return [st for st in UNPLEDGED_STATES if 0 < own(g.s["support"][st], "kennedy") < 4]


def final_tally(g) -> None:
    """6. Final Tally, with the edition's tie-breaks."""
    s = g.s
    none = unawarded_states(g)
    ev = {x: electoral_votes(s, x, none) for x in SEATS}
    states = {x: sum(1 for st in STATES if st not in none and own(s["support"][st], x)) for x in SEATS}
    cubes = {x: sum(own(v, x) for v in s["support"].values()) for x in SEATS}
    if ev["kennedy"] != ev["nixon"]:
        winner = max(SEATS, key=lambda x: ev[x])
    elif states["kennedy"] != states["nixon"]:
        winner = max(SEATS, key=lambda x: states[x])
    elif g.gmt:
        winner = max(SEATS, key=lambda x: cubes[x]) if cubes["kennedy"] != cubes["nixon"] else None
    else:
        winner = "kennedy"   # Z-Man: the House elects Kennedy for his lead in the denied states
    reason = tally_reason(g, winner, ev, states, cubes)
    s["result"] = {"winner": winner, "reason": str(reason), "reason_message": reason.data(),
                   "electoral_votes": ev, "states": states, "support": cubes, "unawarded": none}
    s["round"] = "over"
    g.note("Final Tally: {seat1} {ev1}, {seat2} {ev2}. {reason}", seat1="kennedy",
           ev1=ev["kennedy"], seat2="nixon", ev2=ev["nixon"], reason=reason.data())


def tally_reason(g, winner, ev: dict, states: dict, cubes: dict):
    """Why the Final Tally went as it did (a message), from its electoral votes, states won and
    state support cubes."""
    if ev["kennedy"] != ev["nixon"]:
        return msg("{seat} wins {ev} electoral votes to {ev_other}.", seat=winner, ev=ev[winner],
                   ev_other=ev[other(winner)])
    if states["kennedy"] != states["nixon"]:
        return msg("The electoral vote is tied at {ev}; the House of Representatives chooses "
                   "{seat}, who won more states ({n}).", ev=ev["kennedy"], seat=winner,
                   n=states[winner])
    if g.gmt:
        if winner:
            return msg("Electoral votes and states won are tied; {seat} has more state support "
                       "({n}).", seat=winner, n=cubes[winner])
        return msg("Electoral votes and states won are tied; so is state support: the election "
                   "is a draw.")
    return msg("Electoral votes and states won are tied; the House elects {seat} by virtue of "
               "his marginal lead in the states denied him by the electors.", seat=winner)


def final_outcome(g):
    r = g.s["result"]
    if r is None:
        return None
    reason = tally_reason(g, r["winner"], r["electoral_votes"], r["states"], r["support"])
    return Outcome(r["winner"], reason, dict(r["electoral_votes"]),
                   termination(r["winner"], r["electoral_votes"]))


def termination(winner, ev: dict) -> Termination:
    """How the election was decided (the branches of ``tally_reason``)."""
    if winner is None:
        return Termination.DRAW
    return Termination.SCORE if ev["kennedy"] != ev["nixon"] else Termination.TIE_BREAK
