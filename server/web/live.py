"""GET /games/<id>/events: the game page's live news, as server-sent events (EventSource).

The stream sends an event ``step`` (``id:`` the step; data: the game's step, its status and
whether it is the reader's move now) as soon as the game is past the step the page knows (the
``step`` parameter, or the browser's ``Last-Event-ID`` on a reconnect), so nothing is missed
between two connections; a comment every ``HEARTBEAT_SECONDS`` (a closed tab is noticed, and
proxies keep the connection); and it ends after ``LIFETIME_SECONDS`` (the browser connects
again by itself after ``RETRY_MS``). The news comes from the process's watcher
(server/services/live.py); a stream reads the database only when it opens and when its game
moved on. Only reads: a GET never writes.

A stream holds a thread while it is open, so the streams are served by the `live` process
(server/gunicorn_live.py: threads), not by the `web` process's sync workers; the page opens
its stream at ``stream_url`` (LIVE_URL, server/config.py), with its cookies, and the answer
allows the pages' origin (BASE_URL) to read it (CORS). Each process takes at most
``LIVE_STREAMS_MAX`` streams (set from its threads by server/gunicorn_conf.py; none in a sync
worker), one reader at most ``LIVE_STREAMS_PER_CLIENT`` and the readers not signed in together
a share (server/web/live_process.py). Past that the answer is 204 No Content, which tells an
EventSource not to connect again: the page then falls back to its version check
(GET /games/<id>/version). A stream ends as soon as its client closes the connection.
"""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, request
from sqlmodel import Session

from server import db
from server.models import Game, utcnow
from server.parsing import whole
from server.services import live, lobby, seat_view
from server.web import live_process
from server.web.pages import reader

bp = Blueprint("live", __name__)
bp.before_app_request(live_process.streams_only)  # the `live` process serves nothing else

HEARTBEAT_SECONDS = 15.0
LIFETIME_SECONDS = 120.0
RETRY_MS = 1000


class _Seen:
    """What the stream tells a reader (``news``: the step, status and "your move" as the
    reader may see them: services/seat_view.py), and what it waits for, never told: the
    game's own step (past it, something changed) and, while a move is held from the reader,
    when the hold ends (then the reader sees the move)."""

    def __init__(self, session, game: Game, seat: str | None):
        seen = seat_view.of(session, game, seat)
        self.news, self.step, self.until = seen.news(), game.step, seen.held_until


def _event(news: dict) -> str:
    return f"id: {news['step']}\nevent: step\ndata: {json.dumps(news)}\n\n"


def _read(engine, game_id: int, seat: str | None) -> _Seen:
    """The game as the reader may see it now, read in one snapshot."""
    with db.reading(Session(engine)) as session:
        return _Seen(session, session.get(Game, game_id), seat)


SAME_ORIGIN = "same-origin"


def stream_url(game_id: int) -> str:
    """Where the game page opens its stream: the `live` process (LIVE_URL; unset: BASE_URL's
    host on LIVE_PORT), or the page's own server ("same-origin": a path only)."""
    path = f"/games/{game_id}/events"
    base = current_app.config.get("LIVE_URL") or ""
    if base == SAME_ORIGIN:
        return path
    if not base:
        parts = urlsplit(current_app.config["BASE_URL"])
        port = current_app.config.get("LIVE_PORT", 5001)
        base = f"{parts.scheme}://{parts.hostname}:{port}"
    return base.rstrip("/") + path


def _pages_origin() -> str:
    parts = urlsplit(current_app.config["BASE_URL"])
    return f"{parts.scheme}://{parts.netloc}"


@bp.after_request
def _allow_the_pages(response: Response) -> Response:
    """The pages (BASE_URL) open their streams here from another origin when the `live`
    process listens on a port of its own: let them, with their cookies, and them only."""
    origin = request.headers.get("Origin")
    if origin and origin == _pages_origin():
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Credentials"] = "true"
        response.headers["Access-Control-Allow-Headers"] = "Last-Event-ID"
    response.vary.add("Origin")
    return response


@bp.get("/games/<int:game_id>/events")
def events(game_id: int):
    with db.reading(db.session()) as session:
        game = session.get(Game, game_id)
        user = reader()
        if game is None or not lobby.may_see(session, game, user):
            abort(404)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        seen = _Seen(session, game, seat)
        known = whole(request.headers.get("Last-Event-ID", ""), -1)
        if known < 0:
            known = whole(request.args.get("step", ""), seen.news["step"])
        now = seen.news if seen.news["step"] > known else None
        active = game.status == "active"
    slot = live_process.take(user) if now is not None or active else None
    if slot is None:
        # Nothing will ever change, or this process (or this reader) holds all the streams it
        # may: 204 tells the page's EventSource not to connect again (it falls back to the
        # version check).
        return Response(status=204, headers={"Cache-Control": "no-store"})
    engine = db.get_engine()
    watcher = live.watcher_of(current_app.extensions, engine, current_app.config["BROKER_URL"])
    heartbeat = float(current_app.config.get("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))
    lifetime = float(current_app.config.get("LIVE_LIFETIME_SECONDS", LIFETIME_SECONDS))
    gone = threading.Event()  # the client closed the connection: end now, give the slot back
    departures = live_process.departures()
    sock = departures.watch(live_process.client_socket(request.environ),
                            lambda: (gone.set(), watcher.wake(game_id)))

    def stream():
        yield f"retry: {RETRY_MS}\n\n"
        told, news = known, now  # the step last told, and what to tell now
        real, until = seen.step, seen.until  # the game's own step: what the watcher passes
        ends = time.monotonic() + lifetime
        while True:
            if news is not None:
                told = news["step"]
                yield _event(news)
                if news["status"] != "active":
                    return
            left = ends - time.monotonic()
            if left <= 0:
                return
            wait = min(heartbeat, left)
            if until is not None:  # a move held from the reader: look again when it is final
                wait = min(wait, max(0.1, (until - utcnow()).total_seconds() + 0.05))
            heard = watcher.wait(game_id, real, wait, gone)
            if gone.is_set():
                return
            again = _read(engine, game_id, seat) if heard is not None or until is not None \
                else None
            if heard is not None and again.step <= real:
                again = None  # not visible to this read yet: read again soon
                time.sleep(0.05)
            if again is not None:
                real, until = again.step, again.until
            news = again.news if again is not None and again.news["step"] > told else None
            if heard is None and news is None:
                yield ": heartbeat\n\n"

    response = Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slot.give_back)
    response.call_on_close(lambda: departures.forget(sock))
    return response
