"""Headers every response carries, so that a browser keeps the pages to themselves:

- a nonce-based ``Content-Security-Policy``: only the scripts the server wrote into the page
  run, each ``<script nonce="{{ csp_nonce() }}">`` with this answer's own random nonce (so a
  script that got into a page some other way, through a bug in escaping, does not); no
  ``<object>``/plugins, no ``<base>`` (which would send the page's relative addresses
  elsewhere), forms only to this server; everything else from this server only, but the live
  news stream (``connect-src``: the `live` process, server/web/live.py) and the styles the
  templates write inline (``style-src 'unsafe-inline'``: styles run no code). An answer that
  wrote no nonce (the API, an error) allows no script at all;
- no framing by other sites (``X-Frame-Options: SAMEORIGIN`` and CSP ``frame-ancestors
  'self'``): a page of this server inside another site's frame could be clicked through
  (clickjacking a decision's "Commit" button); the local mail page frames its own mails;
- ``Cache-Control: no-store`` on every answer the app makes, unless it says itself how it may
  be kept (the files served as they are, Swagger UI's: ``public, max-age``): nearly every
  answer depends on who asks (a token, a session, a signed link's token in the address), and
  a shared cache, or the browser's disk on a shared computer, must keep none of them;
- ``Referrer-Policy: same-origin``: a page opened by a signed link (a decision, a sign-in)
  never hands its address, which holds the token, to another site;
- ``X-Content-Type-Options: nosniff``: a mail's HTML or a JSON answer is never run as
  something else.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g

FRAME_ANCESTORS = "frame-ancestors 'self'"
_NONCE = "whistlestop_csp_nonce"


def init_app(app: Flask) -> None:
    app.after_request(_harden)
    app.jinja_env.globals["csp_nonce"] = csp_nonce  # Flask's own templates (the API docs)


def csp_nonce() -> str:
    """This answer's script nonce (128 random bits), made when a page first asks for it."""
    nonce = g.get(_NONCE)
    if nonce is None:
        nonce = secrets.token_urlsafe(16)
        setattr(g, _NONCE, nonce)
    return nonce


# Set on every response unless the view set its own.
_DEFAULTS = (("X-Frame-Options", "SAMEORIGIN"), ("Referrer-Policy", "same-origin"),
             ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store"))


def policy(nonce: str | None, live_origin: str = "") -> str:
    """The Content-Security-Policy of an answer whose scripts carry ``nonce`` (None: none)."""
    scripts = f"'nonce-{nonce}'" if nonce else "'none'"
    connect = f"'self' {live_origin}" if live_origin else "'self'"
    return ("default-src 'self'; "
            f"script-src {scripts}; "
            "style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; "
            f"connect-src {connect}; "
            "object-src 'none'; "
            "base-uri 'none'; "
            "form-action 'self'; "
            f"{FRAME_ANCESTORS}")


_live_origins: dict[tuple, str] = {}


def live_origin() -> str:
    """The origin of the `live` process the game pages open their news stream on, if it is
    not the pages' own (the same rule as server/web/live.py's ``stream_url``)."""
    config = current_app.config
    key = (config.get("LIVE_URL") or "", config["BASE_URL"], config.get("LIVE_PORT", 5001))
    found = _live_origins.get(key)
    if found is None:
        live_url, base, port = key
        if live_url == "same-origin":
            found = ""
        elif live_url:
            parts = urlsplit(live_url)
            found = f"{parts.scheme}://{parts.netloc}"
        else:
            parts = urlsplit(base)
            found = f"{parts.scheme}://{parts.hostname}:{port}"
        _live_origins[key] = found
    return found


_NO_SCRIPT = policy(None)


def _harden(response: Response) -> Response:
    headers = response.headers
    present = {key.lower() for key in headers.keys()}  # one pass over the headers
    if "content-security-policy" not in present:
        nonce = g.get(_NONCE)
        headers.add("Content-Security-Policy",
                    policy(nonce, live_origin()) if nonce else _NO_SCRIPT)
    else:
        own = headers["Content-Security-Policy"]
        if "frame-ancestors" not in own:
            headers["Content-Security-Policy"] = f"{own}; {FRAME_ANCESTORS}"
    for key, value in _DEFAULTS:
        if key.lower() not in present:
            headers.add(key, value)
    return response
