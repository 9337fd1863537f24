"""B) Playing a card for Campaign Points: B1 Campaigning, B2 Advertising, B3 Positioning."""
from .bag import support_checks
from .board import gain
from .data import CARDS, ISSUES, REGIONS, STATES, travel_cost
from .effects import campaign_barred, cp_value, free_travel, support_check_needed
from .flow import Step, step, then
from .messages import msg


def start_cp_action(g, seat: str, cid, mode: str, preempt: bool, then="after_cp_play", cp=None,
                    max_per_state=None) -> None:
    """Start a CP action; ``cp`` overrides the card's value (events that grant CP), and
    ``max_per_state`` caps the CP spent in any one state while Campaigning (Whistlestop)."""
    if cp is None:
        cp = cp_value(g, seat, cid, mode)
    common = {"then": then, "seat": seat, "card": cid, "preempt": preempt, "cp": cp}
    if mode == "campaign":
        g.call("campaigning", declared=[], spent={}, max_per_state=max_per_state, **common)
    elif mode == "advertise":
        g.call("advertising", left=0, **common)
        support_checks(g, seat, cp, "media", then="advertising_hits")
    else:
        g.call("positioning", bought={}, **common)
        _end_positioning_if_spent(g)


# --- B1 Campaigning in States ----------------------------------------------------------------

def travel_price(g, seat, dest) -> int:
    """The CP the candidate pays to travel to ``dest`` now (none with free travel)."""
    return 0 if free_travel(g, seat) else travel_cost(g.s["tokens"][seat], dest)


@step
class Campaigning(Step):
    name = "campaigning"

    def actions(self, g, f, seat):
        out = ["done"]
        token_zone = STATES[g.s["tokens"][seat]]["zone"]
        for st, info in STATES.items():
            avail = f["cp"] - travel_price(g, seat, st)
            if avail < 0:
                continue
            if info["zone"] != token_zone and not f.get("moved_free"):
                out.append(f"travel {st}")
            if f.get("max_per_state"):
                avail = min(avail, f["max_per_state"] - f["spent"].get(st, 0))
            if avail >= 1 and st not in f["declared"] and not campaign_barred(g, seat, st):
                out += [f"campaign {st} {n}" for n in range(1, avail + 1)]
        return out

    def do(self, g, f, seat, action):
        words = action.split()
        if words[0] == "done":
            g.note("{seat} leaves {cp} CP unspent.", seat=seat, cp=f["cp"])
            g.end()
            return
        st = words[1]
        f["cp"] -= travel_price(g, seat, st)
        g.s["tokens"][seat] = st
        # Free travel (Ken-Air, Advance Men): no second move before campaigning again (it would
        # add nothing, and moves costing nothing must not go on forever).
        f["moved_free"] = words[0] == "travel" and free_travel(g, seat)
        if words[0] == "travel":
            g.note("{seat} travels to {state}.", seat=seat, state=st)
            campaigning_continue(g)
            return
        n = int(words[2])
        f["cp"] -= n
        if "spent" in f:
            f["spent"][st] = f["spent"].get(st, 0) + n
        if support_check_needed(g, seat, st):
            # B1: declare the CP spent in a state needing support checks, then draw that many.
            f["declared"].append(st)
            g.note("{seat} declares {n} CP in {state} with support checks.", seat=seat, n=n, state=st)
            support_checks(g, seat, n, "state", st, then="campaigning_continue")
        else:
            gain(g.s["support"], st, seat, n)
            g.note("{seat} campaigns in {state} for {n}.", seat=seat, state=st, n=n)
            campaigning_continue(g)

    def prompt(self, g, f, seat):
        return msg("Campaigning: {cp} CP left. Spend 1 CP per state support cube in your region "
                   "and 1 CP per regional boundary crossed; your token is in {state}.",
                   cp=f["cp"], state=g.s["tokens"][f["seat"]])


def campaign_plan(g, seat: str) -> dict:
    """What a Campaigning planner shows before the player commits (B1): the CP left, where the
    candidate stands, whether travel costs nothing now (Ken-Air, Advance Men), the states where
    CP need support checks, those barred, and those already declared with checks this action
    (no second declaration there). All of it public: it follows from the board."""
    f = g.top
    return {"cp": f["cp"], "token": g.s["tokens"][seat], "free_travel": free_travel(g, seat),
            "support_checks": [st for st in STATES if support_check_needed(g, seat, st)],
            "barred": [st for st in STATES if campaign_barred(g, seat, st)],
            "declared": list(f["declared"]), "max_per_state": f.get("max_per_state"),
            "spent": dict(f.get("spent") or {})}


@then
def campaigning_continue(g, frame=None) -> None:
    if g.top["cp"] <= 0:
        g.end()


# --- B2 Advertising in Regions ---------------------------------------------------------------

@then
def advertising_hits(g, frame) -> None:
    g.top["left"] = frame["hits"]
    if frame["hits"] == 0:
        g.end()


@step
class Advertising(Step):
    name = "advertising"

    def actions(self, g, f, seat):
        return [f"media {r}" for r in REGIONS]

    def do(self, g, f, seat, action):
        region = action.split()[1]
        gain(g.s["media"], region, seat, 1)
        g.note("{seat} adds media support in {region}.", seat=seat, region=region)
        f["left"] -= 1
        if f["left"] == 0:
            g.end()

    def prompt(self, g, f, seat):
        if f["left"] == 1:
            return msg("Advertising: place {left} media support cube in any region's "
                       "advertising box (it removes an opposing cube first).", left=f["left"])
        return msg("Advertising: place {left} media support cubes in any region's advertising "
                   "box (each removes an opposing cube first).", left=f["left"])


# --- B3 Positioning on Issues ----------------------------------------------------------------

def position_price(f, issue: str) -> int:
    """B3: the first cube in an issue costs 1 CP, each further one in the same action 2 CP."""
    return 1 if f["bought"].get(issue, 0) == 0 else 2


def _position_choices(g, f, seat) -> list:
    banned = None
    if g.options["restricted_positioning"] and f["card"] in CARDS and not f.get("from_event"):
        banned = CARDS[f["card"]]["issue"]      # Optional rule: Restricted Positioning
    return [f"position {issue}" for issue in ISSUES
            if issue != banned and position_price(f, issue) <= f["cp"]]


def _end_positioning_if_spent(g) -> None:
    f = g.top
    if not _position_choices(g, f, f["seat"]):
        g.end()


@step
class Positioning(Step):
    name = "positioning"

    def actions(self, g, f, seat):
        return _position_choices(g, f, seat) + ["done"]

    def do(self, g, f, seat, action):
        if action == "done":
            g.end()
            return
        issue = action.split()[1]
        f["cp"] -= position_price(f, issue)
        f["bought"][issue] = f["bought"].get(issue, 0) + 1
        gain(g.s["issues"], issue, seat, 1)
        g.note("{seat} adds issue support in {issue}.", seat=seat, issue=issue)
        _end_positioning_if_spent(g)

    def prompt(self, g, f, seat):
        return msg("Positioning: {cp} CP left. The first cube in an issue costs 1 CP, each "
                   "further cube in the same issue 2 CP.", cp=f["cp"])
