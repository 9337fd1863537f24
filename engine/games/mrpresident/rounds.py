"""A round of play: electoral (state) cards turned up, campaign cards laid face down by every
candidate at once and turned up together (PLAY, both editions).

The chalkboard edition: "the candidate or Party scoring in the previous round must be first to
produce his (or their) card(s), face down" - the ``lead`` step, whose cards stay hidden but
whose number of cards everybody sees - then everybody else at once (``play``); scoring in
chalkboard.py. The dial edition: everybody at once (``play``), one card of two turned up first
and the others' answering second cards (``answer``), then the placing and the upset in dial.py.
"""
from itertools import combinations

from .data import CARD_VALUES, STATES
from .flow import Step, step, then
from .messages import msg


def round_size(version: str, r: int) -> int:
    """The electoral cards round ``r`` turns up. Short versions: four cards a round for ten
    rounds, five in the 11th, six in the 12th. Long versions: one card a round."""
    if version == "long":
        return 1
    return 4 if r <= 10 else 5 if r == 11 else 6


def cards_this_round(g) -> int:
    return round_size(g.s["options"]["version"], g.s["round"])


def value(cards) -> int:
    return sum(CARD_VALUES[c] for c in cards)


def votes_of(codes) -> int:
    return sum(STATES[c]["ev"] for c in codes)


def playing_seats(g) -> list:
    """The seats of undecided contests that hold a card: a candidate without cards cannot play
    (dial edition: "unable to play a card for votes in the remaining states")."""
    s = g.s
    out = []
    for c in s["contests"].values():
        if c["decided"]:
            continue
        for members in c["sides"].values():
            out += [x for x in members if s["hands"][x]]
    return [x for x in s["seats"] if x in out]


def may_double(g, seat) -> bool:
    """Two cards: as often as wanted in the dial edition; once a game in the chalkboard edition
    (and never with a single card left in hand: the discards come back only when the hand is
    empty)."""
    s = g.s
    return len(s["hands"][seat]) >= 2 and (g.dial or s["doubles"][seat] > 0)


def play_actions(g, seat) -> list:
    hand = sorted(g.s["hands"][seat])
    out = [f"play {c}" for c in hand]
    if may_double(g, seat):
        if g.dial:      # the first card named is the one turned up first
            out += [f"play {a} {b}" for a in hand for b in hand if a != b]
        else:
            out += [f"play {a} {b}" for a, b in combinations(hand, 2)]
    return out


def start_round(g) -> None:
    from .election import election_over, end_election
    s = g.s
    if election_over(g):
        end_election(g)
        return
    s["round"] += 1
    s["table"] = []
    s["plays"] = {}
    g.call("turn_up", then="turned_up", left=min(cards_this_round(g), len(s["deck"])))


@step
class TurnUp(Step):
    """The scorekeeper turns up the top card of the shuffled deck: any card still in it."""
    name = "turn_up"
    chance = True

    def outcomes(self, g, f):
        return [(f"turn {c}", 1) for c in g.s["deck"]]

    def do(self, g, f, seat, action):
        code = action.split()[1]
        g.s["deck"].remove(code)
        g.s["table"].append(code)
        f["left"] -= 1
        if f["left"] == 0:
            g.end()

    def prompt(self, g, f, seat):
        return msg("The next electoral card is turned up.")


@then
def turned_up(g, f) -> None:
    s = g.s
    g.note("Round {round}: {states} turned up, {n} electoral votes.", round=s["round"],
           states=list(s["table"]), n=votes_of(s["table"]))
    s["hidden_from"] = g.log_length()
    leaders = lead_seats(g)
    if leaders:
        g.call("lead", then="led", seats=leaders)
    else:
        g.call("play", then="played", seats=playing_seats(g))


def lead_seats(g) -> list:
    """Chalkboard edition: the seats of the sides that scored in the previous round."""
    if g.dial:
        return []
    s = g.s
    out = []
    for c in s["contests"].values():
        if not c["decided"]:
            for side in c["leaders"]:
                out += [x for x in c["sides"][side] if s["hands"][x]]
    return [x for x in s["seats"] if x in out]


