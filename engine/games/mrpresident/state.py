"""The state of a game of Mr. President: a plain JSON dict and the protocol around it."""
from __future__ import annotations

from engine.core.errors import OptionsError, with_defaults
from engine.core.notation import Action
from engine.core.protocol import GameState
from engine.core.stack import Machine

from .data import ALL_SEATS
from .messages import NAMES, msg

GAME_ID = "mrpresident"
EDITIONS = ("chalkboard", "dial")
# The chalkboard (1st) edition's standard is the short National Campaign counted in electoral
# votes; the dial (2nd) edition made the long game and the popular vote standard (its rules'
# "Differences between the rules of the two versions").
OPTION_DEFAULTS = {"edition": "chalkboard", "players": 2, "version": None, "count": None,
                   "nominee": False, "parties": "seats", "plurality": False}
STANDARD = {"chalkboard": {"version": "short", "count": "electoral"},
            "dial": {"version": "long", "count": "popular"}}

# verb -> (fewest, most) words after it; tells a malformed action from an illegal one.
VERBS = {"play": (1, 2), "second": (1, 1), "upset": (1, 1), "stop": (1, 1),
         # chance: a state card turned up, a draw by lot, the parties by lot
         "turn": (1, 1), "lot": (2, 4), "parties": (2, 2)}


def check_options(options: dict) -> dict:
    """Return the full option set, or raise OptionsError naming what is wrong."""
    out = with_defaults(options, OPTION_DEFAULTS)
    edition = out["edition"]
    if edition not in EDITIONS:
        raise OptionsError(msg("Edition '{edition}' does not exist; choose chalkboard or dial.",
                               edition=edition))
    for key, value in STANDARD[edition].items():
        out[key] = out[key] or value
    if out["players"] not in (2, 3, 4) or isinstance(out["players"], bool):
        raise OptionsError(msg("Mr. President is played by 2, 3 or 4 candidates, not {n}.",
                               n=out["players"]))
    if out["version"] not in ("short", "long"):
        raise OptionsError(msg("The version is short or long, not '{given}'.",
                               given=out["version"]))
    if out["count"] not in ("electoral", "popular"):
        raise OptionsError(msg("The count is electoral or popular, not '{given}'.",
                               given=out["count"]))
    if edition == "chalkboard" and out["count"] == "popular":
        raise OptionsError(msg("The chalkboard edition counts electoral votes only; the popular "
                               "vote is the dial edition's."))
    for key in ("nominee", "plurality"):
        if not isinstance(out[key], bool):
            raise OptionsError(msg("Option {key} is true or false.", key=key))
    if out["nominee"] and (edition != "chalkboard" or out["players"] != 4):
        raise OptionsError(msg("The Nominee version is the chalkboard edition's, for four "
                               "players."))
    if out["parties"] not in ("seats", "lot"):
        raise OptionsError(msg("The parties are chosen by seats or by lot, not '{given}'.",
                               given=out["parties"]))
    return out


class MrPresidentState(Machine, GameState):
    """A game of Mr. President in progress."""

    game_id = GAME_ID
    NAMES = NAMES
    # A state card turned up, a draw by lot, the parties by lot: chance's, no seat's.
    CHANCE_VERBS = frozenset({"turn", "lot", "parties"})

    @property
    def seats(self) -> tuple:
        return tuple(self.s["seats"])

    @property
    def dial(self) -> bool:
        return self.s["options"]["edition"] == "dial"

    def _known_verbs(self) -> dict:
        return VERBS

    def parse(self, seat, text):
        """As GameState.parse; in the chalkboard edition two cards are one play in any order
        (the dial edition's order says which card is turned up first)."""
        action = Action.parse(text)
        if not self.dial and action.verb == "play" and len(action.args) == 2 \
                and all(a.isdigit() for a in action.args):
            low, high = sorted(action.args, key=int)
            text = f"play {low} {high}"
        return super().parse(seat, text)

    def why_illegal(self, seat, action, legal) -> str:
        from .reasons import why_illegal
        return why_illegal(self, seat, action) or super().why_illegal(seat, action, legal)

    def default_action(self, seat) -> str:
        """When a deadline passes: the lowest card alone, no second card, no upset, no stop."""
        legal = self.legal_actions(seat)
        for none in ("second none", "upset none", "stop none"):
            if none in legal:
                return none
        singles = [a for a in legal if a.startswith("play ") and len(a.split()) == 2]
        return min(singles, key=lambda a: int(a.split()[1])) if singles else legal[0]

    def retractable(self, seat, segment: list) -> bool:
        """Never: every round of Mr. President is a sealed step of every seat, and a sealed
        order is never taken back once its step has resolved (issue 27)."""
        return False

    def asks(self, seat) -> dict | None:
        if not self.s["stack"] or seat not in self.active():
            return None
        return {"step": self.top["step"]}

    def view(self, seat) -> dict:
        from .view import view
        return view(self, seat)

    def outcome(self):
        from .election import final_outcome
        return final_outcome(self) if not self.s["stack"] else None

    # --- small shared helpers -------------------------------------------------------------
    def contest_of(self, seat) -> str:
        """The contest the seat plays in now: the national election or its party's convention."""
        return next(name for name, c in self.s["contests"].items()
                    if any(seat in members for members in c["sides"].values()))

    def side_of(self, seat) -> str:
        c = self.s["contests"][self.contest_of(seat)]
        return next(side for side, members in c["sides"].items() if seat in members)


def seats_for(players: int) -> list:
    return list(ALL_SEATS[:players])
