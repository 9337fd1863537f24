"""The reverse proxies in front of gunicorn (WHISTLESTOP_TRUSTED_PROXY_HOPS): werkzeug's
ProxyFix takes the client's address, scheme and host from the X-Forwarded-For, -Proto and -Host
that those proxies wrote (the outermost one's: the client as it reached the server), so that
the per-client limits (server/rate_limits.py ``client``, the live streams' caps) count the
client and not the proxy.

Each proxy appends the address it saw to X-Forwarded-For, and ProxyFix counts from the right:
whatever a client wrote into the header itself is never read. With 0 (the default: gunicorn
faces the clients) the headers are ignored.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app: Flask) -> None:
    hops = int(app.config.get("TRUSTED_PROXY_HOPS", 0))
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
