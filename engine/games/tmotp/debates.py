"""The Debates - Turn 6: initiative, the five strategy cards, rounds of simultaneous reveals."""
from .bag import initiative_check
from .board import gain
from .data import CARDS, SEATS, STATES, other
from .flow import Step, step, then
from .messages import msg

LAZY_SHAVE, HARVARD_BRAIN_TRUST = 34, 35
AWARDS = (2, 3, 4)      # first, second and last issue won


def debates(g) -> None:
    """1. Determine Initiative (for the whole Debates)."""
    g.s["round"] = "debates"
    initiative_check(g, then="set_the_stage")


@then
def set_the_stage(g, frame=None) -> None:
    """2. Campaign Strategy and 3. Set the Stage: the issue tiles move to the Debate Board with
    their issue support cubes; each keeps its original track position."""
    s = g.s
    s["debate"] = {
        "cards": {x: sorted(s["strategy"][x]) for x in SEATS},
        "tiles": {issue: {"position": i, "kennedy": [], "nixon": [], "won": None}
                  for i, issue in enumerate(s["issue_track"])},
        "awarded": 0, "pending": [], "revealed": {},
    }
    s["strategy"] = {x: [] for x in SEATS}
    s["issue_track"] = [None, None, None]
    g.note("The Debates: the issue tiles are set on the Debate Board.")
    next_round(g)


def _has_cards(g, seat) -> bool:
    return bool(g.s["debate"]["cards"][seat])


def next_round(g) -> None:
    """4. Debate! A new round, or the end of the Debates when all issues are won or cards run out."""
    d = g.s["debate"]
    open_issues = [i for i, t in d["tiles"].items() if t["won"] is None]
    if not open_issues or not any(_has_cards(g, x) for x in SEATS):
        end_debates(g)
        return
    d["revealed"] = {}
    if LAZY_SHAVE in g.s["persistent"]["debate"] and _has_cards(g, "nixon") and _has_cards(g, "kennedy"):
        # Lazy Shave: Nixon reveals his card before Kennedy picks his.
        g.call("debate_round", order=["nixon"], then_order=["kennedy"])
    else:
        g.call("debate_round", order=[x for x in SEATS if _has_cards(g, x)], then_order=[])


@step
class DebateRound(Step):
    name = "debate_round"
    simultaneous = True

    def seats(self, g, f):
        return list(f["order"])

    def actions(self, g, f, seat):
        return [f"debate {c}" for c in g.s["debate"]["cards"][seat]]

    def resolve(self, g, f, commits):
        d = g.s["debate"]
        for seat, action in commits.items():
            cid = int(action.split()[1])
            d["cards"][seat].remove(cid)
            d["revealed"][seat] = cid
            g.note("{seat} reveals {card}.", seat=seat, card=cid)
        if f["then_order"]:
            f["order"], f["then_order"] = f["then_order"], []
            return
        g.s["stack"].pop()
        place_cards(g)

    def prompt(self, g, f, seat):
        shown = list(g.s["debate"]["revealed"].items())
        if not shown:
            return msg("Debate: choose a card to reveal.")
        if len(shown) == 1:
            (x, c), = shown
            return msg("Debate: choose a card to reveal. {seat} has revealed {card}.", seat=x, card=c)
        (x1, c1), (x2, c2) = shown
        return msg("Debate: choose a card to reveal. {seat1} has revealed {card1}. {seat2} has "
                   "revealed {card2}.", seat1=x1, card1=c1, seat2=x2, card2=c2)


def place_cards(g) -> None:
    """Place the revealed cards by debate icon and candidate icon; cards for an issue already won
    are discarded; a card with both icons goes to the side its player chooses, the initiative
    player deciding who places first when both played such cards."""
    d = g.s["debate"]
    choosers = []
    for seat, cid in sorted(d["revealed"].items()):
        card = CARDS[cid]
        tile = d["tiles"][card["issue"]]
        if tile["won"] is not None:
            g.s["discard"].append(cid)
            g.note("{card} is played to {issue}, already won: discarded.", card=cid,
                   issue=card["issue"])
        elif card["icon"] == "both":
            choosers.append(seat)
        else:
            _place(g, cid, card["icon"])
    if len(choosers) == 2:
        g.call("debate_first", then="debate_sides", seat=g.s["initiative"])
    else:
        g.s["debate"]["side_order"] = choosers
        debate_sides(g)


def _place(g, cid, side) -> None:
    card = CARDS[cid]
    g.s["debate"]["tiles"][card["issue"]][side].append(cid)
    g.note("{card} goes to {seat}'s side of {issue}.", card=cid, seat=side, issue=card["issue"])


@step
class DebateFirst(Step):
    name = "debate_first"

    def actions(self, g, f, seat):
        return [f"first {x}" for x in SEATS]

    def do(self, g, f, seat, action):
        first = action.split()[1]
        g.s["debate"]["side_order"] = [first, other(first)]
        g.end()

    def prompt(self, g, f, seat):
        return msg("Both cards show both candidates: as the initiative player, choose who places "
                   "first.")


@then
def debate_sides(g, frame=None) -> None:
    d = g.s["debate"]
    if d.get("side_order"):
        seat = d["side_order"].pop(0)
        g.call("debate_side", then="debate_sides", seat=seat, card=d["revealed"][seat])
        return
    d.pop("side_order", None)
    check_wins(g)


