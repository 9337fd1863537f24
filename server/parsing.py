"""Strict reading of numbers from requests: ASCII digits only, within what the database holds.

``str.isdigit`` is true of "²" and "٣", which ``int`` then refuses or reads as another number;
ids in paths beyond the database's integer range reached the database and failed there. Every
number a request carries (a path's id, a form's field) is read here, and anything else is a
clear refusal (404 for a path, the form's own message for a field), never a server error.
"""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

# The largest id a row can have: PostgreSQL's integer column (SQLite's holds more).
MAX_ID = 2 ** 31 - 1


def digits(text) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits (no sign, no space)."""
    return isinstance(text, str) and text.isascii() and text.isdigit()


def whole(text, default: int | None = None, most: int = MAX_ID) -> int | None:
    """``text`` as a whole number from 0 to ``most``, or ``default``."""
    if not digits(text) or len(text) > len(str(most)):
        return default
    value = int(text)
    return value if value <= most else default


class IdConverter(IntegerConverter):
    """``<int:...>`` in every route: ASCII digits only and 1 to MAX_ID, so a path naming a
    larger id (2**63, say) or another script's digits is simply not found (404)."""

    regex = r"[0-9]+"

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("min", 1)
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)

    def to_python(self, value: str) -> int:
        if len(value) > len(str(MAX_ID)):        # no huge int() of a long digit string
            from werkzeug.routing import ValidationError
            raise ValidationError()
        return super().to_python(value)


def id_schema(converter) -> dict:
    """The OpenAPI schema of an id in a path (flask-smorest's converter registry)."""
    return {"type": "integer", "minimum": 1, "maximum": MAX_ID}