def lay(g, seat, cards) -> None:
    s = g.s
    for c in cards:
        s["hands"][seat].remove(c)
    play = s["plays"].setdefault(seat, {"cards": [], "shown": 0})
    play["cards"] += cards
    if len(cards) == 2 and not g.dial:
        s["doubles"][seat] -= 1


class Laying(Step):
    """Campaign cards laid face down, by several seats at once."""
    simultaneous = True

    def seats(self, g, f):
        return f["seats"]

    def actions(self, g, f, seat):
        return play_actions(g, seat)

    def resolve(self, g, f, commits):
        for seat in f["seats"]:
            lay(g, seat, [int(c) for c in commits[seat].split()[1:]])
        g.end()


@step
class Lead(Laying):
    name = "lead"

    def resolve(self, g, f, commits):
        for seat in f["seats"]:
            g.note("{seat} leads with {n} card(s) face down.", seat=seat,
                   n=len(commits[seat].split()) - 1)
        super().resolve(g, f, commits)

    def prompt(self, g, f, seat):
        table = list(g.s["table"])
        if seat is None:        # told to those waiting: they did not score
            return msg("{seats} scored last round and lay their campaign card(s) face down "
                       "first, for {states} ({n} electoral votes).", seats=f["seats"],
                       states=table, n=votes_of(table))
        return msg("You scored last round, so you lay your campaign card(s) face down first, "
                   "for {states} ({n} electoral votes).", states=table, n=votes_of(table))


@step
class Play(Laying):
    name = "play"

    def prompt(self, g, f, seat):
        if seat is None:        # told to those waiting, never naming who has laid cards
            return msg("The candidates lay their campaign cards face down for {states} ({n} "
                       "electoral votes).", states=list(g.s["table"]), n=votes_of(g.s["table"]))
        first = [x for x in g.s["seats"] if x in g.s["plays"] and x not in f["seats"]]
        if first:   # PLAY: the scorers laid first; the others now lay theirs, all at once
            return msg("Lay your campaign card (or two) face down for {states} ({n} electoral "
                       "votes). {seats} scored last round and laid first, face down; the other "
                       "candidates now lay theirs at the same time, and all are turned up "
                       "together.", seats=first, states=list(g.s["table"]),
                       n=votes_of(g.s["table"]))
        return msg("Lay your campaign card (or two) face down for {states} ({n} electoral "
                   "votes).", states=list(g.s["table"]), n=votes_of(g.s["table"]))


@then
def led(g, f) -> None:
    others = [x for x in playing_seats(g) if x not in g.s["plays"]]
    if others:
        g.call("play", then="played", seats=others)
    else:
        played(g, f)


@then
def played(g, f) -> None:
    if g.dial:
        from .dial import first_reveal
        first_reveal(g)
    else:
        from .chalkboard import reveal
        reveal(g)


def finish_round(g, *, void: bool = False) -> None:
    """Played campaign cards are discarded; a hand played out picks up its discards if it may
    still be replayed (long versions and the dial edition: four times in all, "he may not pick
    up his discards until his entire hand is depleted" - and only after the round)."""
    s = g.s
    s["history"].append({"election": s["election"], "round": s["round"], "states": list(s["table"]),
                         "plays": {x: list(p["cards"]) for x, p in s["plays"].items()},
                         **(s.pop("round_result", None) or {}), "void": void})
    if void:
        s["round"] -= 1     # a round whose cards were buried is played again
    else:
        for seat, play in s["plays"].items():
            s["discards"][seat] += play["cards"]
        for seat in s["seats"]:
            if not s["hands"][seat] and s["discards"][seat] and s["refills"][seat] > 0:
                s["hands"][seat] = sorted(s["discards"][seat])
                s["discards"][seat] = []
                s["refills"][seat] -= 1
                g.note("{seat} picks up the discards and plays the hand again.", seat=seat)
    s["plays"] = {}
    s["table"] = []
    s["placing"] = None
    s["hidden_from"] = None
    start_round(g)
