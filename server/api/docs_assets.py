"""Swagger UI's files for the interactive API docs (/api/v1/docs), served by this server from
the pinned swagger-ui-bundle package: the docs page loads no script from another site, so no
third party can change what runs on it. tests/security/test_browser_hardening.py fails when the
package's layout changes."""

from __future__ import annotations

from flask import Blueprint, abort, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from server.api.problems import PREFIX

bp = Blueprint("docs_assets", __name__)

# The files flask-smorest's Swagger UI page asks for (and nothing else of the package's folder).
FILES = ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
         "favicon-16x16.png", "favicon-32x32.png")


@bp.get(PREFIX + "/docs/static/<name>")
def asset(name: str):
    if name not in FILES:
        abort(404)
    return send_from_directory(str(swagger_ui_path), name, max_age=86400)
