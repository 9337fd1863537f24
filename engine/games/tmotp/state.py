"""The state of a game of 1960: a plain JSON dict and the protocol around it."""
from __future__ import annotations

import json

from engine.core.errors import OptionsError
from engine.core.protocol import CHANCE, GameState
from engine.core.stack import Machine

from .data import CARDS, ISSUES, SEATS
from .messages import NAMES, msg

GAME_ID = "tmotp"
EDITIONS = ("gmt", "zman")
OPTION_DEFAULTS = {"edition": "gmt", "vp_cards": False, "restricted_positioning": False}

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


def check_options(options: dict) -> dict:
    """Return the full option set, or raise OptionsError naming what is wrong."""
    unknown = set(options) - set(OPTION_DEFAULTS)
    if unknown:
        raise OptionsError(msg("Unknown option(s) {unknown}; the options are {known}.",
                               unknown=", ".join(sorted(unknown)),
                               known=", ".join(OPTION_DEFAULTS)))
    out = {**OPTION_DEFAULTS, **options}
    if out["edition"] not in EDITIONS:
        raise OptionsError(msg("Edition '{edition}' does not exist; choose gmt or zman.",
                               edition=out["edition"]))
    for key in ("vp_cards", "restricted_positioning"):
        if not isinstance(out[key], bool):
            raise OptionsError(msg("Option {key} is true or false.", key=key))
    return out


class TmotpState(Machine, GameState):
    """A game of 1960: The Making of the President in progress."""

    game_id = GAME_ID
    seats = SEATS
    NAMES = NAMES

    def __init__(self, s: dict):
        self.s = s

    # --- protocol ---------------------------------------------------------------------------
    @property
    def seed(self):
        return self.s["seed"]

    @property
    def options(self) -> dict:
        return self.s["options"]

    @property
    def gmt(self) -> bool:
        return self.s["options"]["edition"] == "gmt"

    def log_length(self) -> int:
        return len(self.s["log"])

    def active(self) -> list:
        if not self.s["stack"]:
            return []
        f = self.top
        step = self.STEPS[f["step"]]
        if step.chance:
            return [CHANCE]
        seats = step.seats(self, f)
        if step.simultaneous:
            done = f.get("commits", {})
            return [x for x in seats if x not in done]
        return list(seats)

    def legal_actions(self, seat) -> list:
        if not self.s["stack"]:
            return []
        f = self.top
        step = self.STEPS[f["step"]]
        if seat == CHANCE:
            return sorted(a for a, _ in step.outcomes(self, f)) if step.chance else []
        if step.chance or seat not in self.active():
            return []
        return sorted(step.actions(self, f, seat))

    def chance_weights(self):
        """Return (actions, weights) of the pending chance step."""
        f = self.top
        outs = self.STEPS[f["step"]].outcomes(self, f)
        return [a for a, _ in outs], [w for _, w in outs]

    def chance_outcomes(self) -> list:
        if not self.s["stack"] or not self.STEPS[self.top["step"]].chance:
            return []
        actions, weights = self.chance_weights()
        total = sum(weights)
        return sorted((a, w / total) for a, w in zip(actions, weights))

    def _do(self, seat, action: str) -> None:
        f = self.top
        step = self.STEPS[f["step"]]
        self.s["log"].append([seat, action])
        if step.simultaneous:
            commits = f.setdefault("commits", {})
            commits[seat] = action
            if all(x in commits for x in step.seats(self, f)):
                del f["commits"]
                step.resolve(self, f, commits)
        else:
            step.do(self, f, seat, action)

    def _known_verbs(self) -> dict:
        return VERBS

    def why_illegal(self, seat, action, legal) -> str:
        from .reasons import why_illegal
        return why_illegal(self, seat, action) or super().why_illegal(seat, action, legal)

    def prompt(self, seat) -> str:
        if not self.s["stack"]:
            return msg("The game is over.")
        f = self.top
        step = self.STEPS[f["step"]]
        if seat is None or seat == CHANCE or seat not in self.active():
            return msg("Waiting for {seats}: {prompt}", seats=self.active(),
                       prompt=step.prompt(self, f, None))
        return step.prompt(self, f, seat)

    def default_action(self, seat) -> str:
        from .defaults import default_action
        return default_action(self, seat)

    def asks(self, seat) -> dict | None:
        """What the seat is asked now: the rulebook step's name, and the card it is about (the
        card an opponent played for CP, at a trigger decision) or what a planner needs: while
        Campaigning, campaign_points.campaign_plan; while Positioning, the next cube's price
        in each issue. None when the seat is not asked."""
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
        return out

    def view(self, seat) -> dict:
        from .view import view
        return view(self, seat)

    def outcome(self):
        from .election_day import final_outcome
        return final_outcome(self) if not self.s["stack"] else None

    def to_dict(self) -> dict:
        return json.loads(json.dumps(self.s))

    @classmethod
    def from_dict(cls, data: dict, copy: bool = True) -> "TmotpState":
        return cls(json.loads(json.dumps(data)) if copy else data)

    # --- small shared helpers -------------------------------------------------------------
    def note(self, template: str, **args) -> None:
        """Record a public line of the game's history (what happened, in words): its English
        text, and its template and arguments to tell it in other languages (see messages.py).
        The English could be rendered again from the other two (tests/engine/test_messages.py
        checks it is); it is kept so that every view, which lists all notes, costs no rendering."""
        args = json.loads(json.dumps(args))     # as the stored state will hold them
        self.s["notes"].append([len(self.s["log"]), str(msg(template, **args)), template, args])

    def card(self, cid: int) -> dict:
        return CARDS[cid]
