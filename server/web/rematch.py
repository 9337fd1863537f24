"""The rematch on the pages (issue 27 item 6): its section of a finished game's result page, and
the page a mail's signed link opens (/games/<id>/rematch?t=...).

A GET never changes anything (mail scanners open every link): the link's page asks, and its
form's POST acts. The link is good for its own game, player and action (offer or accept) only,
and acts once; a signed-in player uses the result page's forms instead.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request

from server import db, secret_keys
from server.models import Game, User
from server.services import display_names, lobby, rematch
from server.services.lobby import LobbyError
from server.web.accounts import check_form
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.words import N_, _, locale, refusal, speak

bp = Blueprint("rematch_pages", __name__)


def section(session, game: Game, user) -> dict | None:
    """What the result page says of the rematch: for its players, the forms; for everyone,
    the link to the new game once made (or to the game this one is the rematch of)."""
    if game.status != "finished":
        return None
    offer = rematch.current(session, game.id)
    rows = lobby.seat_rows(session, game.id)
    mine = user is not None and any(r.user_id == user.id for r in rows)
    names = seat_names(game.game_type, locale())
    people = [r for r in rows if r.user_id in rematch.players(rows, game)]
    state = offer.status if offer is not None else "none"
    return {"status": state, "mine": mine,
            "swap": offer.swap if offer is not None else True,
            "accepted": offer is not None and user is not None and user.id in offer.accepted,
            "waiting": [names.get(r.seat, r.seat) for r in people
                        if offer is not None and r.user_id not in offer.accepted],
            "new_game_id": offer.new_game_id if offer is not None else None,
            "rematch_of": rematch.rematch_of(session, game.id)}


def _act(session, game_id: int, user_id: int, action: str, swap: bool):
    if action == "offer":
        return rematch.offer(session, game_id, user_id, swap)
    if action == "accept":
        return rematch.accept(session, game_id, user_id)
    if action == "withdraw":
        return rematch.withdraw(session, game_id, user_id)
    raise LobbyError("invalid", N_("Choose to offer, accept or withdraw the rematch."))


def _max_age() -> float:
    return float(current_app.config.get("LINK_MAX_AGE_SECONDS", 30 * 86400))


@bp.get("/games/<int:game_id>/rematch")
def confirm(game_id: int):
    """The signed link's page: what it does, and the button that does it."""
    token = request.args.get("t", "")
    with db.reading(db.session()) as session:
        game = session.get(Game, game_id)
        if game is None:
            abort(404)
        if not token:
            return redirect(f"/games/{game_id}/result#rematch-h", 303)
        try:
            user_id, action, _digest = rematch.read_token(
                session, secret_keys.ring(current_app.config), token, game_id, _max_age())
        except LobbyError as exc:
            return _page(session, game, None, "", token, refusal(exc), 403
                         if exc.kind == "forbidden" else 409)
        user = session.get(User, user_id)
        if user is not None:
            speak(user.locale)
        return _page(session, game, user, action, token)


@bp.post("/games/<int:game_id>/rematch")
def act(game_id: int):
    """Offer, accept or withdraw: by the signed-in player (the result page's forms) or by a
    mail's signed link (its token in the form)."""
    form = request.form
    swap = form.get("swap", "swap") != "keep"
    token = form.get("t", "")
    with db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            abort(404)
        bad = check_form()
        if bad:
            return _page(session, game, reader(), form.get("action", ""), token, bad, 400)
        try:
            if token:
                user_id, action, digest = rematch.read_token(
                    session, secret_keys.ring(current_app.config), token, game_id, _max_age())
                if action == "offer" and form.get("action") == "accept":
                    action = "accept"   # the offer's page of a player whose offer was joined
                rematch.use_token(session, game_id, digest)
            else:
                user = reader()
                if user is None:
                    return redirect(f"/sign-in?next=/games/{game_id}/result", 303)
                user_id, action = user.id, form.get("action", "")
            _act(session, game_id, user_id, action, swap)
        except LobbyError as exc:
            session.rollback()
            user = session.get(User, user_id) if token and "user_id" in locals() else reader()
            return _page(session, game, user, form.get("action", ""), token, refusal(exc),
                         404 if exc.kind == "not_found" else
                         403 if exc.kind == "forbidden" else
                         422 if exc.kind == "invalid" else 409)
    return redirect(f"/games/{game_id}/result#rematch-h", 303)


def _page(session, game: Game, user, action: str, token: str, refused: str | None = None,
          status: int = 200):
    offer = rematch.current(session, game.id)
    by = session.get(User, offer.offered_by) if offer is not None else None
    return page("rematch.html", status, locale(), game=game, action=action, token=token,
                refusal=refused, offer=offer, reader_id=user.id if user else None,
                offered_by=display_names.shown(by, _) if by else None,
                game_url=f"/games/{game.id}/result")
