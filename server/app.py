"""Flask application factory."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, current_app, jsonify
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from server import __version__, config, db
from server.flask_app import WhistlestopApp

# Flask's own templates (flask-smorest's API docs page), replaced by ours that carry the CSP nonce
API_TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "api"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Return a configured Flask app; test_config overrides the environment."""
    app = WhistlestopApp(__name__, template_folder=str(API_TEMPLATES))
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

    from server import locked_database; locked_database.init_app(app)  # noqa: E702  503s

    @app.get("/healthz")
    def healthz():
        """Whether this process can serve: the database answers a read (never the write lock)
        and its disk has room. Public: it names no error, path or setting."""
        database = "ok" if _database_answers() else "error"
        disk = "ok" if _disk_has_room() else "low"
        ok = database == "ok" and disk == "ok"
        return jsonify(status="ok" if ok else "error", version=__version__, database=database,
                       disk=disk), 200 if ok else 503

    return app


def _database_answers() -> bool:
    try:
        db.ping(db.get_engine())
    except (SQLAlchemyError, sqlite3.Error):
        current_app.logger.warning("/healthz: the database does not answer", exc_info=True)
        return False
    return True


def _disk_has_room() -> bool:
    """At least DISK_MIN_FREE_MB free on the disks of VAR_DIR and of a SQLite database."""
    folders = [Path(current_app.config["VAR_DIR"])]
    url = make_url(current_app.config["DATABASE_URL"])
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        folders.append(Path(url.database).parent)
    least = current_app.config.get("DISK_MIN_FREE_MB", 100) * 1024 * 1024
    try:
        return all(shutil.disk_usage(folder).free >= least for folder in folders)
    except OSError:
        return False
