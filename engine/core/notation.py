"""Actions as compact text: a verb and its arguments, separated by single spaces."""
import re

_TOKEN = re.compile(r"^[A-Za-z0-9_+\-]+$")


class Action(str):
    """One action in canonical notation, e.g. ``campaign NY 2``; ``str(action)`` round-trips."""

    __slots__ = ()

    @classmethod
    def parse(cls, text) -> "Action":
        """Return the action written in ``text`` with whitespace normalised, or raise MalformedAction."""
        from .errors import MalformedAction
        from .messages import plain

        if not isinstance(text, str):
            raise MalformedAction(plain("An action is text, not {type}.", type=type(text).__name__))
        tokens = text.split()
        if not tokens:
            raise MalformedAction(plain("The action is empty."))
        for tok in tokens:
            if not _TOKEN.match(tok):
                raise MalformedAction(plain("'{word}' is not a word of the action notation.",
                                            word=tok))
        return cls(" ".join([tokens[0].lower(), *tokens[1:]]))

    @property
    def verb(self) -> str:
        return self.split(" ", 1)[0]

    @property
    def args(self) -> tuple:
        return tuple(self.split(" ")[1:])
