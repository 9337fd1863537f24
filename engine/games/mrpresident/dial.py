"""A round of the dial (2nd) edition after the cards are laid: the turn-up, second cards, the
placing (ties, the Close Vote Column), the upset attempt, and the votes.

Rulings (RULINGS.md) where the rules are silent:
- Answering second cards are offered only when somebody laid two cards, to the candidates who laid
  one and still hold a card.
- Ties for a place other than first, and tied candidates with equal scoreboard totals, are
  settled by lot (a chance step whose outcome is logged).
- The spread is between the highest and the lowest candidate's cards (their totals).
- The upset: every candidate placed below first who could still beat the first place's cards
  decides at once; if several attempt, the best-placed makes the attempt and the others take
  their cards back unseen. The first place may answer with one card. An equal total fails: the
  upsetting player must have "the higher total". A successful upset reverses the placing, as the
  rules say (last becomes first), and each place keeps the column it had.
- A first-place tie between candidates who each laid the one card they had left cannot be
  buried (it would come back for ever): nobody wins the state(s) (``set_aside``). Nor is a state
  card buried twice in an election: tied again when it comes back, nobody wins it; so an
  election has at most one buried round for each state card.
"""
from itertools import permutations

from .data import CARD_VALUES, CLOSE_SPREAD, STATES
from .flow import Step, step, then
from .messages import msg
from .rounds import finish_round, value, votes_of


def _shown(play) -> list:
    return play["cards"][:play["shown"]]


def first_reveal(g) -> None:
    """All candidates turn up their cards, one of two when two were laid."""
    s = g.s
    doubled = [x for x, p in s["plays"].items() if len(p["cards"]) == 2]
    for seat, play in s["plays"].items():
        play["shown"] = 1
        if len(play["cards"]) == 2:
            g.note("{seat} turns up {campaign} and keeps a second card face down.", seat=seat,
                   campaign=play["cards"][0])
        else:
            g.note("{seat} turns up {campaign}.", seat=seat, campaign=play["cards"][0])
    answering = [x for x in s["seats"] if x in s["plays"] and len(s["plays"][x]["cards"]) == 1
                 and s["hands"][x]]
    if doubled and answering:
        g.call("answer", then="answered", seats=answering)
    else:
        full_reveal(g)


@step
class Answer(Step):
    """A candidate who laid one card may answer a two-card play with a second card."""
    name = "answer"
    simultaneous = True

    def seats(self, g, f):
        return f["seats"]

    def actions(self, g, f, seat):
        return ["second none"] + [f"second {c}" for c in g.s["hands"][seat]]

    def resolve(self, g, f, commits):
        from .rounds import lay
        for seat in f["seats"]:
            word = commits[seat].split()[1]
            if word != "none":
                lay(g, seat, [int(word)])
        g.end()

    def prompt(self, g, f, seat):
        if seat is None:
            return msg("Somebody laid two cards: the candidates who laid one may answer with a "
                       "second card.")
        return msg("Somebody laid two cards. Play a second card in hopes of first place, or "
                   "none.")


@then
def answered(g, f) -> None:
    full_reveal(g)


def full_reveal(g) -> None:
    s = g.s
    for seat, play in s["plays"].items():
        if play["shown"] < len(play["cards"]):
            g.note("{seat} turns up {campaigns}: {n} points.", seat=seat,
                   campaigns=play["cards"][play["shown"]:], n=value(play["cards"]))
        play["shown"] = len(play["cards"])
    place(g)


def _contest(g) -> dict:
    return g.s["contests"]["national"]


