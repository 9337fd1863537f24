"""The Flask application class and its cookie session: Flask's own, doing less per request.

Measured on the order path (bench/order_throughput.py), each of these was about a hundredth of
an order's CPU, spent on every request whatever it asked.
"""

from __future__ import annotations

import types
from inspect import iscoroutinefunction

from flask import Flask
from flask.sessions import SecureCookieSessionInterface


class CookieSession(SecureCookieSessionInterface):
    """Flask's signed-cookie session. A request without the session cookie (every API call,
    a first visit) gets an empty session without the cookie signer being built for it: that
    is what Flask's own interface returns then, after building it."""

    def open_session(self, app, request):
        if app.secret_key and self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)


class WhistlestopApp(Flask):
    """Flask, remembering which functions are plain ones: Flask asks it of every hook and view
    on every request (``ensure_sync``), and ``inspect`` answers it by unwrapping each again.
    Only module-level functions are remembered (they live as long as the app); anything else is
    asked as Flask asks it."""

    session_interface = CookieSession()

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
