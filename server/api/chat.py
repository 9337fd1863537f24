"""Table talk by API (server/services/chat.py): a game's chat lines, posting, marking read,
muting a user and reporting a line. Refusals are problem+json with the reason in words."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask_smorest import Blueprint
from marshmallow import fields, validate
from sqlmodel import Session, select

from server import db
from server.api import access, auth
from server.api.problems import Problem
from server.api.schemas import StrictBoolean, UTCDateTime
from server.models import ChatMessage, User
from server.parsing import MAX_ID
from server.services import chat, display_names

blp = Blueprint("chat", __name__, url_prefix="/api/v1",
                description="Table talk: a game's chat for its players, and a separate one "
                            "for its spectators when the game's creator opened it; mutes and "
                            "reports.")

_SLUGS = {"invalid": "invalid-chat-message", "forbidden": "forbidden", "conflict": "conflict"}
_CHANNEL = fields.String(validate=validate.OneOf(chat.CHANNELS), metadata={
    "description": "\"players\" (the game's players) or \"spectators\" (readers without a "
                   "seat, when the game has a spectators' chat). Default: the caller's own"})


class ChatQuerySchema(ma.Schema):
    channel = _CHANNEL
    before = fields.Integer(validate=validate.Range(min=1, max=MAX_ID), metadata={
        "description": "Lines older than this line id (to page back)"})
    after = fields.Integer(validate=validate.Range(min=0, max=MAX_ID), metadata={
        "description": "Lines newer than this line id (to catch up)"})
    limit = fields.Integer(load_default=chat.PAGE,
                           validate=validate.Range(min=1, max=chat.PAGE))


class ChatPostSchema(ma.Schema):
    channel = _CHANNEL
    body = fields.String(required=True, metadata={
        "description": f"The line, 1 to {chat.MAX_BODY} characters (shown escaped)"})


class ChatReadSchema(ma.Schema):
    channel = _CHANNEL
    through = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_ID),
                             metadata={"description": "Read up to this line id (default: the "
                                                      "newest)"})


class ChatLineSchema(ma.Schema):
    id = fields.Integer()
    channel = fields.String()
    author = fields.String(metadata={"description": "The name the author chose, else "
                                                    "\"Player <id>\""})
    author_id = fields.Integer(metadata={"description": "The author's user id (to mute them)"})
    seat = fields.String(allow_none=True, metadata={"description": "The author's seat, for a "
                                                                   "player"})
    body = fields.String(metadata={"description": "The text as written: escape it to show it"})
    created_at = UTCDateTime()
    mine = fields.Boolean()


class ChatSchema(ma.Schema):
    channel = fields.String()
    channels = fields.List(fields.String(), metadata={
        "description": "The channels the caller may read in this game now"})
    spectators_chat = fields.Boolean(metadata={"description": "Whether the game's creator "
                                                              "opened a spectators' chat"})
    lines = fields.List(fields.Nested(ChatLineSchema), metadata={"description": "Newest last"})
    unread = fields.Integer(metadata={"description": "Lines of this channel not read yet"})


class ChatReadResultSchema(ma.Schema):
    channel = fields.String()
    read_through = fields.Integer()


class MuteSchema(ma.Schema):
    user_id = fields.Integer(required=True, strict=True,
                             validate=validate.Range(min=1, max=MAX_ID))
    muted = StrictBoolean(load_default=True, metadata={"description": "false unmutes"})


class MutesSchema(ma.Schema):
    muted = fields.List(fields.Integer(), metadata={"description": "The user ids you mute"})


class ReportSchema(ma.Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=chat.MAX_REASON))


class ReportResultSchema(ma.Schema):
    report_id = fields.Integer()
    message_id = fields.Integer()


def _problem(exc: chat.ChatRefused) -> Problem:
    if exc.kind == "not_found":
        return Problem("not-found", exc.reason)
    return Problem(_SLUGS[exc.kind], exc.reason)


def _game_and_channel(session: Session, game_id: int, user, channel: str | None):
    game = access.visible_game(session, game_id, user)
    readable = chat.channels_for(session, game, user)
    if channel is None:
        channel = readable[0] if readable else chat.PLAYERS
    return game, channel, readable


def _body(session: Session, game, user, channel: str, readable: list[str], rows) -> dict:
    authors = {u.id: u for u in session.exec(
        select(User).where(User.id.in_({r.user_id for r in rows})))} if rows else {}
    return {"channel": channel, "channels": readable,
            "spectators_chat": chat.spectators_open(session, game.id),
            "lines": [line_body(r, authors.get(r.user_id), user) for r in rows],
            "unread": chat.unread(session, user, [game.id]).get(game.id, 0)
            if user is not None else 0}


def line_body(row, author, reader) -> dict:
    return {"id": row.id, "channel": row.channel,
            "author": display_names.shown(author) if author is not None else "",
            "author_id": row.user_id, "seat": row.seat, "body": row.body,
            "created_at": row.created_at, "mine": reader is not None and row.user_id == reader.id}


@blp.route("/games/<int:game_id>/chat", methods=["GET"])
@auth.optional
@blp.arguments(ChatQuerySchema, location="query")
@blp.response(200, ChatSchema)
@blp.doc(security=auth.OPTIONAL_AUTH)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
def show(query, game_id):
    """The chat lines you may read, newest last (at most `limit`), without those of users you
    mute. While the game runs a player reads the players' chat and a spectator the
    spectators' (if the game has one), never the other; after the end anyone who may see the
    game reads both."""
    user = auth.current_user(required=False)
    with db.reading(db.session()) as session:
        game, channel, readable = _game_and_channel(session, game_id, user, query.get("channel"))
        try:
            rows = chat.lines(session, game, user, channel, before=query.get("before"),
                              after=query.get("after"), limit=query["limit"])
        except chat.ChatRefused as exc:
            raise _problem(exc) from None
        return _body(session, game, user, channel, readable, rows)


@blp.route("/games/<int:game_id>/chat", methods=["POST"])
@auth.required
@blp.arguments(ChatPostSchema, example={"channel": "players", "body": "Good luck!"})
@blp.response(201, ChatLineSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post(data, game_id):
    """Post a line: a player in the players' chat, a signed-in spectator in the spectators'
    chat when the game has one. Empty lines, lines over 4,000 characters, and posts after the
    game's end are refused. The other readers get one table-talk mail per unread period."""
    caller = auth.current_user()
    with db.session() as session:
        user = session.get(User, caller.id)
        game, channel, _readable = _game_and_channel(session, game_id, user,
                                                     data.get("channel"))
        try:
            row = chat.post(session, game, user, channel, data["body"], mail_delay())
        except chat.ChatRefused as exc:
            session.rollback()
            raise _problem(exc) from None
        body = line_body(row, user, user)
        session.commit()
    return body


