"""What happened since the player last looked (issue 47, item 1): the game page's first words
above the decision, from the notes of the game the reader may see (the view's), after those
the page had shown them when they last looked (``Seat.notes_viewed``, written by the page's
"seen" beacon) or, before their first look, after those their last mail told
(``Seat.notes_mailed``). A note repeated in a row is one line with how many times ("adds
support in New York", twice); the newest ``LINES`` are shown, with how many earlier ones the
log holds."""

from __future__ import annotations

from sqlmodel import Session, select

from server.i18n import game_text
from server.models import Seat

LINES = 8


def since(session: Session, game_id: int, seat: str | None, messages: list, loc: str,
          game_type: str) -> dict | None:
    """{"lines": [{"text", "times"}] oldest first, "earlier": lines left out} of the notes
    since ``seat`` last looked, or None (a spectator, nothing new)."""
    if seat is None:
        return None
    row = session.exec(select(Seat.notes_viewed, Seat.notes_mailed)
                       .where(Seat.game_id == game_id, Seat.seat == seat)).first()
    if row is None:
        return None
    viewed, mailed = row
    start = min(viewed if viewed is not None else mailed, len(messages))
    fresh = messages[start:]
    if not fresh:
        return None
    lines: list[dict] = []
    for text in game_text.texts(fresh, loc, game_type):
        if lines and lines[-1]["text"] == text:
            lines[-1]["times"] += 1
        else:
            lines.append({"text": text, "times": 1})
    return {"lines": lines[-LINES:], "earlier": max(0, len(lines) - LINES)}


def looked(session: Session, game_id: int, seat: str, notes: int) -> bool:
    """The page showed ``seat``'s player the game's first ``notes`` notes: remember it (never
    backwards: an older page sent late does not bring old news back). Whether it changed."""
    row = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).first()
    if row is None or notes < 0 or (row.notes_viewed is not None and notes <= row.notes_viewed):
        return False
    row.notes_viewed = notes
    session.add(row)
    return True
