"""Sealed Bid, a small two-player game that lives only in the tests (its engine part).

Rules. Each player, East and West, holds five bid cards worth 1 to 5. Three prizes are
auctioned, one a round; a prize is drawn at random (a chance step) from the prize cards worth 2
to 7 not drawn yet. Both players bid at the same time, sealed: each lays one card from hand. The
higher bid wins the prize; equal bids win nothing and the prize is lost. The round's winner then
chooses (a sequential decision): ``take`` the prize (score its value) or ``reclaim`` the bid card
(it goes back to hand; the prize is lost). Bid cards laid stay laid. After three rounds the
higher score wins; equal scores go to the higher total of cards left in hand (a tie break), and
then it is a draw.

Notation: ``bid N``, ``take``, ``reclaim``; chance: ``prize N``.

Hidden: a seat's hand from the other (only its size), and a bid laid until both have bid (only
that it was laid). Public: the prize, the laid bids once revealed, the scores.
"""

from __future__ import annotations

from engine.core import GameInfo, OptionsError, Outcome, Termination, register
from engine.core.messages import Message, data
from engine.core.protocol import GameState
from engine.core.stack import Machine, Step, StepTable

GAME_ID = "sealedbid"
SEATS = ("east", "west")
ROUNDS = 3
PRIZES = (2, 3, 4, 5, 6, 7)
HAND = (1, 2, 3, 4, 5)
SEAT_NAMES = {"east": "East", "west": "West"}
NAMES = {"seat": lambda seat: SEAT_NAMES.get(seat, seat)}
VERBS = {"bid": (1, 1), "take": (0, 0), "reclaim": (0, 0), "prize": (1, 1)}

TABLE = StepTable()


def check_options(options: dict) -> dict:
    """Sealed Bid has no options: any given is refused by name."""
    if options:
        raise OptionsError(Message("Sealed Bid has no options, not {given}.",
                                   {"given": ", ".join(sorted(options))}, NAMES))
    return {}


@TABLE.step
class DrawPrize(Step):
    name = "draw_prize"
    chance = True

    def outcomes(self, g, f) -> list:
        return [(f"prize {p}", 1) for p in PRIZES if p not in g.s["drawn"]]

    def do(self, g, f, seat, action: str) -> None:
        prize = int(action.split()[1])
        g.s["drawn"].append(prize)
        g.s["prize"] = prize
        g.s["stack"][-1] = {"step": "bid"}
        g.note("Round {round}: a prize worth {value} is drawn.", round=g.s["round"], value=prize)

    def prompt(self, g, f, seat):
        return g.msg("A prize is drawn.")


@TABLE.step
class Bid(Step):
    name = "bid"
    simultaneous = True

    def seats(self, g, f) -> list:
        return list(SEATS)

    def actions(self, g, f, seat) -> list:
        return [f"bid {card}" for card in g.s["hands"][seat]]

    def resolve(self, g, f, commits: dict) -> None:
        bids = {seat: int(commits[seat].split()[1]) for seat in SEATS}
        for seat, card in bids.items():
            g.s["hands"][seat].remove(card)
        g.s["bids"] = bids
        east, west = bids["east"], bids["west"]
        if east == west:
            g.note("Both bid {n}: nobody wins the prize of {value}.", n=east,
                   value=g.s["prize"])
            g.end_round()
            return
        winner = "east" if east > west else "west"
        g.note("{seat} wins the prize of {value}, bidding {n} against {m}.", seat=winner,
               value=g.s["prize"], n=max(east, west), m=min(east, west))
        g.s["stack"][-1] = {"step": "claim", "seat": winner}

    def prompt(self, g, f, seat):
        if seat is None:
            return g.msg("Both players bid for the prize of {value}.", value=g.s["prize"])
        return g.msg("Bid for the prize of {value}: lay one card from your hand.",
                     value=g.s["prize"])


@TABLE.step
class Claim(Step):
    name = "claim"

    def actions(self, g, f, seat) -> list:
        return ["reclaim", "take"]

    def do(self, g, f, seat, action: str) -> None:
        if action == "take":
            g.s["scores"][seat] += g.s["prize"]
            g.note("{seat} takes the prize of {value}.", seat=seat, value=g.s["prize"])
        else:
            card = g.s["bids"][seat]
            g.s["hands"][seat].append(card)
            g.s["hands"][seat].sort()
            g.note("{seat} takes back the bid card {n}; the prize is lost.", seat=seat, n=card)
        g.end_round()

    def prompt(self, g, f, seat):
        if seat is None:
            return g.msg("{seat} chooses: take the prize or take back the bid card.",
                         seat=f["seat"])
        return g.msg("You won the prize of {value}: take it, or take back your bid card {n}.",
                     value=g.s["prize"], n=g.s["bids"][seat])


