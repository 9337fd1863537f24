"""Steps card events share: placing and removing state support, automatic placements."""
from engine.core.messages import Message, data

from ..bag import support_checks
from ..board import gain, lose, needs_support_check, own
from ..data import CARDS, STATES, other
from ..flow import Step, step, then
from ..messages import NAMES, msg, of_event


def beneficiary(f) -> str:
    """The seat an event benefits: the candidate it names, else whoever resolves it."""
    icon = CARDS[f["card"]]["icon"]
    return icon if icon in ("kennedy", "nixon") else f["by"]


def place_support(g, seat: str, total: int, per_state: int, allowed=None, optional=True,
                  then="event_continue") -> None:
    """Let ``seat`` place up to ``total`` state support cubes, at most ``per_state`` in a state.

    GMT: in states the opponent carries or occupies a support check is needed (unless media
    support exempts), declared per state before drawing (Gaining State Support). Z-Man: never.
    """
    allowed = sorted(allowed if allowed is not None else STATES)
    if total <= 0 or not allowed:
        return
    g.call("place_support", then=then, seat=seat, left=total,
           per_state=per_state, allowed=allowed, placed={}, optional=optional,
           card=g.top.get("card"))


def _needs_check(g, seat, st) -> bool:
    return g.gmt and needs_support_check(g.s, seat, st)


@step
class PlaceSupport(Step):
    name = "place_support"

    def actions(self, g, f, seat):
        out = ["done"] if f["optional"] else []
        for st in f["allowed"]:
            room = min(f["per_state"] - f["placed"].get(st, 0), f["left"])
            out += [f"support {st} {n}" for n in range(1, room + 1)]
        return out

    def do(self, g, f, seat, action):
        words = action.split()
        if words[0] == "done":
            g.end()
            return
        st, n = words[1], int(words[2])
        f["left"] -= n
        if _needs_check(g, seat, st):
            f["placed"][st] = f["per_state"]          # declared: no more cubes there
            g.note("{seat} declares {n} support in {state} with support checks.", seat=seat, n=n,
                   state=st)
            support_checks(g, seat, n, "state", st, then="place_support_continue")
            return
        f["placed"][st] = f["placed"].get(st, 0) + n
        gain(g.s["support"], st, seat, n)
        g.note("{seat} adds {n} state support in {state}.", seat=seat, n=n, state=st)
        place_support_continue(g)

    def prompt(self, g, f, seat):
        left, per_state = f["left"], f["per_state"]
        capped = per_state < 99
        if left == 1:
            prompt = msg("Place up to {left} state support cube.", left=left) \
                if f["optional"] else msg("Place {left} state support cube.", left=left)
        elif f["optional"] and capped:
            prompt = msg("Place up to {left} state support cubes, at most {per_state} per "
                         "state.", left=left, per_state=per_state)
        elif f["optional"]:
            prompt = msg("Place up to {left} state support cubes.", left=left)
        elif capped:
            prompt = msg("Place {left} state support cubes, at most {per_state} per state.",
                         left=left, per_state=per_state)
        else:
            prompt = msg("Place {left} state support cubes.", left=left)
        return of_event(prompt, f.get("card"), unnamed=False)


@then
def place_support_continue(g, frame=None) -> None:
    """After a placement or its support checks: end when nothing more can be placed."""
    f = g.top
    if f["left"] <= 0 or not [a for a in PlaceSupport().actions(g, f, f["seat"]) if a != "done"]:
        g.end()


def remove_support(g, chooser: str, target: str, total: int, per_state: int, allowed=None,
                   then="event_continue", optional=True) -> None:
    """Let ``chooser`` remove up to ``total`` of ``target``'s state support cubes, at most
    ``per_state`` from a state; losses are limited to what is on the board (Losing Support)."""
    allowed = sorted(allowed if allowed is not None else STATES)
    g.call("remove_support", then=then, seat=chooser, target=target, optional=optional,
           left=total, per_state=per_state, allowed=allowed, taken={}, card=g.top.get("card"))
    remove_support_continue(g)


def removable(g, f) -> list:
    return [st for st in f["allowed"]
            if own(g.s["support"][st], f["target"]) and f["taken"].get(st, 0) < f["per_state"]]


@step
class RemoveSupport(Step):
    name = "remove_support"

    def actions(self, g, f, seat):
        return (["done"] if f.get("optional", True) else []) + [f"remove {st}" for st in removable(g, f)]

    def do(self, g, f, seat, action):
        if action == "done":
            g.end()
            return
        st = action.split()[1]
        lose(g.s["support"], st, f["target"], 1)
        f["taken"][st] = f["taken"].get(st, 0) + 1
        f["left"] -= 1
        g.note("{seat} removes a {seat_target} support cube from {state}.", seat=seat,
               seat_target=f["target"], state=st)
        remove_support_continue(g)

    def prompt(self, g, f, seat):
        if f.get("optional", True):
            return msg("Remove up to {left} of {seat}'s state support cubes, at most {per_state} "
                       "per state.", left=f["left"], seat=f["target"], per_state=f["per_state"])
        return msg("Remove {left} of {seat}'s state support cubes, at most {per_state} per state.",
                   left=f["left"], seat=f["target"], per_state=f["per_state"])


