"""The safe default: what the server orders for a seat whose deadline passed and who filed no
default order of its own (server/services/deadlines.py). Documented for players in
NOTATION.md ("When a deadline passes").

The default never spends anything and never plays an event: it declines what can be declined
(``pass``: no trigger, no issue swap; ``done``: no more support, campaigning or discards;
``choose no``), takes a momentum marker rather than an Endorsement Card for the second-place
issue, leaves the Issues Track as it is (Gallup Poll), and otherwise picks the lowest legal card:
in the Activity Phase the lowest card played for campaign points (its CP then go unspent, as
``done`` ends Campaigning at once), in Campaign Strategy, the Debates and on Election Day the
lowest card or cards. For any other choice, the first legal action in the listed order.
"""
from __future__ import annotations

DECLINE = ("pass", "done", "choose no", "momentum")


def _numbers(action: str) -> tuple:
    """The card numbers (or other numbers) an action names, for "the lowest legal card"."""
    return tuple(int(w) for w in action.split()[1:] if w.isdigit())


def default_action(g, seat) -> str:
    legal = g.legal_actions(seat)
    if not legal:
        raise ValueError(f"{seat} has no decision now.")
    for action in DECLINE:
        if action in legal:
            return action
    step = g.top["step"]
    if step == "gallup_poll":
        keep = "order " + " ".join(g.s["issue_track"])
        if keep in legal:
            return keep
    if step == "activity":
        # The lowest card for campaign points: no event played, no momentum spent to preempt.
        plays = [a for a in legal if a.startswith("play ") and a.endswith(" campaign")]
        numbered = [a for a in plays if _numbers(a)]
        if numbered:
            return min(numbered, key=_numbers)
        if plays:
            return plays[0]  # only the candidate card is left
    numbered = [a for a in legal if _numbers(a)]
    if numbered:
        return min(numbered, key=lambda a: (_numbers(a), a))
    return legal[0]
