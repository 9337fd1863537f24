"""Private notes: your notepad in a game you play (server/services/notes.py). Only the seat's
own player reads or writes it: another player, a spectator or a stranger gets the same 403 or
404 as for any seat's business."""

from __future__ import annotations

from flask_smorest import Blueprint

from server import db
from server.api import access, auth
from server.api.notes_schemas import NotesSchema
from server.api.problems import Problem
from server.services import notes

blp = Blueprint("notes", __name__, url_prefix="/api/v1/games",
                description="Private notes: your own notepad in each game you play, shown to "
                            "nobody else (not the other players, spectators, webhooks or "
                            "mails); yours again in the replay after the end.")


def _body(game_id: int, seat: str, note) -> dict:
    return {"game_id": game_id, "seat": seat, "text": note.text if note else "",
            "updated_at": note.updated_at if note else None}


@blp.route("/<int:game_id>/notes", methods=["GET"])
@auth.required
@blp.response(200, NotesSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
def show(game_id):
    """Your notes in the game (empty text and null time: none written yet)."""
    user = auth.current_user()
    with db.reading(db.session()) as session:
        _game, seat = access.playing(session, game_id, user)
        return _body(game_id, seat, notes.of(session, game_id, user.id))


@blp.route("/<int:game_id>/notes", methods=["PUT"])
@auth.required
@blp.arguments(NotesSchema, example={"text": "Nixon holds the South; save Debate cards."})
@blp.response(200, NotesSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def change(data, game_id):
    """Replace your notes in the game.

    ``text`` replaces them (empty clears them). Refused (422, saying
    why) when over the limit or not plain text; nothing changes then."""
    user = auth.current_user()
    with db.session() as session:
        game, seat = access.playing(session, game_id, user)
        try:
            note = notes.save(session, game, seat, user.id, data["text"])
        except notes.NoteRefused as refused:
            session.rollback()
            raise Problem("invalid-notes", str(refused)) from None
        session.commit()
        return _body(game_id, seat, note)