def remove_support_continue(g) -> None:
    f = g.top
    if f["left"] <= 0 or not removable(g, f):
        g.end()


def auto_support(g, seat: str, states: list, then="event_continue") -> None:
    """Place one support cube for ``seat`` in each of ``states`` (GMT: a check where needed)."""
    g.call("auto_support", then=then, seat=seat, pending=sorted(states))
    auto_support_continue(g)


@step
class AutoSupport(Step):
    """A procedure frame: never waits for a decision itself."""

    name = "auto_support"


@then
def auto_support_continue(g, frame=None) -> None:
    f = g.top
    while f["pending"]:
        st = f["pending"].pop(0)
        if _needs_check(g, f["seat"], st):
            support_checks(g, f["seat"], 1, "state", st, then="auto_support_continue")
            return
        gain(g.s["support"], st, f["seat"], 1)
        g.note("{seat} adds 1 state support in {state}.", seat=f["seat"], state=st)
    g.end()


def move_token(g, seat: str, state: str) -> None:
    g.s["tokens"][seat] = state
    g.note("{seat}'s candidate token moves to {state}.", seat=seat, state=state)


def gain_momentum(g, seat: str, n: int = 1) -> None:
    g.s["momentum"][seat] += n
    if n > 1:
        g.note("{seat} takes {n} momentum markers.", seat=seat, n=n)
    else:
        g.note("{seat} takes {n} momentum marker.", seat=seat, n=n)


def lose_momentum(g, seat: str, n: int = 1) -> None:
    k = min(n, g.s["momentum"][seat])
    g.s["momentum"][seat] -= k
    if k == 1:
        g.note("{seat} loses 1 momentum marker.", seat=seat)
    else:
        g.note("{seat} loses {n} momentum markers.", seat=seat, n=k)


__all__ = ["beneficiary", "place_support", "remove_support", "auto_support", "move_token",
           "gain_momentum", "lose_momentum", "other", "lose"]


# --- generic choices inside events -------------------------------------------------------------

def told(text) -> Message:
    """The message a frame keeps as ``data(message)`` (a plain string from an older state is its
    own template)."""
    template, args = data(text) if isinstance(text, str) else text
    return Message(template, args, NAMES)


def choose(g, seat: str, options, key: str, prompt: str, then="event_continue") -> None:
    """Ask ``seat`` to pick one of ``options`` (``choose OPTION``); the answer is stored in the
    calling frame (the event's) under ``key`` before its next stage runs. ``prompt`` is a message
    (``msg``), kept in the frame as its template and arguments.

    With a single option nothing is asked: it is stored at once.
    """
    options = [str(o) for o in options]
    if len(options) == 1:
        g.top[key] = options[0]
        return
    g.call("choose", then=then, seat=seat, options=options, key=key, text=data(prompt))


@step
class Choose(Step):
    name = "choose"

    def actions(self, g, f, seat):
        return [f"choose {o}" for o in f["options"]]

    def do(self, g, f, seat, action):
        g.s["stack"][-2][f["key"]] = action.split()[1]
        g.end()

    def prompt(self, g, f, seat):
        return told(f["text"])


def place_media(g, seat: str, n: int, then="event_continue") -> None:
    """Let ``seat`` place ``n`` media support cubes in advertising boxes of his choice."""
    if n > 0:
        g.call("advertising", then=then, seat=seat, left=n, card=g.top.get("card"))


def move_issue(g, issue: str, places: int) -> None:
    """Move an issue up ``places`` positions on the Issues Track (no further than first)."""
    track = g.s["issue_track"]
    i = track.index(issue)
    j = max(0, i - places)
    track.insert(j, track.pop(i))
    g.note("{issue} climbs to position {position} on the Issues Track.", issue=issue,
           position=j + 1)


def gain_issue(g, seat: str, issue: str, n: int) -> None:
    """Give ``seat`` n issue support cubes in ``issue`` (opposing cubes are removed first)."""
    gain(g.s["issues"], issue, seat, n)
    g.note("{seat} gains {n} issue support in {issue}.", seat=seat, n=n, issue=issue)


def lose_issue(g, seat: str, issue: str, n: int) -> int:
    """Take up to n of ``seat``'s issue support cubes from ``issue``; return how many."""
    k = lose(g.s["issues"], issue, seat, n)
    if k:
        g.note("{seat} loses {n} issue support in {issue}.", seat=seat, n=k, issue=issue)
    return k


def add_support(g, seat: str, state: str, n: int, then="event_continue") -> None:
    """An event gives ``seat`` n state support in one named state. GMT: where the opponent carries
    or occupies it (and no media exempts), the n cubes are n support checks (Gaining State Support)."""
    if n <= 0:
        return
    if _needs_check(g, seat, state):
        g.note("{seat} makes {n} support check(s) in {state}.", seat=seat, n=n, state=state)
        support_checks(g, seat, n, "state", state, then=then)
        return
    gain(g.s["support"], state, seat, n)
    g.note("{seat} adds {n} state support in {state}.", seat=seat, n=n, state=state)