def place(g) -> None:
    """Rank the candidates by their cards; settle ties (POPULAR VOTE, ELECTORAL VOTE)."""
    s = g.s
    totals = {x: value(p["cards"]) for x, p in s["plays"].items()}
    best = max(totals.values())
    top = [x for x in s["seats"] if totals.get(x) == best]
    popular = s["options"]["count"] == "popular"
    # "on the first State card": while nothing is on the scoreboard in this election
    if len(top) > 1 and (not popular or not any(_contest(g)["tally"].values())):
        if all(len(s["plays"][x]["cards"]) == 1 and not s["hands"][x] for x in top) \
                or any(c in s.get("buried", []) for c in s["table"]):
            set_aside(g, top)
        else:
            bury(g, top)
        return
    tally = _contest(g)["tally"]
    groups = []
    # First-place ties (popular vote): "the tying candidate with the lowest total on the Election
    # Scoreboard gets first place vote, candidate with second lowest total takes second ..."
    for t in sorted({tally[x] for x in top}):
        groups.append([x for x in top if tally[x] == t])
    for v in sorted(set(totals.values()) - {best}, reverse=True):
        groups.append([x for x in s["seats"] if totals.get(x) == v])
    spread = best - min(totals.values())
    # The Close Vote Column is a column of the Popular Vote Chart: the electoral vote has none.
    close = popular and len(totals) > 1 and spread <= CLOSE_SPREAD[s["options"]["players"]]
    s["placing"] = {"groups": groups, "order": [], "totals": totals,
                    "close": [close or (len(top) > 1 and i < len(top)) for i in range(len(totals))]}
    if len(top) > 1:
        g.note("{seats} tie for first place: the Close Vote Column, the lowest total on the "
               "scoreboard first.", seats=top)
    if close:
        g.note("The cards are no more than {n} points apart: the Close Vote Column is used.",
               n=CLOSE_SPREAD[s["options"]["players"]])
    if any(len(grp) > 1 for grp in groups):
        g.call("lot", then="placed", groups=[grp for grp in groups if len(grp) > 1], drawn=[])
    else:
        placed(g, {"drawn": []})


@step
class Lot(Step):
    """Ties settled "by lot or coin-toss": the order of each tied group, drawn in turn."""
    name = "lot"
    chance = True

    def outcomes(self, g, f):
        group = f["groups"][len(f["drawn"])]
        return [("lot " + " ".join(p), 1) for p in permutations(group)]

    def do(self, g, f, seat, action):
        f["drawn"].append(action.split()[1:])
        if len(f["drawn"]) == len(f["groups"]):
            g.end()

    def prompt(self, g, f, seat):
        return msg("A tie is settled by lot.")


@then
def placed(g, f) -> None:
    s = g.s
    drawn = list(f["drawn"])
    order = []
    for grp in s["placing"]["groups"]:
        if len(grp) > 1:
            lot = drawn.pop(0)
            g.note("By lot: {seats}.", seats=lot)
            order += lot
        else:
            order += grp
    s["placing"]["order"] = order
    g.note("The placing: {seats}.", seats=order)
    offer_upset(g)


def offer_upset(g) -> None:
    """"During a round in which each player has played only one card, a candidate may attempt an
    upset vote after all cards have been turned up." Offered to those who could still win it."""
    s = g.s
    order = s["placing"]["order"]
    totals = s["placing"]["totals"]
    if len(order) < 2 or any(len(p["cards"]) != 1 for p in s["plays"].values()):
        distribute(g)
        return
    first = totals[order[0]]
    seats = [x for x in order[1:] if s["hands"][x]
             and totals[x] + max(CARD_VALUES[c] for c in s["hands"][x]) > first]
    if seats:
        g.call("upset", then="upset_decided", seats=[x for x in s["seats"] if x in seats])
    else:
        distribute(g)


@step
class Upset(Step):
    name = "upset"
    simultaneous = True

    def seats(self, g, f):
        return f["seats"]

    def actions(self, g, f, seat):
        return ["upset none"] + [f"upset {c}" for c in g.s["hands"][seat]]

    def resolve(self, g, f, commits):
        s = g.s
        start = g.log_length() - len(commits)
        attempts = {x: commits[x].split()[1] for x in f["seats"]
                    if commits[x] != "upset none"}
        order = s["placing"]["order"]
        upsetter = next((x for x in order if x in attempts), None)
        for i, (who, _) in enumerate(g.log_since(start), start):
            if who in attempts and who != upsetter:
                s["withdrawn"].append(i)     # taken back unseen
        f["upsetter"] = upsetter
        if upsetter:
            from .rounds import lay
            card = int(attempts[upsetter])
            lay(g, upsetter, [card])
            # "places it face down on the table": turned up once first place has answered
            g.note("{seat} attempts an upset with another card face down.", seat=upsetter)
        g.end()

    def prompt(self, g, f, seat):
        if seat is None:
            return msg("The candidates placed below first may attempt an upset.")
        return msg("Attempt an upset? Lay another card: if your cards total more than first "
                   "place's, the placing is reversed.")


@then
def upset_decided(g, f) -> None:
    s = g.s
    upsetter = f["upsetter"]
    if not upsetter:
        distribute(g)
        return
    first = s["placing"]["order"][0]
    if s["hands"][first]:
        g.call("stop", then="stopped", seat=first, upsetter=upsetter)
    else:
        judge_upset(g, upsetter)


