"""The pages' own error pages (issue 47, item 7): a page not found, gone, a method not allowed,
too many requests or a failure of ours, as a styled page in the reader's language with the ways
back (the lobby, signing in, the help), instead of Werkzeug's English text. The API's paths keep
their problem+json answers (server/api/problems.py), and so does a page that answers its own
errors. A 500 names nothing of what failed: the log has that."""

from __future__ import annotations

import logging

from flask import Flask
from werkzeug.exceptions import HTTPException, InternalServerError

from server.api import problems
from server.catalogue import N_
from server.web.words import _, locale

log = logging.getLogger(__name__)

# (heading, explanation) by status; any other status gets the generic pair.
WORDS = {
    404: (N_("Page not found"),
          N_("There is no page at this address, or it is not one you may see. A game you are "
             "not seated at is shown only if it is public.")),
    405: (N_("This address does not take that request"),
          N_("The page was asked in a way it does not answer; nothing was changed. Open it "
             "again from the game page or your games.")),
    410: (N_("This page is gone"),
          N_("What this address led to is no longer here; nothing was changed.")),
    429: (N_("Too many requests"),
          N_("Too many requests came from here in a short time; nothing was changed. Wait a "
             "minute and try again.")),
    500: (N_("Something went wrong on our side"),
          N_("Your request could not be completed, and nothing was changed. Please try again in "
             "a moment; if it happens again, the operator has the details.")),
}
GENERIC = (N_("This request could not be answered"),
           N_("Nothing was changed. Go back to your games and try again."))
STATUSES = (400, 403, 404, 405, 410, 413, 429, 500)


def answer(error: HTTPException):
    """The error as a page (or, under /api/, as the API's problem)."""
    if problems.is_api_request():
        return problems.from_http_exception(error).response()
    from server.web.pages import page
    status = error.code or 500
    heading, explanation = WORDS.get(status, GENERIC)
    try:
        response = page("error.html", status, locale(), heading=_(heading),
                        explanation=_(explanation), code=status)
    except Exception:   # the page itself failed (its reader, its database): plain words
        log.exception("the error page for %s failed; answered in plain text", status)
        return f"{heading}\n\n{explanation}\n", status, {
            "Content-Type": "text/plain; charset=utf-8"}
    for name, value in error.get_headers():
        if name in ("Retry-After", "Allow"):
            response.headers[name] = value
    return response


def failure(error: InternalServerError):
    """An exception nothing else answered: logged by Flask; answered as the 500 page."""
    return answer(error if isinstance(error, HTTPException) else InternalServerError())


def init_app(app: Flask) -> None:
    for status in STATUSES:
        app.register_error_handler(status, failure if status == 500 else answer)
