"""The "Your notes" section of the game page (templates/web/_notes.html) and of the replay:
the reader's own notes only (server/services/notes.py), gathered by the view that renders the
page; a refused save (server/web/notes.py) is shown again as it was typed."""

from __future__ import annotations

from flask import g, request

from server.models import Game
from server.services import notes
from server.web.pages import reader

SAVED = "saved"            # ?notes=saved: the confirmation
_POSTED = "notes_posted"   # flask.g: a refused save, shown again as typed


def keep_refused(text: str, error: str) -> None:
    setattr(g, _POSTED, {"text": text, "error": error})


def section(session, game: Game, seat: str | None) -> dict | None:
    """What the section shows the reader: None for anybody but a seat's player; else
    {"text", "updated_at", "saved", "error", "max"}."""
    user = reader()
    if seat is None or user is None:
        return None
    note = notes.of(session, game.id, user.id)
    posted = g.get(_POSTED)
    return {"text": posted["text"] if posted else (note.text if note else ""),
            "updated_at": note.updated_at if note else None,
            "saved": posted is None and request.args.get("notes") == SAVED,
            "error": posted["error"] if posted else None, "max": notes.MAX_CHARS}


def replay_notes(session, game: Game) -> dict | None:
    """The reader's own notes of a finished game, for its replay: None when they have none."""
    user = reader()
    if user is None:
        return None
    note = notes.of(session, game.id, user.id)
    if note is None or not note.text:
        return None
    return {"text": note.text, "updated_at": note.updated_at}
