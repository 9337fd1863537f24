"""The Political Capital Bag and the card decks: every random draw is a chance step.

The campaign deck is kept as an unordered pile and each card dealt is a chance outcome drawn
uniformly from the cards left in it. That is the same distribution as shuffling once and dealing
from the top, and it keeps the deck's order out of the state, so there is nothing to leak.
"""
from .board import gain
from .data import ENDORSEMENTS, SEATS, other
from .effects import PROFILES_IN_COURAGE, may_redraw
from .flow import Step, step, then
from .messages import msg


def bag_size(g) -> int:
    return g.s["bag"]["kennedy"] + g.s["bag"]["nixon"]


def reseed_bag(g) -> None:
    """Reseed an empty bag with 12 (GMT) or 10 (Z-Man) cubes each, except from Election Day's
    Campaign Strategy on (Reseeding the Bag)."""
    if bag_size(g) == 0 and not g.s["no_reseed"]:
        n = 12 if g.gmt else 10
        g.s["bag"] = {"kennedy": n, "nixon": n}
        g.note("The Political Capital Bag is empty and is reseeded with {n} cubes of each colour.",
               n=n)


def draw_outcomes(g) -> list:
    return [(f"draw {x}", g.s["bag"][x]) for x in SEATS if g.s["bag"][x] > 0]


def take_cube(g, action: str) -> str:
    """Remove the drawn cube from the bag and return its colour."""
    colour = action.split()[1]
    g.s["bag"][colour] -= 1
    return colour


def support_checks(g, seat: str, n: int, kind: str, where=None, then=None) -> None:
    """Make ``n`` support checks for ``seat``: own-colour cubes become support (The Bag)."""
    if n <= 0:
        if then:
            g.THEN[then](g, {"hits": 0})
        return
    g.call("support_checks", then=then, seat=seat, left=n, kind=kind, where=where, hits=0)
    _skip_if_bag_exhausted(g)


def _skip_if_bag_exhausted(g) -> None:
    f = g.top
    if f["step"] == "support_checks" and bag_size(g) == 0:
        g.note("The bag is empty: {left} support check(s) for {seat} are lost.",
               left=f["left"], seat=f["seat"])
        g.end()


@step
class SupportChecks(Step):
    name = "support_checks"
    chance = True

    def outcomes(self, g, f):
        return draw_outcomes(g)

    def do(self, g, f, seat, action):
        colour = take_cube(g, action)
        redrawn = f.pop("redrawing", False)
        if colour == f["seat"]:
            f["hits"] += 1
            if f["kind"] == "state":
                gain(g.s["support"], f["where"], colour, 1)
        reseed_bag(g)
        if colour != f["seat"] and not redrawn and may_redraw(g, f["seat"]) and bag_size(g) > 0:
            # Profiles in Courage: the failed check may be drawn again, once (Kennedy decides).
            g.call("redraw_check", then="redraw_decided", seat=f["seat"])
            return
        _check_done(g, f)

    def prompt(self, g, f, seat):
        if f.get("redrawing"):
            return msg("{seat} draws a cube for a support check (drawn again: {card}) "
                       "({left} to go).", seat=f["seat"], card=PROFILES_IN_COURAGE, left=f["left"])
        return msg("{seat} draws a cube for a support check ({left} to go).",
                   seat=f["seat"], left=f["left"])


def _check_done(g, f) -> None:
    """One support check is over: finish the checks, or go on to the next draw."""
    f["left"] -= 1
    if f["left"] == 0:
        if f["kind"] == "state":
            g.note("{seat} makes support checks in {state}: {hits} succeed.",
                   seat=f["seat"], state=f["where"], hits=f["hits"])
        else:
            g.note("{seat} makes support checks: {hits} succeed.", seat=f["seat"], hits=f["hits"])
        g.end()
    else:
        _skip_if_bag_exhausted(g)


@step
class RedrawCheck(Step):
    """Profiles in Courage: "Kennedy may draw again for any support check that failed; a given
    failed check can be redrawn only one time." Kennedy chooses after each failed check."""

    name = "redraw_check"

    def actions(self, g, f, seat):
        return ["choose redraw", "choose accept"]

    def do(self, g, f, seat, action):
        f["redraw"] = action == "choose redraw"
        g.end()

    def prompt(self, g, f, seat):
        checks = g.s["stack"][-2]
        if checks["kind"] == "state":
            return msg("{card}: your support check in {state} failed. Draw again for it, once "
                       "(choose redraw), or keep the failure (choose accept).",
                       card=PROFILES_IN_COURAGE, state=checks["where"])
        return msg("{card}: your support check failed. Draw again for it, once (choose redraw), "
                   "or keep the failure (choose accept).", card=PROFILES_IN_COURAGE)


