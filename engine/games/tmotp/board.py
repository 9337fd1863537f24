"""Cubes on the board: state, media and issue support and endorsements as signed counts.

Every location holds cubes of one colour at most, so it is one signed integer: positive for Kennedy,
negative for Nixon. Adding n cubes for a seat is ``+= sign * n``, which is exactly the rulebook's
"remove opposing cubes first, place what is left" (GMT, Gaining State Support; Reminder, B1).
"""
from .data import REGIONS, STATES, STATES_BY_REGION, other, sign


def own(value: int, seat: str) -> int:
    """Return how many of ``seat``'s cubes a signed count holds."""
    v = value * sign(seat)
    return v if v > 0 else 0


def gain(table: dict, key, seat: str, n: int = 1) -> None:
    """Give ``seat`` n cubes at ``key``: each first removes an opposing cube (rulebook B1)."""
    table[key] += sign(seat) * n


def lose(table: dict, key, seat: str, n: int = 1) -> int:
    """Take up to n of ``seat``'s cubes from ``key``, never more than are there; return how many."""
    k = min(n, own(table[key], seat))
    table[key] -= sign(seat) * k
    return k


def leader(value: int):
    """Return the seat whose cubes a signed count holds, or None."""
    return "kennedy" if value > 0 else "nixon" if value < 0 else None


def carries(s: dict, seat: str, state: str) -> bool:
    """A player with at least four state support cubes in a state carries it (B1)."""
    return own(s["support"][state], seat) >= 4


def leads(s: dict, seat: str, state: str) -> bool:
    return own(s["support"][state], seat) > 0


def issue_leader(s: dict, issue: str):
    return leader(s["issues"][issue])


def media_total(s: dict, seat: str) -> int:
    return sum(own(s["media"][r], seat) for r in REGIONS)


def states_led(s: dict, seat: str, region: str | None = None) -> int:
    codes = STATES_BY_REGION[region] if region else STATES
    return sum(1 for c in codes if own(s["support"][c], seat) > 0)


def empty_states(s: dict, region: str | None = None) -> list:
    codes = STATES_BY_REGION[region] if region else sorted(STATES)
    return [c for c in codes if s["support"][c] == 0]


def needs_support_check(s: dict, seat: str, state: str) -> bool:
    """Whether adding state support needs a support check (B1, Increasing State Support).

    Needed where the opponent carries the state or his candidate token stands in it, unless the
    player has media support in the state's region.
    """
    opp = other(seat)
    if not (carries(s, opp, state) or s["tokens"][opp] == state):
        return False
    return own(s["media"][STATES[state]["region"]], seat) == 0


def electoral_votes(s: dict, seat: str, unawarded=()) -> int:
    return sum(STATES[c]["ev"] for c in STATES if c not in unawarded and own(s["support"][c], seat) > 0)
