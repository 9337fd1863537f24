"""The Flask application class, its cookie session and its JSON: Flask's own, doing less per
request.

Measured on the order path (bench/order_throughput.py), each of these was about a hundredth of
an order's CPU, spent on every request whatever it asked.
"""

from __future__ import annotations

import types
from inspect import iscoroutinefunction

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface


class CookieSession(SecureCookieSessionInterface):
    """Flask's signed-cookie session. A request without the session cookie (every API call,
    a first visit) gets an empty session without the cookie signer being built for it: that
    is what Flask's own interface returns then, after building it."""

    def open_session(self, app, request):
        if app.secret_key and self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app, session, response):
        """Flask's, but an empty session nobody emptied (every API call) returns before the
        cookie's seven settings are read, which is all Flask's does then besides the Vary."""
        if not session and not session.modified:
            if session.accessed:
                response.vary.add("Cookie")
            return None
        return super().save_session(app, session, response)


class JSON(DefaultJSONProvider):
    """Flask's JSON, written and read by orjson: the same JSON (keys sorted, compact out of
    debug mode; dates, decimals, UUIDs, dataclasses and ``__html__`` by Flask's own ``default``)
    but for text outside ASCII, which is written as UTF-8 rather than as \\u escapes. Every API
    answer is written through it, and the standard library's encoder was a fiftieth of an
    order's CPU (bench/order_throughput.py). What orjson cannot write (an integer beyond 64
    bits) and calls with the standard library's own arguments go to Flask's provider."""

    OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
               | orjson.OPT_PASSTHROUGH_DATACLASS)

    def _orjson(self, obj, indent: bool) -> bytes:
        option = self.OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0) | \
            (orjson.OPT_INDENT_2 if indent else 0)
        return orjson.dumps(obj, default=self.default, option=option)

    def dumps(self, obj, **kwargs) -> str:
        if kwargs:
            return super().dumps(obj, **kwargs)
        try:
            return self._orjson(obj, indent=False).decode()
        except orjson.JSONEncodeError:
            return super().dumps(obj, separators=(",", ":"))

    def loads(self, s, **kwargs):
        if kwargs:
            return super().loads(s, **kwargs)
        try:
            return orjson.loads(s)
        except orjson.JSONDecodeError:
            return super().loads(s)  # raises the standard library's error, with its words

    def response(self, *args, **kwargs):
        obj = self._prepare_response_obj(args, kwargs)
        indent = (self.compact is None and self._app.debug) or self.compact is False
        try:
            body = self._orjson(obj, indent) + b"\n"
        except orjson.JSONEncodeError:
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)


class WhistlestopApp(Flask):
    """Flask, remembering which functions are plain ones: Flask asks it of every hook and view
    on every request (``ensure_sync``), and ``inspect`` answers it by unwrapping each again.
    Only module-level functions are remembered (they live as long as the app); anything else is
    asked as Flask asks it."""

    session_interface = CookieSession()
    json_provider_class = JSON

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._plain_functions: dict = {}

    def ensure_sync(self, func):
        if type(func) is types.FunctionType:
            plain = self._plain_functions.get(func)
            if plain is None:
                plain = self._plain_functions[func] = not iscoroutinefunction(func)
            return func if plain else self.async_to_sync(func)
        return super().ensure_sync(func)
