"""POST /games/<id>/watching: a seated player's game page says it is open, live and in view
(every ``presence.BEAT_SECONDS``), or, with ``left``, that it is leaving (hidden, closed,
reloaded: a beacon). Decision mails wait while it is (services/presence.py: issue 46, item 5).

The lobby's form takes the creator of a game to its page as it makes it (a game against bots
may begin at once: POST /games/new), and the page a game is started or joined from (POST
/games/<id>/start, /games/<id>/join: it may begin as its last seat is taken) shows the game
from then on: each counts as a beat of that page, so the first
decision's mail waits as the next ones do. Only a form sent by a page with scripts says so
(``page_live``, added by templates/web/_page.html as it is sent): a page without them will not
be live. The game made is marked in the transaction that makes it (the session's flush, below),
the start before the start's own transaction.

A POST with the page's CSRF token, as the page's ``/seen`` (the page's GET and its stream's
write nothing). 204 when recorded or nothing to record (a game not in play), 400 without the
page's token, 403 for a reader with no seat, 404 for a game the reader may not see.
"""

from __future__ import annotations

from flask import Blueprint, has_request_context, request
from sqlalchemy import event, insert
from sqlalchemy.orm import Session as OrmSession

from server import db
from server.models import Game, utcnow
from server.models import PagePresence
from server.services import lobby, presence
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



@bp.before_app_request
def _starting():
    """A game started from its page (``lobby.start``, by a seated player), or joined from it
    (``lobby.join``: a game may begin as its last seat is taken), with the page's token:
    that page is live now, before the start's mails are sent. (A join refused leaves a row
    that concerns no mail: its reader has no seat.)"""
    if request.method != "POST" or request.endpoint not in ("lobby.start", "lobby.join"):
        return None
    user, game_id = reader(), (request.view_args or {}).get("game_id")
    if user is None or game_id is None or request.form.get("page_live") != "1" or check_form():
        return None  # the start itself answers
    with db.session() as session:
        game = session.get(Game, game_id)
        if game is not None and game.status == "open" and (
                request.endpoint == "lobby.join"
                or lobby.seat_of(session, game_id, user.id) is not None):
            presence.mark(session, game_id, user.id, utcnow())
            session.commit()
    return None


@event.listens_for(OrmSession, "after_flush")
def _made_from_the_lobby(session, _flush_context) -> None:
    """A game made by the lobby's form (``lobby.create``): its creator's page of it is live
    from now, in the transaction that makes it."""
    if not has_request_context() or request.endpoint != "lobby.create" or \
            request.form.get("page_live") != "1":
        return
    made = [o for o in session.new if isinstance(o, Game) and o.created_by is not None]
    if made:
        now = utcnow()
        session.connection().execute(insert(PagePresence), [
            {"game_id": game.id, "user_id": game.created_by, "seen_at": now}
            for game in made])