@step
class DebateSide(Step):
    name = "debate_side"

    def actions(self, g, f, seat):
        return [f"side {x}" for x in SEATS]

    def do(self, g, f, seat, action):
        _place(g, f["card"], action.split()[1])
        g.end()

    def prompt(self, g, f, seat):
        return msg("{card} shows both candidates: place it on {seat1}'s or {seat2}'s side of "
                   "{issue}.", card=f["card"], seat1="kennedy", seat2="nixon",
                   issue=CARDS[f["card"]]["issue"])


def side_total(g, issue: str, seat: str) -> int:
    """The CP on ``seat``'s side of an issue, with Harvard Brain Trust's +1 for Kennedy."""
    return side_cp(g.s, issue, seat)


def side_cp(s: dict, issue: str, seat: str) -> int:
    """``side_total`` of the state's dict ``s`` (the views read it too)."""
    tile = s["debate"]["tiles"][issue]
    total = sum(CARDS[c]["cp"] for c in tile[seat])
    if seat == "kennedy" and HARVARD_BRAIN_TRUST in s["persistent"]["debate"]:
        total += 1
    return total


def award_won(s: dict, issue: str) -> int | None:
    """The state support cubes the winner of ``issue`` placed, None while it is not won: the
    tile went to the lowest unoccupied track position (``win_issue``), so the first issue won
    lies last on the track (AWARDS[0]), the next before it."""
    track = s["issue_track"]
    if not s["debate"]["tiles"][issue]["won"] or issue not in track:
        return None
    return AWARDS[len(track) - 1 - track.index(issue)]


def check_wins(g) -> None:
    """An issue with two cards on one side is won; simultaneous wins resolve from the lowest
    original track position up."""
    d = g.s["debate"]
    won = [i for i, t in d["tiles"].items()
           if t["won"] is None and (len(t["kennedy"]) >= 2 or len(t["nixon"]) >= 2)]
    d["pending"] = sorted(won, key=lambda i: -d["tiles"][i]["position"])
    award_next(g, then_round=True)


def award_next(g, then_round: bool) -> None:
    d = g.s["debate"]
    if not d["pending"]:
        if then_round:
            next_round(g)
        else:
            finish_debates(g)
        return
    issue = d["pending"].pop(0)
    win_issue(g, issue, then="debate_awarded_round" if then_round else "debate_awarded_end")


@then
def debate_awarded_round(g, frame=None) -> None:
    award_next(g, then_round=True)


@then
def debate_awarded_end(g, frame=None) -> None:
    award_next(g, then_round=False)


def win_issue(g, issue: str, then: str) -> None:
    """Winning an Issue: higher CP wins, ties to the initiative; the tile goes to the lowest
    unoccupied track position, its cards to the discard pile, and the winner places 2, 3 or 4
    state support cubes without support checks."""
    s, d = g.s, g.s["debate"]
    tile = d["tiles"][issue]
    k, n = side_total(g, issue, "kennedy"), side_total(g, issue, "nixon")
    winner = "kennedy" if k > n else "nixon" if n > k else s["initiative"]
    tile["won"] = winner
    slot = max(i for i, x in enumerate(s["issue_track"]) if x is None)
    s["issue_track"][slot] = issue
    s["discard"] += tile["kennedy"] + tile["nixon"]
    cubes = AWARDS[d["awarded"]]
    d["awarded"] += 1
    g.note("{seat} wins {issue} ({k} to {n} CP) and places {cubes} state support.",
           seat=winner, issue=issue, k=k, n=n, cubes=cubes)
    g.call("debate_award", then=then, seat=winner, left=cubes, issue=issue)


@step
class DebateAward(Step):
    name = "debate_award"

    def actions(self, g, f, seat):
        return [f"support {st} {n}" for st in STATES for n in range(1, f["left"] + 1)]

    def do(self, g, f, seat, action):
        _, st, n = action.split()
        gain(g.s["support"], st, seat, int(n))
        f["left"] -= int(n)
        g.note("{seat} adds {n} state support in {state}.", seat=seat, n=int(n), state=st)
        if f["left"] == 0:
            g.end()

    def prompt(self, g, f, seat):
        if f["left"] == 1:
            return msg("You won {issue}: place {left} state support cube in any state, with no "
                       "support check.", issue=f["issue"], left=f["left"])
        return msg("You won {issue}: place {left} state support cubes in any states, with no "
                   "support checks.", issue=f["issue"], left=f["left"])


def end_debates(g) -> None:
    """Ending the Debates: issues not yet won are resolved from the lowest original position up."""
    d = g.s["debate"]
    d["pending"] = sorted((i for i, t in d["tiles"].items() if t["won"] is None),
                          key=lambda i: -d["tiles"][i]["position"])
    award_next(g, then_round=False)


def finish_debates(g) -> None:
    """5. After the Debates: all strategy cards and Debate events are discarded."""
    s = g.s
    for seat in SEATS:
        s["discard"] += s["debate"]["cards"][seat]
    s["discard"] += s["persistent"]["debate"]
    s["persistent"]["debate"] = []
    s["debate"] = None
    from .effects import end_of_turn
    end_of_turn(g)
    from .turn import start_turn
    start_turn(g)
