"""Table talk on the game page (server/services/chat.py): post a line, mark the chat read,
mute or unmute an author, report a line; every form a POST with the page's CSRF token, answered
by a redirect to the page's section, or after a refusal by the game page with the reason beside
the form and the text as it was typed, nothing changed. ``/games/<id>/chat/newest`` tells the
page's script the newest line it may read (a GET: it changes nothing)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, redirect, request

from server import db
from server.models import Game, User
from server.parsing import whole
from server.services import chat, lobby
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.chat_section import keep_refused
from server.web.pages import reader
from server.web.words import _

bp = Blueprint("chat_page", __name__)

SECTION = "#table-talk"


def _game(session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None or not lobby.may_see(session, game, reader()):
        abort(404)
    return game


def _words(exc: chat.ChatRefused) -> str:
    """The refusal in the reader's language."""
    return _(exc.template, **exc.values) if exc.values else _(exc.template)


def _signed_in(game_id: int):
    user = reader()
    if user is None:
        return None, show_with_refusal(game_id, _("Sign in first."), 401)
    refused = check_form()
    if refused:
        return None, show_with_refusal(game_id, refused, 400)
    return user, None


@bp.post("/games/<int:game_id>/chat")
def post(game_id: int):
    """Post the form's line in its channel; a refusal keeps the text typed."""
    with db.reading(db.session()) as session:
        _game(session, game_id)
    user, refused = _signed_in(game_id)
    if refused is not None:
        return refused
    channel = request.form.get("channel", chat.PLAYERS)
    body = request.form.get("body", "")
    with db.session() as session:
        game = _game(session, game_id)
        try:
            chat.post(session, game, session.get(User, user.id), channel, body,
                      float(current_app.config.get("CHAT_MAIL_DELAY_SECONDS",
                                                   chat.DEFAULT_MAIL_DELAY)))
        except chat.ChatRefused as exc:
            session.rollback()
            reason = _words(exc)
            keep_refused(channel, body, reason)
            return show_with_refusal(game_id, _("Your message was not sent: %(reason)s",
                                                reason=reason),
                                     403 if exc.kind == "forbidden" else 422)
        session.commit()
    return redirect(f"/games/{game_id}?chat=sent{SECTION}", 303)


@bp.post("/games/<int:game_id>/chat/read")
def read(game_id: int):
    """Mark the form's channel read up to the line the page showed (``through``); 204 for the
    page's script (``quiet``), else back to the section."""
    with db.reading(db.session()) as session:
        _game(session, game_id)
    user, refused = _signed_in(game_id)
    if refused is not None:
        return refused
    through = whole(request.form.get("through", ""), -1)
    with db.session() as session:
        game = _game(session, game_id)
        try:
            chat.mark_read(session, game, session.get(User, user.id),
                           request.form.get("channel", chat.PLAYERS),
                           through if through >= 0 else None)
        except chat.ChatRefused:
            abort(404)
        session.commit()
    if request.form.get("quiet"):
        return "", 204
    return redirect(f"/games/{game_id}{SECTION}", 303)


@bp.post("/games/<int:game_id>/chat/mute")
def mute(game_id: int):
    """Mute (or unmute: ``muted`` "0") the author ``user_id``."""
    with db.reading(db.session()) as session:
        _game(session, game_id)
    user, refused = _signed_in(game_id)
    if refused is not None:
        return refused
    target = whole(request.form.get("user_id", ""), -1)
    with db.session() as session:
        try:
            chat.mute(session, session.get(User, user.id), target,
                      request.form.get("muted", "1") != "0")
        except chat.ChatRefused as exc:
            return show_with_refusal(game_id, _words(exc), 422)
        session.commit()
    return redirect(f"/games/{game_id}?chat=muted{SECTION}", 303)


@bp.post("/games/<int:game_id>/chat/<int:message_id>/report")
def report(game_id: int, message_id: int):
    """Report a line to the operator."""
    with db.reading(db.session()) as session:
        _game(session, game_id)
    user, refused = _signed_in(game_id)
    if refused is not None:
        return refused
    with db.session() as session:
        try:
            chat.report(session, session.get(User, user.id), message_id,
                        request.form.get("reason", ""),
                        current_app.config.get("OPERATOR_EMAIL") or None)
        except chat.ChatRefused as exc:
            session.rollback()
            return show_with_refusal(game_id, _words(exc), 409 if exc.kind == "conflict"
                                     else 404 if exc.kind == "not_found" else 422)
        session.commit()
    return redirect(f"/games/{game_id}?chat=reported{SECTION}", 303)


@bp.get("/games/<int:game_id>/chat/newest")
def newest(game_id: int):
    """{"newest": the id of the newest line of each channel the reader may read} for the
    page's script to offer the new lines (nothing hidden: only ids)."""
    with db.reading(db.session()) as session:
        game = _game(session, game_id)
        user = reader()
        found = {channel: (lines[-1].id if lines else 0)
                 for channel in chat.channels_for(session, game, user)
                 for lines in [chat.lines(session, game, user, channel, limit=1)]}
    response = jsonify(newest=found)
    response.headers["Cache-Control"] = "no-store"
    return response
