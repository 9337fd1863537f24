"""The page that answers a request which found the database locked (server/locked_database.py):
short, in the reader's language, and made without reading the database."""

from __future__ import annotations

from flask import Response, g, request

from server import i18n
from server.web.pages import environment


def page(retry_after: int) -> Response:
    """The 503 page, with Retry-After."""
    locale = _locale()
    html = environment(locale).get_template("busy.html").render(locale=locale,
                                                                 seconds=retry_after)
    return Response(html, status=503, mimetype="text/html",
                    headers={"Retry-After": str(retry_after)})


def _locale() -> str:
    """The page's language (server/web/words.py's ``locale``) from what the request already
    knows: the reader only if loaded before the lock was met, else the browser's."""
    if g.get("page_locale"):
        return g.page_locale
    user = g.get("_login_user")  # Flask-Login's, once this request loaded it
    if user is not None and getattr(user, "is_authenticated", False):
        return i18n.supported(user.locale)
    return request.accept_languages.best_match(i18n.LOCALES) or "en"
