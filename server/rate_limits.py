"""Rate limits on what costs others something: mail sent to an address, accounts, games, and
the workers' time. Counted by the ``limits`` library (the one behind Flask-Limiter) in a moving
window, in WHISTLESTOP_RATELIMIT_STORAGE_URI: ``database://`` by default, the server's own
database (server/rate_limit_store.py), or ``redis://...``: either way every web and worker
process shares one count (``memory://`` counts in each process, for nothing but a test).

Each limit is a config value (WHISTLESTOP_RATE_<NAME>, in the limits notation: "5/hour");
``hit`` counts one and raises ``TooMany`` (with the seconds until it may be tried again) when
the limit is reached, and nothing is done. The concurrent all-bot games are counted in the
database (``ALL_BOT_GAMES``), not here: a game that ends gives its place back.
"""

from __future__ import annotations

import ipaddress
import time

from flask import Flask, current_app, has_app_context, request
from limits import parse, storage, strategies

# name: (config key, default)
LIMITS = {
    "sign_in_address": ("RATE_SIGN_IN_PER_ADDRESS", "5/hour"),   # sign-in mails to an address
    "sign_in_client": ("RATE_SIGN_IN_PER_CLIENT", "30/hour"),     # ... asked by one client
    "sign_up_client": ("RATE_SIGN_UP_PER_CLIENT", "10/hour"),     # API sign-ups by one client
    "games_user": ("RATE_GAMES_PER_USER", "50/day"),              # games a user creates
    "invitations_user": ("RATE_INVITATIONS_PER_USER", "100/day"),  # addresses a user invites
    "inbound_sender": ("RATE_INBOUND_PER_SENDER", "120/hour"),    # mails handled per sender
}
_KEY = "whistlestop.rate_limits"


class TooMany(Exception):
    """A limit is reached; ``retry_after``: seconds until one more may be tried."""

    def __init__(self, name: str, retry_after: int):
        super().__init__(name)
        self.name, self.retry_after = name, max(1, retry_after)


def client() -> str:
    """The client a per-client limit counts: the request's peer, or behind
    TRUSTED_PROXY_HOPS reverse proxies the client the outermost one saw
    (server/trusted_proxies.py); an IPv6 client by its /64, the block one subscriber is given
    (counted by address, it would never run out)."""
    address = request.remote_addr or ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def defaults() -> dict:
    return {key: default for key, default in LIMITS.values()}


def init_app(app: Flask) -> None:
    """The app's limiter, on the store WHISTLESTOP_RATELIMIT_STORAGE_URI names: ``database://``
    (the default: server/rate_limit_store.py), ``redis://...``, or ``memory://`` (this
    process only)."""
    from server import rate_limit_store

    uri = app.config["RATELIMIT_STORAGE_URI"]
    options = {}
    if uri.split(":", 1)[0] == rate_limit_store.SCHEME:
        if rate_limit_store.in_memory(app.config["DATABASE_URL"]):
            uri = "memory://"  # nothing another process could share
        else:
            options["engine"] = app.extensions["whistlestop.db"]
    app.extensions[_KEY] = strategies.MovingWindowRateLimiter(
        storage.storage_from_string(uri, **options))


def hit(name: str, *key, cost: int = 1) -> None:
    """Count ``cost`` against the limit ``name`` for ``key``; raise TooMany when it is over.
    Outside an app (the operator's commands, which the limits are not for) nothing is
    counted."""
    if not has_app_context() or _KEY not in current_app.extensions:
        return
    limiter = current_app.extensions[_KEY]
    item = parse(str(current_app.config[LIMITS[name][0]]))
    if not limiter.hit(item, name, *map(str, key), cost=cost):
        reset = limiter.get_window_stats(item, name, *map(str, key)).reset_time
        raise TooMany(name, int(reset - time.time()) + 1)
