"""Which orders may be taken back until the next seat has seen them (issue 27, item 3).

An order's log segment may hold entries of other seats that no person chose: a forced single
choice, or the answer of a seat's standing order applied by the server within the order
(issue 46, item 2). Their positions in the segment are ``automatic``: such an entry is undone
with the move and made again when the game reaches that question again, so it does not make the
move final; what it drew (a chance step) or showed (the game's ``retractable``) still does."""
from __future__ import annotations

from collections.abc import Iterable

from .protocol import CHANCE


def _others_chose(seat: str, segment: list, automatic: Iterable[int]) -> bool:
    """Whether an entry of the segment is another seat's choice made by a person."""
    auto = set(automatic)
    return any(entry[0] != seat and i not in auto for i, entry in enumerate(segment))


def may_retract(state, seat: str, segment: list, automatic: Iterable[int] = ()) -> bool:
    """Whether the order of ``seat`` that appended ``segment`` to the log (the state now the
    one it led to) may be taken back: every entry is the mover's own or an ``automatic`` one
    (the positions in ``segment`` of other seats' forced choices and standing orders' answers),
    none is a chance step, the decision has passed to exactly one other seat, and the game says
    the order showed its mover nothing hidden (judging the whole segment)."""
    if not segment or any(entry[0] == CHANCE for entry in segment):
        return False
    if _others_chose(seat, segment, automatic):
        return False
    active = state.active()
    if len(active) != 1 or active[0] in (seat, CHANCE):
        return False
    return bool(state.retractable(seat, [list(entry) for entry in segment]))


def why_final(state, seat: str, segment: list, automatic: Iterable[int] = ()) -> str | None:
    """Why ``may_retract`` says no, as a code: "chance" (a draw happened), "other_seat"
    (another seat's choice, not an ``automatic`` one, was made in it), "not_handed_over" (the
    decision stayed the mover's, or went to several seats or none), "hidden" (the game says it
    showed its mover something hidden); None when it may be taken back."""
    if any(entry[0] == CHANCE for entry in segment):
        return "chance"
    if not segment or _others_chose(seat, segment, automatic):
        return "other_seat"
    active = state.active()
    if len(active) != 1 or active[0] in (seat, CHANCE):
        return "not_handed_over"
    if not state.retractable(seat, [list(entry) for entry in segment]):
        return "hidden"
    return None
