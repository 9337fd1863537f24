"""The game page's "Take back" (issue 27, item 3): the mover takes back their last move while
it is held and the next player has not seen it (server/services/retract.py). A POST from the
game page with its CSRF token; a refusal comes back on the game page saying why."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request

from server import db
from server.models import Game
from server.parsing import whole
from server.services import games, lobby
from server.services import retract as retract_service
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.pages import reader
from server.web.words import _

bp = Blueprint("retract", __name__)


@bp.post("/games/<int:game_id>/retract")
def take_back(game_id: int):
    """Take the reader's last move back; 303 to the game page (their decision again), or the
    game page with the reason (409), 400 without the page's token, 403 for no seat."""
    with db.session() as session:
        game = session.get(Game, game_id)
        user = reader()
        if game is None or not lobby.may_see(session, game, user):
            abort(404)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        if seat is None:
            abort(403)
        if check_form():
            abort(400)
        step = whole(request.form.get("step", ""), -1)
        try:
            retract_service.retract(session, game_id, seat, step)
        except retract_service.RetractRefused as refused:
            reason = _(refused.template)
        except games.StaleStep:
            reason = _(retract_service.REASONS["moved_on"])
        else:
            return redirect(f"/games/{game_id}?done=retracted", 303)
    return show_with_refusal(game_id, reason, 409)