@blp.route("/games/<int:game_id>/chat/read", methods=["POST"])
@auth.required
@blp.arguments(ChatReadSchema, required=False)
@blp.response(200, ChatReadResultSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
def mark_read(data, game_id):
    """Mark the channel read (up to `through`, default the newest line): its unread count
    drops, and the next line may be mailed to you again."""
    caller = auth.current_user()
    with db.session() as session:
        user = session.get(User, caller.id)
        game, channel, _readable = _game_and_channel(session, game_id, user,
                                                     data.get("channel"))
        try:
            through = chat.mark_read(session, game, user, channel, data.get("through"))
        except chat.ChatRefused as exc:
            raise _problem(exc) from None
        session.commit()
    return {"channel": channel, "read_through": through}


@blp.route("/games/<int:game_id>/chat/<int:message_id>/report", methods=["POST"])
@auth.required
@blp.arguments(ReportSchema)
@blp.response(201, ReportResultSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def report(data, game_id, message_id):
    """Report a line you may read to the server's operator (once per line; not your own)."""
    caller = auth.current_user()
    with db.session() as session:
        user = session.get(User, caller.id)
        access.visible_game(session, game_id, user)
        row = session.get(ChatMessage, message_id)
        if row is None or row.game_id != game_id:
            raise Problem("not-found", "There is no such message for you.")
        try:
            found = chat.report(session, user, message_id, data["reason"], operator_email())
        except chat.ChatRefused as exc:
            session.rollback()
            raise _problem(exc) from None
        session.commit()
        return {"report_id": found.id, "message_id": message_id}


@blp.route("/users/me/mutes", methods=["GET"])
@auth.required
@blp.response(200, MutesSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def mutes():
    """The users you mute."""
    caller = auth.current_user()
    with db.reading(db.session()) as session:
        return {"muted": sorted(chat.muted_by(session, caller.id))}


@blp.route("/users/me/mutes", methods=["POST"])
@auth.required
@blp.arguments(MuteSchema)
@blp.response(200, MutesSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def change_mute(data):
    """Mute a user (their chat lines are hidden from you on the pages, in the API and in
    mail), or unmute them with `"muted": false`."""
    caller = auth.current_user()
    with db.session() as session:
        user = session.get(User, caller.id)
        try:
            chat.mute(session, user, data["user_id"], data["muted"])
        except chat.ChatRefused as exc:
            raise _problem(exc) from None
        session.commit()
        return {"muted": sorted(chat.muted_by(session, caller.id))}


def mail_delay() -> float:
    """Seconds a table-talk mail waits for more lines (CHAT_MAIL_DELAY_SECONDS)."""
    return float(current_app.config.get("CHAT_MAIL_DELAY_SECONDS", chat.DEFAULT_MAIL_DELAY))


def operator_email() -> str | None:
    """Where reports are mailed (OPERATOR_EMAIL), or None."""
    return current_app.config.get("OPERATOR_EMAIL") or None
