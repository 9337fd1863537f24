"""The `web` process's access log without its secrets: a sign-in, decision, settings, calendar or
seat link's token and an invitation or rematch code are written as MARK (issue 48).

gunicorn's own line would hold them three times over: in the request line, in the path and
query atoms, and in the Referer of every request a token's page makes. A URL variable named in
SECRET_ARGS and a query value named in SECRET_QUERY are secrets; ``next`` (where sign-in goes
afterwards) is one of our paths and is read the same way. A path no route matches keeps its
short segments only: anything long enough to be a token is masked."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from gunicorn.glogging import Logger
from werkzeug.exceptions import HTTPException

MARK = "[redacted]"
SECRET_ARGS = frozenset({"token", "code"})  # the routes' variables that are secrets
SECRET_QUERY = frozenset({"t", "token", "code"})  # ?t= (rematch), ?code= (join)
NESTED_QUERY = frozenset({"next"})  # our own paths, with their secrets
# A segment of a path no route matches that could be a token: long, of a token's characters,
# with a digit (itsdangerous tokens and token_urlsafe codes are 20 characters and more).
_TOKEN_LIKE = re.compile(r"(?=[^/]*\d)[A-Za-z0-9_\-.=]{16,}")
_PATH_SAFE = "/:@!$&'()*+,;=-._~"


def redact_target(target: str, url_map=None, method: str = "GET") -> str:
    """The path and query ``target`` ("/sign-in/abc?next=/x") with its secrets as MARK."""
    path, _, query = target.partition("?")
    return redact_path(path, url_map, method) + ("?" + redact_query(query, url_map)
                                                 if query else "")


def redact_path(raw_path: str, url_map=None, method: str = "GET") -> str:
    """The raw (percent-encoded) path with the secrets of the route it matches as MARK."""
    path = unquote(raw_path)
    shown = quote(path, safe=_PATH_SAFE)  # a %0A never reaches the log as a line break
    secrets = _secrets(path, url_map, method)
    if secrets is None:
        return _TOKEN_LIKE.sub(MARK, shown)
    for value in secrets:
        head, found, tail = shown.rpartition(quote(value, safe=_PATH_SAFE))
        if found:
            shown = head + MARK + tail
    return shown


def redact_query(query: str, url_map=None) -> str:
    """The raw query string with SECRET_QUERY values as MARK (unchanged when none is there)."""
    pairs = parse_qsl(query, keep_blank_values=True)
    if not any(k in SECRET_QUERY or k in NESTED_QUERY for k, _ in pairs):
        return quote(unquote(query), safe="=&/:@!$'()*+,;-._~%")
    shown = [(k, MARK if k in SECRET_QUERY and v else
              redact_target(v, url_map) if k in NESTED_QUERY else v) for k, v in pairs]
    return urlencode(shown, safe="/[]")


def redact_referer(referer: str, url_map=None) -> str:
    """The Referer URL with its path's and query's secrets as MARK."""
    if not referer or referer == "-":
        return referer
    parts = urlsplit(referer)
    return urlunsplit((parts.scheme, parts.netloc, redact_path(parts.path, url_map),
                       redact_query(parts.query, url_map) if parts.query else "", ""))


def _secrets(path: str, url_map, method: str) -> list[str] | None:
    """The values of the secret variables of the route ``path`` matches, or None when no
    route matches (or no map is known)."""
    if url_map is None:
        return None
    adapter = url_map.bind("localhost")
    for tried in (method, "GET"):
        try:
            rule, args = adapter.match(path, method=tried, return_rule=True)
        except HTTPException:  # NotFound, MethodNotAllowed, RequestRedirect
            continue
        return [str(args[name]) for name in rule.arguments & SECRET_ARGS if args.get(name)]
    return None


class AccessLogger(Logger):
    """gunicorn's logger, writing the request line, path, query and Referer without secrets.
    ``url_map``: the app's routes, given in post_worker_init (server/gunicorn_conf.py)."""

    url_map = None

    def atoms(self, resp, req, environ, request_time):
        method = environ.get("REQUEST_METHOD", "GET")
        try:
            raw_uri = redact_target(environ.get("RAW_URI") or environ.get("PATH_INFO", "/"),
                                    self.url_map, method)
            referer = redact_referer(environ.get("HTTP_REFERER", "-"), self.url_map)
        except Exception:  # a request no reading foresaw: its line names no part of it
            raw_uri, referer = MARK, MARK
        path, _, query = raw_uri.partition("?")
        safe_environ = {**environ, "RAW_URI": raw_uri, "REQUEST_URI": raw_uri,
                        "PATH_INFO": path, "QUERY_STRING": query, "HTTP_REFERER": referer}
        headers = getattr(req, "headers", req) or []
        if hasattr(headers, "items"):
            headers = headers.items()
        safe_headers = [(k, referer if k.lower() == "referer" else v) for k, v in headers]
        return super().atoms(resp, safe_headers, safe_environ, request_time)
