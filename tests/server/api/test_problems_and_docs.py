"""Every error is application/problem+json; the OpenAPI document and its UI; GETs never write."""

from __future__ import annotations

import sqlite3

from sqlalchemy import update
from sqlmodel import select

from server.models import Game
from tests.server.api.helpers import API, is_problem


def test_unknown_route_and_method_are_problems(client):
    body = is_problem(client.get("/nothing-here"), 404)
    assert body["type"] == "about:blank" and body["title"] == "Not Found"
    r = client.tc.delete(API + "/me")
    body = is_problem(r, 405)
    assert body["title"] == "Method Not Allowed"
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}
    is_problem(client.tc.put(API + "/games/1/orders", json={}), 405)


def test_pages_outside_the_api_keep_flasks_answers(client):
    r = client.tc.get("/no-such-page")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert client.tc.get("/healthz").get_json()["status"] == "ok"


def test_a_body_that_is_not_json_is_a_problem(client):
    ann = client.signup("ann@example.org")
    r = client.tc.post(API + "/games", data="{not json",
                       headers={**ann.auth, "Content-Type": "application/json"})
    body = is_problem(r, 400)
    assert "Invalid JSON body" in body["detail"]


def test_a_crash_is_a_500_problem_without_a_traceback(client, store):
    ann, bob = client.signup("ann@example.org"), client.signup("bob@example.org")
    gid = client.two_player_game(store, ann, bob)
    with store.session() as s:  # a corrupt cache: the engine cannot load it
        s.execute(update(Game).where(Game.id == gid).values(state={"game": "tmotp"}))
        s.commit()
    r = client.get(f"/games/{gid}", ann)
    body = is_problem(r, 500)
    assert body == {"type": "about:blank", "title": "Internal Server Error", "status": 500,
                    "detail": "The server could not answer this request; the error has been "
                              "logged."}
    assert "KeyError" not in r.get_data(as_text=True)


def test_problem_types_are_documented_at_their_urls(client):
    r = client.get("/problems")
    assert r.status_code == 200
    slugs = {p["type"].rsplit("/", 1)[1]: p for p in r.get_json()}
    assert {"stale-step", "illegal-action", "not-found", "idempotency-key-reused"} <= set(slugs)
    one = client.get("/problems/stale-step").get_json()
    assert one["status"] == 409 and one["title"] == "Stale step" and one["description"]
    assert one["type"] == "http://localhost/api/v1/problems/stale-step"
    is_problem(client.get("/problems/no-such-type"), 404)


def test_openapi_document_and_swagger_ui(client):
    r = client.get("/openapi.json")
    assert r.status_code == 200
    spec = r.get_json()
    assert spec["openapi"].startswith("3.") and spec["info"]["title"] == "Whistlestop"
    assert {"/api/v1/users", "/api/v1/me", "/api/v1/me/tokens", "/api/v1/games",
            "/api/v1/games/public", "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/join",
            "/api/v1/games/{game_id}/start", "/api/v1/games/{game_id}/decision",
            "/api/v1/games/{game_id}/orders", "/api/v1/games/{game_id}/log",
            "/api/v1/games/{game_id}/resign",
            "/api/v1/games/{game_id}/spectate"} <= set(spec["paths"])
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert spec["security"] == [{"bearerAuth": []}]
    assert spec["paths"]["/api/v1/users"]["post"]["security"] == []
    orders = spec["paths"]["/api/v1/games/{game_id}/orders"]["post"]
    assert {"200", "202", "401", "403", "404", "409", "422"} <= set(orders["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in orders["parameters"])
    # An order names exactly one of action and actions: the document says so too.
    assert spec["components"]["schemas"]["Order"]["oneOf"] == [{"required": ["actions"]},
                                                               {"required": ["action"]}]
    conflict = spec["components"]["responses"]["CONFLICT"]["content"]
    assert list(conflict) == ["application/problem+json"]
    r = client.get("/docs")
    assert r.status_code == 200 and "swagger-ui" in r.get_data(as_text=True)
    assert "/api/v1/openapi.json" in r.get_data(as_text=True)


def _dump(url: str) -> list[str]:
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


def test_a_get_never_writes_anything(client, store, api_db_url):
    ann, bob = client.signup("ann@example.org"), client.signup("bob@example.org")
    gid = client.two_player_game(store, ann, bob, public=True)
    viewer = client.signup("vi@example.org")
    before = _dump(api_db_url)
    for player in (ann, bob, viewer, None):
        for path in ("/me", "/games", "/games/public", f"/games/{gid}", f"/games/{gid}/decision",
                     f"/games/{gid}/log", "/games?status=active", "/openapi.json", "/docs",
                     "/problems"):
            assert client.get(path, player).status_code in (200, 401, 403)
    assert _dump(api_db_url) == before
    with store.session() as s:
        assert s.exec(select(Game.step).where(Game.id == gid)).one() == 1
