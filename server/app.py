"""Flask application factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from flask import Flask, jsonify
from sqlalchemy.exc import SQLAlchemyError

from server import __version__, config, db
from server.flask_app import WhistlestopApp


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Return a configured Flask app; test_config overrides the environment."""
    app = WhistlestopApp(__name__)
    app.config.from_mapping(config.from_env())
    if test_config:
        app.config.from_mapping(test_config)
    config.check(app.config)  # no default secret key on a server others can reach
    Path(app.config["VAR_DIR"]).mkdir(parents=True, exist_ok=True)

    from server.parsing import IdConverter
    app.url_map.converters["int"] = IdConverter  # ids: ASCII digits within the database's range
    db.init_app(app)
    from server import request_limits; request_limits.init_app(app)  # noqa: E702  sizes, JSON
    from server import security_headers; security_headers.init_app(app)  # noqa: E702  framing...
    from server import trusted_proxies; trusted_proxies.init_app(app)  # noqa: E702  X-Forwarded-*
    from server import rate_limits; rate_limits.init_app(app)  # noqa: E702  mail, accounts, games
    from server.api import blueprints; blueprints.init_app(app)  # noqa: E702  /api/v1 (OpenAPI)
    from server import metrics; metrics.init_app(app)  # noqa: E702  GET /metrics
    from server import web; web.init_app(app)  # noqa: E702  pages: decision links, /mail

    @app.get("/healthz")
    def healthz():
        # Checks the database too: a web process that cannot reach it is not healthy.
        try:
            db.ping(db.get_engine())
        except SQLAlchemyError as exc:
            return jsonify(status="error", version=__version__, database=str(exc)), 503
        return jsonify(status="ok", version=__version__, database="ok")

    return app
