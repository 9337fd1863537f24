"""Bearer-token authentication: `Authorization: Bearer <token>`, hashed at rest."""

from __future__ import annotations

import logging
from functools import wraps

from flask import g, request
from sqlalchemy.exc import SQLAlchemyError

from server import db
from server.api.problems import Problem
from server.services import users

log = logging.getLogger("whistlestop.api")

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
REALM = 'Bearer realm="whistlestop"'

# OpenAPI security requirements: the default (a token), none, and a token or none.
BEARER = [{"bearerAuth": []}]
NO_AUTH: list = []
OPTIONAL_AUTH = [{}, {"bearerAuth": []}]


def _token() -> str | None:
    """The bearer token of the request; None without an Authorization header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("The Authorization header must be 'Bearer <token>'.",
                            invalid=True)
    return token.strip()


def _unauthorized(detail: str, invalid: bool = False) -> Problem:
    challenge = REALM + (', error="invalid_token"' if invalid else "")
    return Problem("unauthorized", detail, headers={"WWW-Authenticate": challenge})


def current_user(required: bool = True) -> users.Caller | None:
    """The caller (``users.Caller``: the account's columns, read-only), or None for an
    anonymous caller when not ``required``.

    A bad token is refused even where a token is optional.
    """
    if "user" in g:
        return g.user
    token = _token()
    if token is None:
        if required:
            raise _unauthorized("This needs an API token: send 'Authorization: Bearer <token>'. "
                                "POST /api/v1/users mails a link to your address that leads "
                                "to one.")
        g.user = None
        return None
    # No write lock needed to read a token; an order goes on reading in this transaction.
    user, last_used = users.token_owner(db.request_session(), token)
    if user is None:
        raise _unauthorized("The API token is not valid (unknown or revoked).", invalid=True)
    g.user, g.token, g.token_last_used = user, token, last_used
    return user


def current_token() -> str:
    """The token of the request (after ``current_user``)."""
    return g.token


def record_use(response):
    """After a successful write, record that its token was used (a GET never writes, and a
    refused request changes nothing, not even this).

    The request's own change is committed by now: if this record cannot be written (the
    database busy past its timeout), the answer still says what was done, and the use is
    recorded by the token's next write."""
    token = g.get("token")
    if (token and request.method not in SAFE_METHODS and 200 <= response.status_code < 300
            and users.use_is_stale(g.get("token_last_used"))):
        try:
            with db.get_engine().begin() as connection:  # its own short transaction
                users.token_used(connection, token)
        except SQLAlchemyError as exc:
            log.warning("could not record the use of a token: %s", exc)
    return response


def required(view):
    """Authenticate before anything else (before the body is even validated): 401 first."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        current_user(required=True)
        return view(*args, **kwargs)
    return wrapper


def optional(view):
    """Authenticate if a token is sent (a bad one is still refused); anonymous otherwise."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        current_user(required=False)
        return view(*args, **kwargs)
    return wrapper
