"""The protocol every game implements: who acts, what is legal, apply, view, outcome, to/from dict."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .errors import IllegalAction, MalformedAction
from .messages import Message, data, plain
from .notation import Action

CHANCE = "chance"
"""The seat name of chance: the active 'seat' when a random draw is due."""


class Termination(str, Enum):
    """How a finished game was decided, beside the words of ``Outcome.reason``."""

    SCORE = "score"  # the game's own count
    TIE_BREAK = "tie_break"  # a tie, broken by the count the rules name next
    LOT = "lot"  # a tie drawn by lot
    DRAW = "draw"  # nobody won
    RESIGNED = "resigned"  # a player resigned (the server ends the game)
    FORFEITED = "forfeited"  # a deadline missed where it forfeits, or a win claimed over a
    #                         player who left (the server ends the game)
    ABANDONED = "abandoned"  # ended unrated: a player left, or nobody played (the server)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (None for a draw), why in words, and how it was
    decided (``termination``)."""

    winner: str | None
    reason: str
    scores: dict = field(default_factory=dict)
    termination: Termination = Termination.SCORE

    def to_dict(self) -> dict:
        return {"winner": self.winner, "reason": str(self.reason),
                "reason_message": data(self.reason), "scores": dict(self.scores),
                "termination": self.termination.value}


class GameState:
    """Base class of a game's state. Subclasses implement the underscored hooks."""

    game_id: str = ""
    seats: tuple = ()
    NAMES: dict = {}
    CHANCE_VERBS: frozenset = frozenset()
    """The verbs of the game's notation that only chance applies (a card dealt, a cube drawn):
    never a seat's order, so never named to a player as one (``order_verbs``)."""
    """How the game names what its messages' placeholders hold ({kind: id -> English name});
    see engine.core.messages. Without names, ids are shown as they are."""

    # --- hooks for subclasses -------------------------------------------------------------
    def active(self) -> list:
        """Return the seats that must act now: one seat, several (simultaneous), [CHANCE], or []."""
        raise NotImplementedError

    def legal_actions(self, seat) -> list:
        """Return the complete, sorted list of actions ``seat`` may take now (empty if none)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list:
        """Return [(action, probability)] for the pending chance step, or [] if none is due."""
        raise NotImplementedError

    def _do(self, seat, action: str) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def _known_verbs(self) -> dict:
        """Return {verb: (min_args, max_args)} of the game's notation, to tell malformed from illegal."""
        raise NotImplementedError

    def prompt(self, seat) -> str:
        raise NotImplementedError

    def default_action(self, seat) -> str:
        """The safe default for ``seat``'s decision when its deadline passes (games refine it)."""
        return self.legal_actions(seat)[0]

    def standing_policy(self, seat) -> str | None:
        """The kind of standing order (one the game declares in GameInfo.standing_policies) that
        may answer ``seat``'s decision now, or None (games with standing orders refine it)."""
        return None

    def standing_answer(self, seat, value: str) -> tuple[str, str] | None:
        """The (action, rule id) that the standing order ``value``, of the kind
        ``standing_policy(seat)``, gives for ``seat``'s decision now, or None: ask the seat."""
        return None

    def retractable(self, seat, segment: list) -> bool:
        """Whether ``seat``'s order, which appended ``segment`` ([seat, action] entries, no
        chance among them: engine.core.retract.may_retract checks that) to reach this state,
        showed its mover nothing hidden, so that it may be taken back. Games refine it; by
        default no: when in doubt, a move is final."""
        return False

    def asks(self, seat) -> dict | None:
        """What kind of decision ``seat`` has now: {"step": name, ...} or None (games refine it)."""
        return {"step": "decision"} if seat in self.active() else None

    def view(self, seat) -> dict:
        """What ``seat`` (None: a spectator) may see, as plain JSON. It shows the history, so it
        needs the whole state: a state trimmed of its history (engine.core.history) refuses."""
        raise NotImplementedError

    def outcome(self):
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The state as plain JSON; with ``log`` and ``notes``, its history, which
        engine.core.history may keep apart."""
        raise NotImplementedError

    # --- shared behaviour -----------------------------------------------------------------
    def msg(self, template: str, **args) -> Message:
        """A message of this game: ``template`` with ``args``, its ids named by ``NAMES``."""
        return Message(template, args, self.NAMES)

    def order_verbs(self) -> list:
        """The verbs a seat may order with, sorted: the notation's, less ``CHANCE_VERBS``."""
        return sorted(set(self._known_verbs()) - set(self.CHANCE_VERBS))

    def is_over(self) -> bool:
        return not self.active()

    def parse(self, seat, text) -> Action:
        """Return the legal action ``text`` names for ``seat``, or raise MalformedAction/IllegalAction."""
        action = Action.parse(text)
        verbs = self._known_verbs()
        arity = verbs.get(action.verb)
        if arity is None:
            raise MalformedAction(plain("'{verb}' is not an action of this game. Actions are: "
                                        "{verbs}.", verb=action.verb,
                                        verbs=", ".join(self.order_verbs())))
        if not arity[0] <= len(action.args) <= arity[1]:
            if arity[1] != arity[0]:
                raise MalformedAction(plain("'{verb}' takes {least} to {most} words after it, not "
                                            "{n}.", verb=action.verb, least=arity[0],
                                            most=arity[1], n=len(action.args)))
            raise MalformedAction(plain("'{verb}' takes {least} words after it, not {n}.",
                                        verb=action.verb, least=arity[0], n=len(action.args)))
        if seat != CHANCE and seat not in self.seats:
            raise IllegalAction(plain("There is no seat '{given}' in this game; the seats are "
                                      "{ids}.", given=seat, ids=", ".join(self.seats)))
        legal = self.legal_actions(seat)
        if action in legal:
            return action
        folded = action.casefold()
        for candidate in legal:
            if candidate.casefold() == folded:
                return Action(candidate)
        raise IllegalAction(self.why_illegal(seat, action, legal), legal)

    def why_illegal(self, seat, action: Action, legal: list) -> str:
        """Return the reason, in the game's words, that ``action`` is not legal for ``seat``."""
        if not self.active():
            return plain("The game is over.")
        if seat not in self.active():
            return self.msg("It is not {seat}'s decision now: {prompt}", seat=seat,
                            prompt=self.prompt(None))
        return self.msg("'{action}' is not allowed now: {prompt}", action=str(action),
                        prompt=self.prompt(seat))

    def apply(self, seat, action) -> Action:
        """Validate ``action`` for ``seat`` against legal_actions, apply it and return it canonically."""
        legal_action = self.parse(seat, action)
        self._do(seat, str(legal_action))
        return legal_action
