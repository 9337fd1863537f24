"""The two ways an action can be refused: it does not parse, or it is not legal now."""


class ActionError(ValueError):
    """An action was refused; ``legal`` lists what would have been accepted. ``reason`` is the
    message as given (an ``engine.core.messages.Message``, to be told in the reader's language);
    ``str(error)`` is its English text with the legal list."""

    def __init__(self, reason: str, legal=()):
        self.reason = reason
        self.legal = [str(a) for a in legal]
        super().__init__(self._message())

    def _message(self) -> str:
        if not self.legal:
            return self.reason
        shown = ", ".join(self.legal[:40])
        more = f" (and {len(self.legal) - 40} more)" if len(self.legal) > 40 else ""
        return f"{self.reason} Legal: {shown}{more}."


class MalformedAction(ActionError):
    """The text is not an action in the game's notation at all."""


class IllegalAction(ActionError):
    """The action is well formed but the rules do not allow it for this seat now."""


class OptionsError(ValueError):
    """A game was asked for with an unknown edition, option or seat list."""


def with_defaults(options: dict, defaults: dict) -> dict:
    """``options`` over a game's ``defaults``, or OptionsError naming the unknown ones."""
    from .messages import plain
    unknown = set(options) - set(defaults)
    if unknown:
        raise OptionsError(plain("Unknown option(s) {unknown}; the options are {known}.",
                                 unknown=", ".join(sorted(unknown)), known=", ".join(defaults)))
    return {**defaults, **options}