class SealedBidState(Machine, GameState):
    """A game of Sealed Bid in progress (a plain JSON dict ``s``)."""

    game_id = GAME_ID
    NAMES = NAMES
    CHANCE_VERBS = frozenset({"prize"})  # a prize drawn: chance's, no seat's
    STEPS = TABLE.steps
    THEN = TABLE.then

    @property
    def seats(self) -> tuple:
        return SEATS

    def _known_verbs(self) -> dict:
        return VERBS

    def end_round(self) -> None:
        self.s["prize"] = None
        if self.s["round"] == ROUNDS:
            self.s["stack"] = []
            return
        self.s["round"] += 1
        self.s["stack"] = [{"step": "draw_prize"}]

    def default_action(self, seat) -> str:
        """When a deadline passes: the lowest bid card; a won prize is taken."""
        legal = self.legal_actions(seat)
        return "take" if "take" in legal else legal[0]

    def retractable(self, seat, segment: list) -> bool:
        """A claim shows its winner nothing hidden ("take" and "reclaim" are public); the bids
        are sealed and never taken back. (The next round's prize is drawn right after a claim,
        a chance step, so a claim is in practice final: engine.core.retract.)"""
        return all(text in ("take", "reclaim") for _, text in segment)

    def asks(self, seat) -> dict | None:
        if not self.s["stack"] or seat not in self.active():
            return None
        return {"step": self.top["step"]}

    def view(self, seat) -> dict:
        s = self.s
        top = s["stack"][-1] if s["stack"] else None
        commits = (top or {}).get("commits", {})
        prompt = self.prompt(seat)
        revealed = not commits and s["bids"] is not None
        return {
            "game": GAME_ID, "options": {}, "seat": seat, "seats": list(SEATS),
            "round": s["round"], "rounds": ROUNDS, "prize": s["prize"],
            "prompt": prompt, "prompt_message": data(prompt), "asks": self.asks(seat),
            "legal_actions": self.legal_actions(seat) if seat in self.active() else [],
            "active": self.active(),
            "committed": len(commits), "my_commitment": commits.get(seat),
            "hands": {seat: sorted(s["hands"][seat])} if seat in SEATS else {},
            "hand_sizes": {x: len(s["hands"][x]) for x in SEATS},
            "bids": dict(s["bids"]) if revealed else None,
            "scores": dict(s["scores"]), "drawn": list(s["drawn"]),
            "result": s["result"] if not s["stack"] else None,
            "notes": [note[1] for note in self.history()[1]],
            "note_messages": [note[2:] for note in self.history()[1]],
        }

    def outcome(self):
        if self.s["stack"]:
            return None
        scores = self.s["scores"]
        east, west = scores["east"], scores["west"]
        if east != west:
            winner = "east" if east > west else "west"
            return Outcome(winner, self.msg("{seat} wins with {n} points.", seat=winner,
                                            n=scores[winner]), dict(scores), Termination.SCORE)
        left = {x: sum(self.s["hands"][x]) for x in SEATS}
        if left["east"] != left["west"]:
            winner = max(SEATS, key=left.get)
            return Outcome(winner, self.msg("{seat} wins the tie with {n} left in hand.",
                                            seat=winner, n=left[winner]), dict(scores),
                           Termination.TIE_BREAK)
        return Outcome(None, self.msg("A draw."), dict(scores), Termination.DRAW)


def new(*, seed, players=None, options=None) -> SealedBidState:
    """A new game of Sealed Bid at its first chance step."""
    check_options(dict(options or {}))
    if players not in (None, 2, list(SEATS), tuple(SEATS)):
        raise OptionsError(Message("Sealed Bid is for two players.", {}, NAMES))
    return SealedBidState({
        "game": GAME_ID, "seed": seed, "options": {}, "round": 1, "prize": None, "drawn": [],
        "hands": {seat: list(HAND) for seat in SEATS}, "bids": None,
        "scores": {seat: 0 for seat in SEATS}, "result": None,
        "stack": [{"step": "draw_prize"}], "log": [], "notes": []})


INFO = GameInfo(GAME_ID, min_players=2, max_players=2, simultaneous=True,
                check_options=check_options, seats_for=lambda options: SEATS)


def register_rules() -> None:
    """Register Sealed Bid with the engine (undone by engine.core.registry.unregister)."""
    register(GAME_ID, new, SealedBidState.from_dict, INFO)
