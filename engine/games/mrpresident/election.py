"""A deal of the cards, the end of an election, and who becomes Mr. President.

- "If no candidate or Party wins a majority of electoral votes (270 or more), the game must be
  replayed. Optional: ... the candidate or Party with a plurality (most) of electoral votes may be
  declared the winner." Replayed means a new election in the same game: the deck shuffled again
  and every hand whole again (the ``past`` elections are kept). Ruling: the dial edition's
  electoral vote is judged the same way; its popular vote goes to the most votes, a tie there to
  the most electoral votes, and a tie in both is replayed too.
- An election is decided as soon as its result can no longer change (RULINGS.md): a majority
  reached ("first party to score a majority ... wins"), nobody able to reach one any more, or under
  plurality a lead the remaining votes cannot overturn. The popular vote plays every card.
- Ruling (RULINGS.md, "Every game ends"): the third election of a game is the last. In it the most
  votes win (as under the plurality option); a tie in it goes to the tied candidate (or party)
  with the most votes over all the game's elections, and a tie in that is drawn by lot. So a game
  holds at most three elections, and nothing can replay it for ever.
- NOMINEE VERSION: both parties' conventions on the same electoral cards at once; the winner of
  each is its presidential candidate, the other its vice-presidential candidate (a tie in votes
  is settled by lot); then the national election between the parties, hands whole again and the
  two-card play once more available ("the second game").
"""
from engine.core.protocol import Outcome, Termination

from .data import CARDS, MAJORITY, PARTIES, STATES

LAST_ELECTION = 3       # the third election of a game is decided whatever happens (the ruling)
from .flow import then
from .messages import msg
from .rounds import playing_seats, start_round, votes_of


def new_contest(sides: dict) -> dict:
    return {"sides": sides, "tally": {k: 0 for k in sides}, "ev": {k: 0 for k in sides},
            "won": {k: [] for k in sides}, "pots": [], "leaders": [], "decided": False}


def contests(g) -> dict:
    s = g.s
    if s["stage"] == "convention":
        return {p: new_contest({x: [x] for x in s["parties"][p]}) for p in PARTIES}
    if s["nominees"]:
        return {"national": new_contest({p: [s["nominees"][p]["president"],
                                             s["nominees"][p]["vice"]] for p in PARTIES})}
    return {"national": new_contest({x: [x] for x in s["seats"]})}


def deal(g) -> None:
    """The deck shuffled (every turn-up is a chance draw from what is left) and each candidate's
    set of 13 campaign cards in hand."""
    s = g.s
    replays = s["options"]["edition"] == "dial" or s["options"]["version"] == "long"
    s.update({
        "deck": sorted(STATES), "table": [], "round": 0,
        "hands": {x: sorted(CARDS) for x in s["seats"]},
        "discards": {x: [] for x in s["seats"]},
        # "Each candidate replays his hand four times": the hand and three pick-ups.
        "refills": {x: 3 if replays else 0 for x in s["seats"]},
        "doubles": {x: 0 if g.dial else 1 for x in s["seats"]},
        "plays": {}, "placing": None, "hidden_from": None, "contests": contests(g),
        "buried": [],
    })
    if s["stage"] == "national" and s["election"] == LAST_ELECTION:
        g.note("This is election {n}, the last: the most votes win it, and a tie goes to the most "
               "votes over all the elections, then to the lot.", n=LAST_ELECTION)
    start_round(g)


def last_election(g) -> bool:
    return g.s["stage"] == "national" and g.s["election"] >= LAST_ELECTION


def majority_needed(g, name) -> bool:
    return name == "national" and not g.s["options"]["plurality"] and not last_election(g)


def clinched(g, name, contest) -> bool:
    """Whether the contest's result can no longer change (electoral votes only)."""
    if g.s["options"]["count"] == "popular":
        return False
    remaining = votes_of(g.s["deck"]) + sum(votes_of(p["states"]) for p in contest["pots"])
    tally = contest["tally"]
    if majority_needed(g, name):
        return max(tally.values()) >= MAJORITY or all(t + remaining < MAJORITY
                                                       for t in tally.values())
    ranked = sorted(tally.values(), reverse=True)
    return ranked[0] > ranked[1] + remaining


def election_over(g) -> bool:
    s = g.s
    for name, contest in s["contests"].items():
        if not contest["decided"] and clinched(g, name, contest):
            contest["decided"] = True
            if name in PARTIES and s["deck"]:
                g.note("The {party} convention is decided.", party=name)
    if not s["deck"] or all(c["decided"] for c in s["contests"].values()):
        return True
    return not playing_seats(g)