@then
def redraw_decided(g, frame) -> None:
    f = g.top
    if frame["redraw"]:
        f["redrawing"] = True
        g.note("{card}: {seat} draws again for a failed support check.",
               card=PROFILES_IN_COURAGE, seat=f["seat"])
        return
    _check_done(g, f)


def initiative_check(g, then: str) -> None:
    """Draw cubes until two of one colour; that player has the initiative (Initiative Checks)."""
    reseed_bag(g)
    g.call("initiative_check", then=then, drawn={"kennedy": 0, "nixon": 0})


@step
class InitiativeCheck(Step):
    name = "initiative_check"
    chance = True

    def outcomes(self, g, f):
        return draw_outcomes(g)

    def do(self, g, f, seat, action):
        colour = take_cube(g, action)    # drawn cubes go back to the players' supplies
        f["drawn"][colour] += 1
        reseed_bag(g)
        if f["drawn"][colour] == 2:
            g.s["initiative"] = colour
            g.note("{seat} wins the initiative check.", seat=colour)
            g.end()

    def prompt(self, g, f, seat):
        return msg("A cube is drawn for the initiative check.")


def deal(g, seats: list, then: str) -> None:
    """Deal one card to each seat in ``seats`` in turn (a chance step per card)."""
    if not seats:
        g.THEN[then](g, {})
        return
    g.call("deal", then=then, seats=list(seats))
    _refill_deck(g)


def _refill_deck(g) -> None:
    """If the deck is depleted, shuffle the discards to form a new deck (Initiative Phase)."""
    if not g.s["deck"] and g.s["discard"]:
        g.s["deck"] = sorted(g.s["discard"])
        g.s["discard"] = []
        g.note("The campaign deck is empty: the discards are shuffled into a new deck.")
    if not g.s["deck"]:
        g.note("No cards are left to deal.")
        g.end()


@step
class Deal(Step):
    name = "deal"
    chance = True

    def outcomes(self, g, f):
        seat = f["seats"][0]
        return [(f"deal {seat} {c}", 1) for c in g.s["deck"]]

    def do(self, g, f, seat, action):
        _, to, cid = action.split()
        cid = int(cid)
        g.s["deck"].remove(cid)
        g.s["hands"][to].append(cid)
        g.s["hands"][to].sort()
        f["seats"].pop(0)
        if not f["seats"]:
            g.end()
        else:
            _refill_deck(g)

    def prompt(self, g, f, seat):
        return msg("A card is dealt to {seat}.", seat=f["seats"][0])


def draw_endorsement(g, seat: str, then: str | None = None) -> None:
    """Draw an Endorsement Card for ``seat`` and resolve it (Endorsements)."""
    if not g.s["endorsement_deck"]:
        g.s["endorsement_deck"] = sorted(g.s["endorsement_discard"])
        g.s["endorsement_discard"] = []
    if not g.s["endorsement_deck"]:
        if then:
            g.THEN[then](g, {})
        return
    g.call("endorsement_draw", then=then, seat=seat)


@step
class EndorsementDraw(Step):
    name = "endorsement_draw"
    chance = True

    def outcomes(self, g, f):
        return [(f"endorsement {e}", 1) for e in g.s["endorsement_deck"]]

    def do(self, g, f, seat, action):
        eid = int(action.split()[1])
        g.s["endorsement_deck"].remove(eid)
        g.s["endorsement_discard"].append(eid)
        card = ENDORSEMENTS[eid]
        if card["region"] == "any":
            g.note("{seat} draws Major Endorsement.", seat=f["seat"])
            g.goto("major_endorsement", seat=f["seat"])
        else:
            g.note("{seat} draws Endorsement in {region}.", seat=f["seat"], region=card["region"])
            place_endorsement(g, f["seat"], card["region"])
            g.end()

    def prompt(self, g, f, seat):
        return msg("{seat} draws an endorsement card.", seat=f["seat"])


def place_endorsement(g, seat: str, region: str) -> None:
    """Place an endorsement marker, removing an opposing one instead if there is any."""
    removes = g.s["endorsements"][region] * (1 if seat == "kennedy" else -1) < 0
    gain(g.s["endorsements"], region, seat, 1)
    if removes:
        g.note("{seat} removes a {seat_other} endorsement marker from {region}.",
               seat=seat, seat_other=other(seat), region=region)
    else:
        g.note("{seat} places an endorsement marker in {region}.", seat=seat, region=region)


@step
class MajorEndorsement(Step):
    name = "major_endorsement"

    def actions(self, g, f, seat):
        from .data import REGIONS
        return [f"endorse {r}" for r in REGIONS]

    def do(self, g, f, seat, action):
        place_endorsement(g, seat, action.split()[1])
        g.end()

    def prompt(self, g, f, seat):
        return msg("Major Endorsement: choose the region for your endorsement marker.")


@then
def noop(g, frame):
    """A continuation that does nothing (the caller resumes on its own)."""
