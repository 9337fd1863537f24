"""The REST API's blueprints registered with the app (``init_app``): flask-smorest's Api
answering every error as application/problem+json, the OpenAPI document at
/api/v1/openapi.json, Swagger UI at /api/v1/docs, and the problem types' documentation.

Not in the package's ``__init__``: the blueprints' modules import their siblings from the
package (``from server.api import auth``), so the package itself imports none of them
(tests/server/test_import_graph.py)."""

from __future__ import annotations

import http

from engine.core import OptionsError
from flask import Flask
from flask_smorest import Api as SmorestApi
from flask_smorest import Blueprint
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from server import __version__
from server.api import (auth, chat, games, orders, problems, rematch, schedule, schemas,
                        standing_orders, users)
from server.api import notes, your_data
from server.api import absences
from server.problem_json import MEDIA_TYPE
from server.services.games import GameNotFound, StaleStep
from server.services.lobby import LobbyError

DEFAULTS = {
    "API_TITLE": "Whistlestop",
    "API_VERSION": __version__,
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": problems.PREFIX,
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    # Swagger UI's files from the pinned swagger-ui-bundle package, served here (docs_assets).
    "OPENAPI_SWAGGER_UI_URL": problems.PREFIX + "/docs/static/",
}


class Api(SmorestApi):
    """flask-smorest's Api answering problem+json under /api/ and documenting it so."""

    ERROR_SCHEMA = schemas.ProblemSchema

    def handle_http_exception(self, error: HTTPException):
        if not problems.is_api_request():
            return error  # other pages (/healthz, /metrics, the web UI) keep Flask's answer
        return problems.from_http_exception(error).response()

    def _register_responses(self):
        """flask-smorest's shared responses, documented as application/problem+json."""
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, MEDIA_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, MEDIA_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


docs = Blueprint("problems", __name__, url_prefix=problems.PREFIX + "/problems",
                 description="What each problem type means.")


@docs.route("", methods=["GET"])
@docs.response(200, schemas.ProblemTypeSchema(many=True))
@docs.doc(security=auth.NO_AUTH)
def problem_types():
    """Every problem type the API answers."""
    return [_type(slug) for slug in problems.TYPES]


@docs.route("/<slug>", methods=["GET"])
@docs.response(200, schemas.ProblemTypeSchema)
@docs.alt_response(404, response="NOT_FOUND")
@docs.doc(security=auth.NO_AUTH)
def problem_type(slug):
    """The documentation of one problem type (the URL in a problem's `type`)."""
    if slug not in problems.TYPES:
        raise problems.Problem(None, f"There is no problem type '{slug}'.", status=404)
    return _type(slug)


def _type(slug: str) -> dict:
    status, title, description = problems.TYPES[slug]
    return {"type": problems.type_url(slug), "status": status, "title": title,
            "description": description}


# Service refusals raised in the API's views, as problems.
def _lobby(exc: LobbyError):
    return games.lobby_problem(exc).response()


def _options(exc: OptionsError):
    return problems.Problem("invalid-options", str(exc)).response()


def _stale(exc: StaleStep):
    return problems.Problem("stale-step", str(exc), current_step=exc.step).response()


def _not_found(_exc: GameNotFound):
    return problems.not_found().response()


BLUEPRINTS = (users.blp, games.blp, orders.blp, standing_orders.blp, notes.blp, your_data.blp,
              schedule.blp, rematch.blp, chat.blp, absences.blp, docs)
for _blp in BLUEPRINTS:  # once, at import: a blueprint is set up before its first registration
    _blp.register_error_handler(problems.Problem, lambda exc: exc.response())
    _blp.register_error_handler(LobbyError, _lobby)
    _blp.register_error_handler(OptionsError, _options)
    _blp.register_error_handler(StaleStep, _stale)
    _blp.register_error_handler(GameNotFound, _not_found)
    _blp.after_request(auth.record_use)


def init_app(app: Flask) -> Api:
    """Register the API (and its OpenAPI document) with the app."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    api = Api(app, spec_kwargs={"security": auth.BEARER})
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer",
                       "description": "An API token from POST /users or POST /me/tokens"})
    from server.parsing import IdConverter, id_schema
    api.register_converter(IdConverter, id_schema)  # ids in paths: 1 to the database's largest
    api.spec.components.schema("Order", schemas.ORDER_ONE_OF, schema=schemas.OrderSchema)
    # A safety net: a Problem raised outside the API's views (their blueprints answer their own).
    app.register_error_handler(problems.Problem, lambda exc: exc.response())
    for blp in BLUEPRINTS:
        api.register_blueprint(blp)
    from server.api import docs_assets
    app.register_blueprint(docs_assets.bp)
    return api