def end_election(g) -> None:
    s = g.s
    for contest in s["contests"].values():
        for pot in contest["pots"]:
            g.note("{states} stay tied: nobody wins them.", states=list(pot["states"]))
    if s["stage"] == "convention":
        groups = []
        for party in PARTIES:
            top = _top(s["contests"][party]["tally"])
            if len(top) > 1:
                groups.append(top)
        if groups:
            g.call("lot", then="nominated", groups=groups, drawn=[])
        else:
            nominated(g, {"drawn": []})
        return
    contest = s["contests"]["national"]
    winner = national_winner(g, contest)
    record = {"election": s["election"], "tally": dict(contest["tally"]), "ev": dict(contest["ev"])}
    if winner is None and last_election(g):
        top = _top(contest["tally"])
        if s["options"]["count"] == "popular":
            top = _top({k: contest["ev"][k] for k in top})
        if len(top) == 1:
            g.note("Nobody has a majority of {n} electoral votes, and election {m} is the last: "
                   "the most electoral votes win it.", n=MAJORITY, m=s["election"])
        else:
            g.note("Election {n} is the last and ends tied: the most votes over all the "
                   "elections decide.", n=s["election"])
            overall = {k: contest["tally"][k] + sum(p["tally"][k] for p in s["past"])
                       for k in top}
            top = _top(overall)
            if len(top) > 1:
                g.call("lot", then="elected_by_lot", groups=[top], drawn=[])
                return
        winner = top[0]
    if winner is None:
        s["past"].append(record)
        if s["options"]["count"] == "popular":
            g.note("The popular vote is tied: the election must be replayed.")
        elif s["options"]["plurality"]:
            g.note("Nobody has the most electoral votes alone: the election must be replayed.")
        else:
            g.note("Nobody has a majority of {n} electoral votes: the election must be "
                   "replayed.", n=MAJORITY)
        s["election"] += 1
        deal(g)
        return
    elected(g, record, winner)


@then
def elected_by_lot(g, f) -> None:
    """The last election's tie, still tied over all the elections, drawn by lot."""
    s = g.s
    contest = s["contests"]["national"]
    winner = f["drawn"][0][0]
    if s["nominees"]:
        g.note("By lot, the {party} wins the election.", party=winner)
    else:
        g.note("By lot, {seat} wins the election.", seat=winner)
    elected(g, {"election": s["election"], "tally": dict(contest["tally"]),
                "ev": dict(contest["ev"])}, winner)


def elected(g, record: dict, winner: str) -> None:
    s = g.s
    s["result"] = {**record, "winner": winner, "president": _president(s, winner),
                   "vice": _vice(s, winner)}
    if s["nominees"]:
        g.note("{party} wins the election: {seat} is Mr. President and {seat_vice} Vice "
               "President.", party=winner, seat=_president(s, winner), seat_vice=_vice(s, winner))
    else:
        g.note("{seat} wins the election and becomes Mr. President.", seat=winner)


def _top(tally: dict) -> list:
    best = max(tally.values())
    return [k for k in tally if tally[k] == best]


def national_winner(g, contest):
    tally = contest["tally"]
    if g.s["options"]["count"] == "popular":
        top = _top(tally)
        if len(top) > 1:
            ev = {k: contest["ev"][k] for k in top}
            top = _top(ev)
        return top[0] if len(top) == 1 else None
    if g.s["options"]["plurality"]:
        top = _top(tally)
        return top[0] if len(top) == 1 else None
    return next((k for k, v in tally.items() if v >= MAJORITY), None)


def _president(s, side):
    return s["nominees"][side]["president"] if s["nominees"] else side


def _vice(s, side):
    return s["nominees"][side]["vice"] if s["nominees"] else None


@then
def nominated(g, f) -> None:
    s = g.s
    drawn = list(f["drawn"])
    s["nominees"] = {}
    for party in PARTIES:
        top = _top(s["contests"][party]["tally"])
        if len(top) > 1:
            top = drawn.pop(0)
            g.note("The {party} convention is tied; by lot {seat} is its candidate.",
                   party=party, seat=top[0])
        president = top[0]
        vice = next(x for x in s["parties"][party] if x != president)
        s["nominees"][party] = {"president": president, "vice": vice}
        g.note("{party} nominates {seat} for President and {seat_vice} for Vice President.",
               party=party, seat=president, seat_vice=vice)
    s["conventions"] = {p: {"tally": dict(s["contests"][p]["tally"])} for p in PARTIES}
    s["stage"] = "national"
    deal(g)


def final_outcome(g):
    result = g.s["result"]     # every election that ends without one is replayed
    tally = result["tally"]
    n = tally[result["winner"]]
    if g.s["nominees"]:
        scores = {x: tally[p] for p in PARTIES for x in g.s["parties"][p]}
        reason = msg("{party} wins with {n} electoral votes: {seat} is Mr. President, "
                     "{seat_vice} Vice President.", party=result["winner"], n=n,
                     seat=result["president"], seat_vice=result["vice"])
    elif g.s["options"]["count"] == "popular":
        scores = dict(tally)
        reason = msg("{seat} becomes Mr. President with {n} thousand popular votes.",
                     seat=result["winner"], n=n)
    else:
        scores = dict(tally)
        reason = msg("{seat} becomes Mr. President with {n} electoral votes.",
                     seat=result["winner"], n=n)
    return Outcome(result["president"], reason, scores, termination(g.s, result))


def termination(s: dict, result: dict) -> Termination:
    """How the last election was decided: its own count; a tie broken by the count the rules
    name next (a tied popular vote by the electoral vote, a tie in the last election by the
    most votes over all the elections); or a tie that stayed, drawn by lot
    (``elected_by_lot``)."""
    tally = result["tally"]
    top = _top(tally)
    if len(top) == 1:
        return Termination.SCORE
    if s["options"]["count"] == "popular":  # a tied popular vote: the electoral vote next
        top = _top({k: result["ev"][k] for k in top})
        if len(top) == 1:
            return Termination.TIE_BREAK
    overall = {k: tally[k] + sum(p["tally"][k] for p in s["past"]) for k in top}
    return Termination.TIE_BREAK if len(_top(overall)) == 1 else Termination.LOT
