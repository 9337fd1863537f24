"""Card events: a table keyed by card id (``EVENTS``), run on the game's call stack.

An event is a tuple of stages; a stage either finishes at once or pushes a decision (a child
frame whose continuation ``event_continue`` runs the next stage). Whoever resolves an event
(``by``) is "the player"; an event naming a candidate benefits that candidate whoever resolves it.
"""
from ..data import CARDS
from ..flow import Step, step, then
from ..messages import msg
from . import card_flow, cards, issue_events, support_events, turn_effects


def _merge(*modules) -> dict:
    table = {}
    for module in modules:
        for cid, stages in module.EVENTS.items():
            assert cid not in table, f"card {cid} has two event handlers"
            table[cid] = stages
    return table


EVENTS = _merge(cards, turn_effects, card_flow, support_events, issue_events)


def event_playable(g, cid) -> bool:
    """Whether card ``cid``'s event can be played or triggered now.

    Events not built yet (the next issue's) are not offered; Prevention events in play make the
    events they name unplayable (Persistent Events).
    """
    if cid == "candidate" or cid not in EVENTS:
        return False
    return not any(cid in CARDS[p]["prevents"] for p in g.s["persistent"]["prevention"])


def run_event(g, cid: int, by: str, then: str | None) -> None:
    """Resolve card ``cid``'s event for ``by``; persistent events go to their place on the board,
    the rest are removed from the game."""
    kind = CARDS[cid]["persistent"]
    if kind:
        g.s["persistent"][kind].append(cid)
    else:
        g.s["removed"].append(cid)
    g.call("event", then=then, card=cid, by=by, stage=0)
    event_continue(g)


@then
def event_continue(g, frame=None) -> None:
    """Run the top event frame's remaining stages until one waits for a decision."""
    f = g.top
    stages = EVENTS[f["card"]]
    while f["stage"] < len(stages):
        fn = stages[f["stage"]]
        f["stage"] += 1
        fn(g, f)
        if not g.s["stack"] or g.s["stack"][-1] is not f:
            return      # a decision is pending, or a nested continuation finished the event
    g.end()


@step
class EventFrame(Step):
    """The frame of an event in progress; never on top while a decision is pending."""

    name = "event"

    def prompt(self, g, f, seat):
        return msg("{card} is being resolved for {seat}.", card=f["card"], seat=f["by"])
