"""Scoring a round of the chalkboard (1st) edition.

"The candidate or Party playing the card(s) with the greatest point value wins (scores) that
round." A tie carries the votes into the succeeding round: "Tying candidates (or Parties) turn up
their cards first, and whoever has played the highest value card(s) wins the previously 'tied'
votes ... Remaining candidates turn up their cards and all candidates vie for the votes on the
cards which are placed on the table."

Rulings (RULINGS.md): a tie among the tied again carries the votes on among those still tied; a
pot still tied when the deck is played out is won by nobody. A Party's value is its members'
cards together (NOMINEE VERSION).
"""
from .rounds import finish_round, value, votes_of


def side_values(g, contest) -> dict:
    """The value each side of the contest laid this round (sides that laid nothing are out)."""
    plays = g.s["plays"]
    out = {}
    for side, members in contest["sides"].items():
        laid = [c for x in members if x in plays for c in plays[x]["cards"]]
        if laid:
            out[side] = value(laid)
    return out


def award(g, contest, side, codes) -> None:
    votes = votes_of(codes)
    contest["tally"][side] += votes
    contest["ev"][side] += votes
    contest["won"][side] += list(codes)


def reveal(g) -> None:
    s = g.s
    for seat, play in s["plays"].items():
        play["shown"] = len(play["cards"])
        g.note("{seat} turns up {campaigns}: {n} points.", seat=seat,
               campaigns=list(play["cards"]), n=value(play["cards"]))
    s["hidden_from"] = None
    winners = {}
    for name, contest in s["contests"].items():
        if not contest["decided"]:
            winners[name] = score(g, contest)
    s["round_result"] = {"winners": winners}
    finish_round(g)


def score(g, contest) -> list:
    """Score one contest's round; return the sides that scored (they lead the next round)."""
    laid = side_values(g, contest)
    scored = []
    for pot in list(contest["pots"]):       # the tied votes first, oldest first
        values = {side: laid.get(side, 0) for side in pot["sides"]}
        best = max(values.values())
        top = [side for side in pot["sides"] if values[side] == best]
        if len(top) == 1:
            award(g, contest, top[0], pot["states"])
            contest["pots"].remove(pot)
            scored.append(top[0])
            g.note("{side} wins the tied votes of {states}: {n} electoral votes.", side=top[0],
                   states=list(pot["states"]), n=votes_of(pot["states"]))
        else:
            pot["sides"] = top
            g.note("{sides} tie again for {states}; the votes carry into the next round.",
                   sides=top, states=list(pot["states"]))
    table = g.s["table"]
    if table and laid:
        best = max(laid.values())
        top = [side for side in contest["sides"] if laid.get(side) == best]
        if len(top) == 1:
            award(g, contest, top[0], table)
            scored.append(top[0])
            g.note("{side} wins {states}: {n} electoral votes.", side=top[0], states=list(table),
                   n=votes_of(table))
        else:
            contest["pots"].append({"states": list(table), "sides": top})
            g.note("{sides} tie for {states}; the votes carry into the next round.", sides=top,
                   states=list(table))
    contest["leaders"] = [side for side in contest["sides"] if side in scored]
    return contest["leaders"]
