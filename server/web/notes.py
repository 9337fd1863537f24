"""Saving the reader's private notes from the game page (POST, with the page's CSRF token). A
saved note answers with the page and a confirmation (a redirect); a refusal with the page, the
reason, and the text as it was typed; nothing changed."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request

from server import db
from server.models import Game
from server.services import lobby, notes
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.notes_section import SAVED, keep_refused
from server.web.pages import reader
from server.web.words import _

bp = Blueprint("notes_page", __name__)


@bp.post("/games/<int:game_id>/notes")
def save(game_id: int):
    user = reader()
    text = request.form.get("notes", "")
    with db.session() as session:
        game = session.get(Game, game_id)
        if game is None or not lobby.may_see(session, game, user):
            abort(404)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        if seat is None:
            abort(403)
        refused = check_form()
        if refused:
            keep_refused(text, refused)
            return show_with_refusal(game_id, refused, 400)
        try:
            notes.save(session, game, seat, user.id, text)
        except notes.NoteRefused as exc:
            session.rollback()
            reason = _(exc.template, **exc.values)
        else:
            session.commit()
            return redirect(f"/games/{game_id}?notes={SAVED}#notes", 303)
    keep_refused(text, reason)
    return show_with_refusal(game_id, _("Your notes were not saved: %(reason)s",
                                        reason=reason), 422)
