"""Which orders may be taken back until the next seat has seen them (issue 27, item 3)."""
from __future__ import annotations

from .protocol import CHANCE


def may_retract(state, seat: str, segment: list) -> bool:
    """Whether the order of ``seat`` that appended ``segment`` to the log (the state now the
    one it led to) may be taken back: every entry is the mover's own (no chance step, no
    other seat's forced choice or standing order ran), the decision has passed to exactly one
    other seat, and the game says the order showed its mover nothing hidden."""
    if not segment or any(entry[0] != seat for entry in segment):
        return False
    active = state.active()
    if len(active) != 1 or active[0] in (seat, CHANCE):
        return False
    return bool(state.retractable(seat, [list(entry) for entry in segment]))


def why_final(state, seat: str, segment: list) -> str | None:
    """Why ``may_retract`` says no, as a code: "chance" (a draw happened), "other_seat"
    (another seat's choice ran in it), "not_handed_over" (the decision stayed the mover's, or
    went to several seats or none), "hidden" (the game says it showed its mover something
    hidden); None when it may be taken back."""
    if any(entry[0] == CHANCE for entry in segment):
        return "chance"
    if not segment or any(entry[0] != seat for entry in segment):
        return "other_seat"
    active = state.active()
    if len(active) != 1 or active[0] in (seat, CHANCE):
        return "not_handed_over"
    if not state.retractable(seat, [list(entry) for entry in segment]):
        return "hidden"
    return None
