"""A call stack of named steps for multi-step procedures (Rally the Troops' call / goto / end).

A frame is a plain dict ``{"step": name, ...locals}`` kept in the state, so it serialises with it.
A step is an object in the game's step table: who acts at it, what they may do, and what doing it does.
"""


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


class Machine:
    """Mixin for a state whose ``s["stack"]`` holds frames and ``STEPS`` maps names to steps."""

    STEPS: dict = {}
    THEN: dict = {}

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
