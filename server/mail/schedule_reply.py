"""Reply lines that ask for, answer or end a pause or an extension (issue 27, item 4):
``pause`` (ask to pause the game), ``pause yes`` / ``pause no`` (agree or refuse), ``resume``,
``extend`` (ask for more time), ``extend yes`` / ``extend no`` (grant or refuse). A reply made
only of such lines does that and nothing else (server/mail/replies.py); the players are told by
the "pause" or "extension" mail that follows, or, when it is refused, the reply is answered with
the reason. A line that is also an order of the game is never read as one of these: these
words are not in any game's notation."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from sqlmodel import Session

from server.services import extensions, pauses

_ACTIONS: dict[tuple[str, ...], Callable] = {
    ("pause",): lambda s, g, seat, now: pauses.ask(s, g, seat, now),
    ("pause", "yes"): lambda s, g, seat, now: pauses.answer(s, g, seat, True, now),
    ("pause", "no"): lambda s, g, seat, now: pauses.answer(s, g, seat, False, now),
    ("resume",): lambda s, g, seat, now: pauses.resume(s, g, seat, now),
    ("extend",): lambda s, g, seat, now: extensions.ask(s, g, seat, now),
    ("extend", "yes"): lambda s, g, seat, now: extensions.answer(s, g, seat, True, now),
    ("extend", "no"): lambda s, g, seat, now: extensions.answer(s, g, seat, False, now),
}


def _words(line: str) -> tuple[str, ...]:
    return tuple(line.strip().casefold().rstrip(".!").split())


def is_line(line: str) -> bool:
    """Whether the reply's line is one of these."""
    return _words(line) in _ACTIONS


def apply(session: Session, game_id: int, seat: str, line: str, now: datetime) -> None:
    """Do what the line says for the seat; commits. Raise pauses.PauseError (extensions'
    errors are PauseErrors too)."""
    _ACTIONS[_words(line)](session, game_id, seat, now)
