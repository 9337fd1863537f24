"""Game text that can be told in any language: a template with named placeholders and its
arguments, rendered to English by the engine and to other languages by whoever shows it.

A ``Message`` is a ``str`` (its English text, so every caller that wants English keeps working)
that also carries ``template`` and ``args``. A template is a ``str.format`` template in English;
its placeholders say what kind of thing they hold by their name, before any ``_suffix`` or digits:

- ``{seat}``, ``{card}``, ``{state}``, ``{issue}``, ``{region}`` (and ``{seat_target}``, ...): an
  id (a seat, card id, state code, issue or region key) shown by its name in the reader's language;
- the plural (``{states}``, ``{issues}``, ...): a list of such ids, joined;
- ``{prompt}`` or ``{reason}``: another message (a ``Message``, or its ``data()`` form);
- anything else (``{n}``, ``{left}``, ``{action}``, ...): a number or notation, shown as it is.

So a number about a card is ``{cid}``, not ``{card_id}`` (that one would show the card's name).

So no English word ever travels as an argument: a sentence that varies is two templates. The
English templates are the message ids of the translation catalogues (``server/translations``).
"""
from __future__ import annotations

from typing import Callable, Mapping

Names = Mapping[str, Callable[[object], str]]
NESTED = ("prompt", "reason")


def kind(placeholder: str) -> str:
    """The kind of a placeholder: its name before any ``_suffix``, without trailing digits."""
    return placeholder.split("_", 1)[0].rstrip("0123456789")


def render(template: str, args: Mapping, names: Names, translate: Callable[[str], str] = str,
           join: Callable[[list], str] = ", ".join) -> str:
    """``template`` (through ``translate``) with every argument shown by its kind's name. A
    template without arguments is not formatted (it needs no doubled braces)."""
    if not args:
        return translate(template)
    values = {}
    for key, value in args.items():
        k = kind(key)
        if k in NESTED and isinstance(value, Message) and translate is str:
            values[key] = str(value)    # English already, told with its own game's names
        elif k in NESTED:
            template_, args_ = data(value) if isinstance(value, str) else value
            values[key] = render(template_, args_, names, translate, join)
        elif k in names:
            values[key] = names[k](value)
        elif k.endswith("s") and k[:-1] in names:
            values[key] = join([names[k[:-1]](v) for v in value])
        else:
            values[key] = value
    return translate(template).format(**values)


class Message(str):
    """English text that also carries its template and arguments (see the module's doc)."""

    template: str
    args: dict

    def __new__(cls, template: str, args: dict, names: Names) -> "Message":
        self = super().__new__(cls, render(template, args, names))
        self.template = template
        self.args = args
        return self

    def data(self) -> list:
        """``[template, args]`` with nested messages in the same form: JSON, to render later."""
        return [self.template, {k: v.data() if isinstance(v, Message) else v
                                for k, v in self.args.items()}]


def data(text: str) -> list:
    """The ``[template, args]`` of any text: a plain string is a template without arguments."""
    return text.data() if isinstance(text, Message) else [str(text), {}]


def plain(template: str, **args) -> Message:
    """A message whose arguments are all shown as they are (the core's notation errors)."""
    return Message(template, args, {})
