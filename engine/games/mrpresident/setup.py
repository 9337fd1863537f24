"""SETUP: every candidate's set of 13 campaign cards, the electoral deck shuffled; in the Nominee
version the players split into two parties first (by their seats, or "by lot or coin-flip")."""
from itertools import combinations

from engine.core.errors import OptionsError

from .data import PARTIES
from .election import deal
from .flow import Step, step, then
from .messages import msg
from .state import GAME_ID, MrPresidentState, check_options, seats_for


def opening(seed, options: dict) -> dict:
    seats = seats_for(options["players"])
    return {
        "game": GAME_ID, "seed": seed, "options": options, "seats": seats,
        "stage": "convention" if options["nominee"] else "national",
        "parties": None, "nominees": None, "conventions": None,
        "election": 1, "past": [], "result": None,
        "history": [], "withdrawn": [],
        # before the deal (the Nominee parties drawn by lot): nothing dealt yet
        "deck": [], "table": [], "round": 0, "contests": {},
        "hands": {x: [] for x in seats}, "discards": {x: [] for x in seats},
        "refills": {x: 0 for x in seats}, "doubles": {x: 0 for x in seats},
        "plays": {}, "placing": None, "hidden_from": None,
        "stack": [], "log": [], "notes": [],
    }


def new(*, seed, players=None, options=None) -> MrPresidentState:
    """A new game of Mr. President at its first chance step. ``players`` (a count or the seat
    list) may stand for the ``players`` option."""
    options = dict(options or {})
    if players is not None:
        count = players if isinstance(players, int) else len(players)
        if "players" in options and options["players"] != count:
            raise OptionsError(msg("The players ({n}) and the option players ({m}) differ.",
                                   n=count, m=options["players"]))
        options["players"] = count
    options = check_options(options)
    if players is not None and not isinstance(players, int) \
            and list(players) != seats_for(options["players"]):
        raise OptionsError(msg("The seats of Mr. President are {ids}.",
                               ids=", ".join(seats_for(options["players"]))))
    g = MrPresidentState(opening(seed, options))
    if options["nominee"] and options["parties"] == "lot":
        g.call("parties_by_lot", then="parties_chosen")
    else:
        if options["nominee"]:
            g.s["parties"] = {"republican": ["p1", "p2"], "democratic": ["p3", "p4"]}
        deal(g)
    return g


@step
class PartiesByLot(Step):
    """The four players split into Republicans and Democrats by lot."""
    name = "parties_by_lot"
    chance = True

    def outcomes(self, g, f):
        return [(f"parties {a} {b}", 1) for a, b in combinations(g.s["seats"], 2)]

    def do(self, g, f, seat, action):
        republicans = action.split()[1:]
        g.s["parties"] = {"republican": republicans,
                          "democratic": [x for x in g.s["seats"] if x not in republicans]}
        for party in PARTIES:
            g.note("By lot, {seats} are the nominees of the {party}.", seats=g.s["parties"][party],
                   party=party)
        g.end()

    def prompt(self, g, f, seat):
        return msg("The parties are drawn by lot.")


@then
def parties_chosen(g, f) -> None:
    deal(g)
