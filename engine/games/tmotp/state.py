"""The state of a game of 1960: a plain JSON dict and the protocol around it."""
from __future__ import annotations

from engine.core.errors import OptionsError, with_defaults
from engine.core.protocol import GameState
from engine.core.stack import Machine

from .data import CARDS, ISSUES, SEATS
from .messages import NAMES, msg

GAME_ID = "tmotp"
EDITIONS = ("gmt", "zman")
# ``strategy_order``: in the Z-Man edition each player chooses the order of his Campaign
# Strategy cards on Election Day (RULINGS.md); False keeps the order they were placed in, as
# the engine played Z-Man before that ruling, so the logs of games begun then replay exactly
# (migration 0026 gives them False). GMT never asks.
OPTION_DEFAULTS = {"edition": "gmt", "vp_cards": False, "restricted_positioning": False,
                   "strategy_order": True}

# verb -> (fewest, most) words after it; tells a malformed action from an illegal one.
VERBS = {
    "deal": (2, 2), "draw": (1, 1), "endorsement": (0, 1), "start": (1, 1),
    "play": (2, 3), "campaign": (2, 2), "position": (1, 1), "vp": (1, 1),
    "trigger": (0, 0), "pass": (0, 0), "done": (0, 0), "travel": (1, 1), "media": (1, 1),
    "swap": (2, 2), "momentum": (0, 0), "endorse": (1, 1), "strategy": (1, 2),
    "debate": (1, 1), "first": (1, 1), "side": (1, 1), "support": (1, 2), "remove": (1, 2),
    "resolve": (1, 1), "recount": (1, 1), "reveal": (2, 2),
    # choices inside card events
    "choose": (1, 1), "discard": (1, 12), "take": (1, 1), "order": (3, 3),
}

# What a retractable order may hold (TmotpState.retractable): public moves that draw nothing.
RETRACTABLE_PLAYS = frozenset({"campaign", "advertise", "position"})
RETRACTABLE_VERBS = frozenset({"campaign", "travel", "done", "position", "media", "pass",
                               "swap", "momentum"})


def check_options(options: dict) -> dict:
    """Return the full option set, or raise OptionsError naming what is wrong."""
    out = with_defaults(options, OPTION_DEFAULTS)
    if out["edition"] not in EDITIONS:
        raise OptionsError(msg("Edition '{edition}' does not exist; choose gmt or zman.",
                               edition=out["edition"]))
    for key in ("vp_cards", "restricted_positioning", "strategy_order"):
        if not isinstance(out[key], bool):
            raise OptionsError(msg("Option {key} is true or false.", key=key))
    return out


class TmotpState(Machine, GameState):
    """A game of 1960: The Making of the President in progress."""

    game_id = GAME_ID
    seats = SEATS
    NAMES = NAMES
    # A card dealt or revealed from the deck, a cube drawn from the bag: chance's, no seat's.
    CHANCE_VERBS = frozenset({"deal", "draw", "reveal"})

    # --- protocol ---------------------------------------------------------------------------
    @property
    def gmt(self) -> bool:
        return self.s["options"]["edition"] == "gmt"

    def _known_verbs(self) -> dict:
        return VERBS

    def why_illegal(self, seat, action, legal) -> str:
        from .reasons import why_illegal
        return why_illegal(self, seat, action) or super().why_illegal(seat, action, legal)

    def waiting(self, prompt) -> str:
        return msg("Waiting for {seats}: {prompt}", seats=self.active(), prompt=prompt)

    def default_action(self, seat) -> str:
        from .defaults import default_action
        return default_action(self, seat)

    def standing_policy(self, seat) -> str | None:
        from .standing import policy
        return policy(self, seat)

    def standing_answer(self, seat, value: str) -> tuple[str, str] | None:
        from .standing import answer
        return answer(self.asks(seat), seat, value)

    def retractable(self, seat, segment: list) -> bool:
        """Whether the order showed its mover nothing hidden (issue 27: taking a move back):
        only plays for CP and what spends them (Campaigning, Advertising's media cube,
        Positioning), declining, and the Momentum Phase's public choices. An event played or
        triggered may show a hand, the deck or the discards, and a card drawn is a chance step:
        neither is ever taken back."""
        for _, text in segment:
            words = text.split()
            if words[0] == "play":
                if len(words) < 3 or words[2] not in RETRACTABLE_PLAYS:
                    return False
            elif words[0] not in RETRACTABLE_VERBS:
                return False
        return True

    def asks(self, seat) -> dict | None:
        """What the seat is asked now: the rulebook step's name, and the card it is about (the
        card an opponent played for CP, at a trigger decision) or what a planner needs: while
        Campaigning, campaign_points.campaign_plan; while Positioning, the next cube's price
        in each issue; choosing the next Campaign Strategy card on Election Day, the seat's
        cards left in the order placed, the cubes in the bag and the checks they stand for.
        None when the seat is not asked."""
        if not self.s["stack"] or seat not in self.active():
            return None
        f = self.top
        out = {"step": f["step"]}
        if f["step"] == "trigger":
            out["card"] = f["card"]
            out["icon"] = CARDS[f["card"]]["icon"]
        elif f["step"] == "campaigning":
            from .campaign_points import campaign_plan
            out["plan"] = campaign_plan(self, seat)
        elif f["step"] == "positioning":
            from .campaign_points import position_price
            out["prices"] = {issue: position_price(f, issue) for issue in ISSUES}
        elif f["step"] == "election_day_strategy_order":
            from .bag import bag_size
            cards = list(self.s["election"]["strategy"][seat])
            out.update(cards=cards, bag=bag_size(self), checks=3 * len(cards))
        return out

    def view(self, seat) -> dict:
        from .view import view
        return view(self, seat)

    def outcome(self):
        from .election_day import final_outcome
        return final_outcome(self) if not self.s["stack"] else None

    # --- small shared helpers -------------------------------------------------------------
    def card(self, cid: int) -> dict:
        return CARDS[cid]
