"""POST /games/<id>/watching: a seated player's game page says it is open, live and in view
(every ``presence.BEAT_SECONDS``), or, with ``left``, that it is leaving (hidden, closed,
reloaded: a beacon). Decision mails wait while it is (services/presence.py: issue 46, item 5).

A POST with the page's CSRF token, as the page's ``/seen`` (the page's GET and its stream's
write nothing). 204 when recorded or nothing to record (a game not in play), 400 without the
page's token, 403 for a reader with no seat, 404 for a game the reader may not see.
"""

from __future__ import annotations

from flask import Blueprint, request

from server import db
from server.models import utcnow
from server.services import presence
from server.web.accounts import check_form
from server.web.board import _seat_and_game
from server.web.pages import reader

bp = Blueprint("presence", __name__)


@bp.post("/games/<int:game_id>/watching")
def watching(game_id: int):
    with db.session() as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            return "", 403
        if check_form():
            return "", 400
        if game.status == "active":
            presence.mark(session, game.id, reader().id, utcnow(),
                          left=bool(request.form.get("left")))
            session.commit()
    return "", 204

