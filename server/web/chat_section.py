"""The "Table talk" section of the game page (templates/web/_chat.html), gathered by the view
that renders the page (server/web/board.py) like its other sections: the lines the reader may
read (server/services/chat.py: a player the players' chat, a spectator the spectators' chat
when the game has one; after the end both, in the replay too), each with its author's name and
time, the reader's own marked; the form to post, and after a refusal the text as it was typed
with the reason. Its own module because the chat's routes (server/web/chat.py) show the game
page again after a refusal, as the standing-orders section does."""

from __future__ import annotations

from flask import g, request
from sqlmodel import select

from server.models import Game, User
from server.services import chat, display_names
from server.web.seats import names as seat_names
from server.web.words import N_, _, locale

_POSTED = "chat_posted"  # flask.g: a refused line, shown again as typed
TITLES = {chat.PLAYERS: N_("Players' table talk"), chat.SPECTATORS: N_("Spectators' chat")}


def keep_refused(channel: str, body: str, error: str) -> None:
    """Keep a refused line as it was typed, and why, for this request's game page."""
    setattr(g, _POSTED, {"channel": channel, "body": body, "error": error})


def channels(session, game: Game, user, limit: int = chat.PAGE) -> list[dict]:
    """Each channel ``user`` may read in ``game``: {"channel", "title", "lines" (oldest first:
    "id", "author", "author_id", "seat", "body", "at", "mine", "reported"), "may_post",
    "body" (the text kept after a refusal), "error", "unread", "newest"}."""
    out = []
    posted = g.get(_POSTED)
    seats = seat_names(game.game_type, locale())
    for channel in chat.channels_for(session, game, user):
        rows = chat.lines(session, game, user, channel, limit=limit)
        authors = {u.id: u for u in session.exec(select(User).where(
            User.id.in_({r.user_id for r in rows})))} if rows else {}
        try:
            chat.check_post(session, game, user, channel) if user is not None else None
            may_post = user is not None
        except chat.ChatRefused:
            may_post = False
        mine = posted if posted and posted["channel"] == channel else None
        out.append({
            "channel": channel,
            "title": _(TITLES[channel]),
            "lines": [{"id": r.id, "author": display_names.shown(authors.get(r.user_id), _)
                       if r.user_id in authors else "", "author_id": r.user_id,
                       "seat": seats.get(r.seat, r.seat) if r.seat else "", "body": r.body, "at": r.created_at,
                       "mine": user is not None and r.user_id == user.id,
                       "reported": r.reported} for r in rows],
            "may_post": may_post, "body": mine["body"] if mine else "",
            "error": mine["error"] if mine else None,
            "newest": rows[-1].id if rows else 0,
            "done": request.args.get("chat")})
    return out


def unread(session, game: Game, user) -> int:
    """How many lines of the game's table talk ``user`` has not read (the page's count)."""
    if user is None:
        return 0
    return chat.unread(session, user, [game.id]).get(game.id, 0)


def muted(session, user) -> list[dict]:
    """The authors the reader mutes: {"id", "name"} (to unmute them)."""
    ids = chat.muted_by(session, user.id if user is not None else None)
    if not ids:
        return []
    return [{"id": u.id, "name": display_names.shown(u, _)}
            for u in session.exec(select(User).where(User.id.in_(ids)).order_by(User.id))]
