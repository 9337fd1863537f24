"""What a request may carry, checked before any view reads it: its size (MAX_CONTENT_LENGTH,
from WHISTLESTOP_REQUEST_MAX_BYTES; an endpoint may take more: ``allow``, the inbound mail hook
its INBOUND_MAIL_MAX_BYTES), a chunked body's too, and JSON that Python
can read and the database can store: nested at most MAX_JSON_DEPTH deep (deeper JSON made the
parser recurse until it failed), UTF-8, and without lone surrogates ("\\ud800" parses to a
string no database encoding takes). Each is a 400 or 413 with the reason, never a 5xx.

The checks cost nothing on ordinary bodies: the depth is scanned only when the body has more
brackets than the limit, the surrogates only when it has a \\u escape.
"""

from __future__ import annotations

import json

from flask import Flask, abort, current_app, request

MAX_JSON_DEPTH = 32


def init_app(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = int(app.config["REQUEST_MAX_BYTES"])
    app.extensions["whistlestop.request_limits"] = {}
    app.before_request(_check)


def allow(app: Flask, endpoint: str, setting: str) -> None:
    """Let ``endpoint`` take bodies up to the config value ``setting`` (bytes) instead."""
    app.extensions["whistlestop.request_limits"][endpoint] = setting


def limit() -> int:
    """The largest body the current request's endpoint takes."""
    setting = current_app.extensions["whistlestop.request_limits"].get(request.endpoint)
    return int(current_app.config[setting] if setting else current_app.config["MAX_CONTENT_LENGTH"])


def _check():
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    most = limit()
    # One byte more than the limit may be read: werkzeug stops a chunked body at the limit
    # without a word, so a body that reaches limit + 1 is known to be too large.
    request.max_content_length = most + 1
    if request.content_length is not None:
        if request.content_length > most:
            abort(413, description=f"The request is larger than this server takes ({most} "
                                   f"bytes).")
    elif "wsgi.input_terminated" in request.environ:     # chunked: read it (kept for the view)
        if len(request.get_data(cache=True)) > most:
            abort(413, description=f"The request is larger than this server takes ({most} "
                                   f"bytes).")
    if request.is_json:
        why = json_problem(request.get_data(cache=True))
        if why:
            abort(400, description=why)
    return None


def json_problem(body: bytes) -> str | None:
    """Why ``body`` cannot be taken as JSON here, or None (invalid JSON is left to the view's
    parser, which names the error)."""
    if not body:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "The body is not UTF-8 text."
    if body.count(b"[") + body.count(b"{") > MAX_JSON_DEPTH and \
            depth(text) > MAX_JSON_DEPTH:
        return f"The JSON is nested more than {MAX_JSON_DEPTH} levels deep."
    if "\\u" in text or "\\U" in text:
        try:
            value = json.loads(text)
        except ValueError:
            return None
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return "The JSON has a lone surrogate (\\ud800-\\udfff without its pair): " \
                   "it is not text."
    return None


def depth(text: str) -> int:
    """How deep JSON ``text`` nests arrays and objects (brackets inside strings ignored)."""
    deepest = level = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            level += 1
            deepest = max(deepest, level)
        elif c in "]}":
            level -= 1
    return deepest
