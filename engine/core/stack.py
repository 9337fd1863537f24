"""A call stack of named steps for multi-step procedures (Rally the Troops' call / goto / end).

A frame is a plain dict ``{"step": name, ...locals}`` kept in the state, so it serialises with it.
A step is an object in the game's step table: who acts at it, what they may do, and what doing it does.
A game whose state is such a stack (``Machine``) gets the whole protocol of who acts, what is legal,
chance and sealed commitments from it; the game supplies the steps.
"""
import json

from .history import HistoryNotHeld
from .protocol import CHANCE


class Step:
    """A decision point. Subclasses set ``name`` and override what applies."""

    name = ""
    chance = False          # a random draw: outcomes() instead of actions()
    simultaneous = False    # every seat in seats() commits sealed; resolve() runs once all have

    def seats(self, g, f) -> list:
        """Return the seats that decide at this step."""
        return [f["seat"]]

    def actions(self, g, f, seat) -> list:
        return []

    def outcomes(self, g, f) -> list:
        """Return [(action, weight)] for a chance step."""
        return []

    def do(self, g, f, seat, action: str) -> None:
        raise NotImplementedError

    def resolve(self, g, f, commits: dict) -> None:
        """Resolve a simultaneous step once every seat has committed."""
        raise NotImplementedError

    def prompt(self, g, f, seat) -> str:
        return self.name.replace("_", " ")


class StepTable:
    """A game's tables of named steps and continuations, filled by its decorators."""

    def __init__(self):
        self.steps: dict = {}
        self.then: dict = {}

    def step(self, cls):
        """Register a Step subclass under its ``name``."""
        self.steps[cls.name] = cls()
        return cls

    def continuation(self, fn):
        """Register a continuation, run when a frame that names it ends."""
        self.then[fn.__name__] = fn
        return fn


class Machine:
    """Mixin for a state whose ``s["stack"]`` holds frames and ``STEPS`` maps names to steps:
    the protocol (engine.core.protocol.GameState) of a game kept as a plain JSON dict ``s`` with
    ``seed``, ``options``, ``stack``, ``log`` and ``notes``. The state may hold only the end of
    its history (engine.core.history: ``log_from``, ``notes_from``); the rules read the log
    through ``log_length`` and ``log_since``, the views through ``history``.

    A simultaneous step's commitments wait in its frame's ``commits`` until every seat of the
    step has committed; then the step resolves them all at once."""

    STEPS: dict = {}
    THEN: dict = {}

    def __init__(self, s: dict):
        self.s = s

    @property
    def seed(self):
        return self.s["seed"]

    @property
    def options(self) -> dict:
        return self.s["options"]

    def log_length(self) -> int:
        return self.s.get("log_from", 0) + len(self.s["log"])

    def log_since(self, i: int) -> list:
        """The log's entries from the ``i``-th on (a trimmed state holds those of the step being
        resolved; HistoryNotHeld for earlier ones)."""
        start = self.s.get("log_from", 0)
        if i < start:
            raise HistoryNotHeld(f"This state holds the log from entry {start}, not {i}.")
        return self.s["log"][i - start:]

    def history(self) -> tuple[list, list]:
        """The whole log and notes, for a view; HistoryNotHeld for a trimmed state."""
        if "log_from" in self.s:
            raise HistoryNotHeld("A view needs the whole history: join it to the state "
                                 "(engine.core.history.join).")
        return self.s["log"], self.s["notes"]

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

    # Whether ``legal_actions`` keeps its last answer until the next action (``_do``): for a
    # user that changes the state only by applying actions, as the server does. An order asks
    # it again and again of one state (to validate, to see a forced choice, to answer).
    # Off by default: a test that sets up a position by editing ``s`` must see the edit.
    keeps_legal_actions = False

    def legal_actions(self, seat) -> list:
        if not self.keeps_legal_actions:
            return self._legal_actions(seat)
        key = (self.log_length(), seat)
        kept = self.__dict__.get("_legal_kept")
        if kept is not None and kept[0] == key:
            return list(kept[1])
        legal = self._legal_actions(seat)
        self._legal_kept = (key, legal)
        return list(legal)

    def _legal_actions(self, seat) -> list:
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
        self._legal_kept = None
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

    def prompt(self, seat) -> str:
        """What ``seat`` is asked now; to anybody not asked, what the game waits for
        (``waiting``)."""
        if not self.s["stack"]:
            return self.msg("The game is over.")
        f = self.top
        step = self.STEPS[f["step"]]
        if seat is None or seat == CHANCE or seat not in self.active():
            return self.waiting(step.prompt(self, f, None))
        return step.prompt(self, f, seat)

    def waiting(self, prompt) -> str:
        """The prompt told to those not asked (games may name who is asked)."""
        return self.msg("Waiting: {prompt}", prompt=prompt)

    def to_dict(self) -> dict:
        return json.loads(json.dumps(self.s))

    @classmethod
    def from_dict(cls, data: dict, copy: bool = True):
        return cls(json.loads(json.dumps(data)) if copy else data)

    # False in a bot's playouts (engine/bots), which nobody reads: no notes are written.
    records_notes = True

    def note(self, template: str, **args) -> None:
        """Record a public line of the game's history (what happened, in words): its English
        text, and its template and arguments to tell it in other languages
        (engine.core.messages). The English could be rendered again from the other two
        (tests/engine/test_messages.py checks it is); it is kept so that every view, which lists
        all notes, costs no rendering."""
        if not self.records_notes:
            return
        args = json.loads(json.dumps(args))     # as the stored state will hold them
        self.s["notes"].append([self.log_length(), str(self.msg(template, **args)), template,
                                args])

    @property
    def top(self) -> dict:
        return self.s["stack"][-1]

    def step(self) -> Step:
        return self.STEPS[self.top["step"]]

    def call(self, step: str, then: str | None = None, **local) -> dict:
        """Push a frame for ``step``; when it ends, continuation ``then`` runs."""
        frame = {"step": step, **local}
        if then:
            frame["then"] = then
        self.s["stack"].append(frame)
        return frame

    def goto(self, step: str, **local) -> dict:
        """Replace the top frame with a frame for ``step``, keeping its continuation."""
        old = self.s["stack"].pop()
        return self.call(step, then=old.get("then"), **local)

    def end(self, **result) -> None:
        """Pop the top frame and run its continuation with the frame (and ``result``)."""
        frame = self.s["stack"].pop()
        frame.update(result)
        then = frame.get("then")
        if then:
            self.THEN[then](self, frame)
