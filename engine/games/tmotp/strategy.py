"""4. Campaign Strategy Phase: cards committed face down by both players at once, then Rest."""
from itertools import combinations

from .data import CARDS, SEATS
from .effects import end_of_turn
from .flow import Step, step
from .messages import msg


def required(g) -> int:
    """One card on turns 1-5, two on turns 7-8."""
    return 1 if g.s["turn"] <= 5 else 2


def strategy_cards_kept(g, seat: str, hand: list, candidate_ready: bool) -> int:
    """How many allowed Campaign Strategy cards ``seat`` can still bring to this turn's Campaign
    Strategy Phase (at most the number required), holding ``hand`` with his plays of the turn
    still to come after the current one, playing first his Gathering Momentum cards and his
    candidate card when it is ready (it leaves the hand whole). GMT 4. Note: "Players must make
    sure to retain a valid Campaign Strategy card in their hand until the Campaign Strategy
    Phase"; see RULINGS.md, Keeping a Campaign Strategy card."""
    plays_left = 5 - g.s["phase"]               # one play in each of the five Activity Phases
    spent = max(0, plays_left - (1 if candidate_ready else 0))
    allowed = sum(1 for c in hand if CARDS[c]["campaign_strategy_allowed"])
    return min(required(g), allowed, max(0, len(hand) - spent))


def campaign_strategy(g) -> None:
    g.s["round"] = "campaign_strategy"
    g.call("campaign_strategy", then="run_queue")


def strategy_choices(g, seat: str) -> list:
    """Return the legal sets of strategy cards; Gathering Momentum cards are not allowed.

    Ruling: a hand with fewer allowed cards than required commits all it has (possibly none):
    the Activity Phases keep as many as the player's own plays can (``strategy_cards_kept``),
    and what chance or an event took from the hand cannot be made up; the game must go on.
    """
    allowed = [c for c in g.s["hands"][seat] if CARDS[c]["campaign_strategy_allowed"]]
    k = min(required(g), len(allowed))
    if k == 0:
        return ["strategy none"]
    return ["strategy " + " ".join(str(c) for c in combo) for combo in combinations(sorted(allowed), k)]


@step
class CampaignStrategy(Step):
    name = "campaign_strategy"
    simultaneous = True

    def seats(self, g, f):
        return list(SEATS)

    def actions(self, g, f, seat):
        return strategy_choices(g, seat)

    def resolve(self, g, f, commits):
        s = g.s
        for seat in SEATS:
            words = commits[seat].split()[1:]
            chosen = [] if words == ["none"] else [int(w) for w in words]
            for c in chosen:
                s["hands"][seat].remove(c)
            s["strategy"][seat] += chosen
            s["discard"] += s["hands"][seat]        # the rest of the hand is discarded
            s["hands"][seat] = []
            s["bag"][seat] += s["rest"][seat]        # Step 2 - Rest
            s["rest"][seat] = 0
        g.note("Both players place their Campaign Strategy cards face down and put their rest "
               "cubes into the bag.")
        end_of_turn(g)
        g.end()

    def prompt(self, g, f, seat):
        n = required(g)      # one card on turns 1-5 (for the Debates), two on turns 7-8
        if g.s["turn"] <= 5:
            return msg("Campaign Strategy: place {n} card face down for the Debates; the rest of "
                       "your hand is discarded. Gathering Momentum cards are not allowed.", n=n)
        return msg("Campaign Strategy: place {n} cards face down for Election Day; the rest of "
                   "your hand is discarded. Gathering Momentum cards are not allowed.", n=n)

