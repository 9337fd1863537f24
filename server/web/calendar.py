"""The calendar feed at its signed URL (server/services/calendar_feed.py): no session, no
cookie, no CSRF; a GET that changes nothing. A URL not signed by us, or revoked (its key
replaced), is 404 with a line of text saying so."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from server import db, secret_keys
from server.services import calendar_feed

bp = Blueprint("calendar_feed", __name__)


@bp.get("/calendar/<token>.ics")
def feed(token: str):
    config = current_app.config
    with db.reading(db.session()) as session:
        user = calendar_feed.reader(session, token, secret_keys.ring(config))
        if user is None:
            return Response("This calendar address is not valid: it was replaced by a new "
                            "one, or never was. Copy the current one from your settings.\n",
                            404, {"Content-Type": "text/plain; charset=utf-8",
                                  "Cache-Control": "no-store"})
        body = calendar_feed.calendar(session, user, config["BASE_URL"], config["MAIL_DOMAIN"])
    return Response(body, 200, {"Content-Type": "text/calendar; charset=utf-8",
                                "Cache-Control": "no-store",
                                "Content-Disposition": 'inline; filename="whistlestop.ics"'})