@step
class Stop(Step):
    """"The first place winner has the option of also playing another card to stop the upset.\""""
    name = "stop"

    def actions(self, g, f, seat):
        return ["stop none"] + [f"stop {c}" for c in g.s["hands"][seat]]

    def do(self, g, f, seat, action):
        word = action.split()[1]
        if word != "none":
            from .rounds import lay
            lay(g, seat, [int(word)])
            g.note("{seat} lays another card face down to stop the upset.", seat=seat)
        g.end()

    def prompt(self, g, f, seat):
        if seat is None:        # told to those waiting: only first place may stop it
            return msg("{seat} attempts an upset; {seat_first}, first, may play another card "
                       "to stop it.", seat=f["upsetter"], seat_first=f["seat"])
        return msg("{seat} attempts an upset. Play another card to stop it, or none.",
                   seat=f["upsetter"])


@then
def stopped(g, f) -> None:
    judge_upset(g, f["upsetter"])


def judge_upset(g, upsetter) -> None:
    s = g.s
    order = s["placing"]["order"]
    for seat in (upsetter, order[0]):       # the upset card and any stopping card turned up
        play = s["plays"][seat]
        if play["shown"] < len(play["cards"]):
            g.note("{seat} turns up {campaigns}: {n} points.", seat=seat,
                   campaigns=play["cards"][play["shown"]:], n=value(play["cards"]))
            play["shown"] = len(play["cards"])
    mine, theirs = value(s["plays"][upsetter]["cards"]), value(s["plays"][order[0]]["cards"])
    if mine > theirs:
        s["placing"]["order"] = order[::-1]
        g.note("The upset succeeds ({n} to {m}): the placing is reversed.", n=mine, m=theirs)
    else:
        g.note("The upset fails ({n} to {m}).", n=mine, m=theirs)
    distribute(g)


def bury(g, top) -> None:
    """A first-place tie in the electoral vote (and on the first state card in the popular vote):
    "the card is buried in the deck and the Campaign Cards are replaced in each candidate's
    hand". The deck is shuffled, so a buried card may come up at any later turn-up."""
    s = g.s
    g.note("{seats} tie for first place: {states} go back into the deck and the campaign cards "
           "go back to the hands.", seats=top, states=list(s["table"]))
    s["deck"] = sorted(s["deck"] + s["table"])
    s["buried"] = sorted(s.get("buried", []) + s["table"])
    for seat, play in s["plays"].items():
        s["hands"][seat] = sorted(s["hands"][seat] + play["cards"])
    s["round_result"] = {"buried": top}
    finish_round(g, void=True)


def set_aside(g, top) -> None:
    """Ruling: a first-place tie that would only come back - every tied candidate laid the one
    card he holds, so he could lay nothing else, or the state card was buried once already in
    this election - is not buried (that would repeat forever): the state card(s) go to nobody
    and the round is played."""
    s = g.s
    if any(c in s.get("buried", []) for c in s["table"]):
        g.note("{seats} tie for first place again on {states}, buried once already: nobody wins "
               "them.", seats=top, states=list(s["table"]))
    else:
        g.note("{seats} tie for first place with their last card: nobody wins {states}.",
               seats=top, states=list(s["table"]))
    s["round_result"] = {"set_aside": top}
    finish_round(g)


def distribute(g) -> None:
    """The votes by place: the first place takes the state(s)' electoral votes (and the state
    cards); by popular vote every place takes its vote from the chart, in its column."""
    s = g.s
    contest = _contest(g)
    order, close = s["placing"]["order"], s["placing"]["close"]
    table = s["table"]
    ev = votes_of(table)
    n = s["options"]["players"]
    votes = {}
    if s["options"]["count"] == "popular":
        for k, seat in enumerate(order):
            column = "close" if close[k] else "regular"
            votes[seat] = sum(STATES[c]["popular"][n][column][k] for c in table)
            contest["tally"][seat] += votes[seat]
            if close[k]:
                g.note("{seat} places {place}: {n} thousand votes (Close Vote Column).",
                       seat=seat, place=k + 1, n=votes[seat])
            else:
                g.note("{seat} places {place}: {n} thousand votes.", seat=seat, place=k + 1,
                       n=votes[seat])
    else:
        votes[order[0]] = ev
        contest["tally"][order[0]] += ev
    contest["ev"][order[0]] += ev
    contest["won"][order[0]] += list(table)
    g.note("{seat} places first and takes {states}: {n} electoral votes.", seat=order[0],
           states=list(table), n=ev)
    s["round_result"] = {"order": list(order), "votes": votes,
                         "close": [bool(c) for c in close[:len(order)]]}
    finish_round(g)
