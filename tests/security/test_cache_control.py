"""Private answers kept by a cache (issue 45, L9), each test written as the attack: a shared
cache (a company proxy, a CDN in front of the server) or the browser's disk cache keeps an
answer that depends on who asked and hands it to the next reader, or leaves it on a shared
computer: the API's answers with a token (the account, its new API token, a game's hand, the
data export) carried no Cache-Control at all. Every answer the app makes is ``no-store`` unless
it says itself how it may be kept: only the files served as they are (Swagger UI's) are."""
from __future__ import annotations

import pytest

from tests.web.pages_helpers import Reader, path_of, sign_in_link

API = "/api/v1"


def no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


@pytest.mark.parametrize("path", ["/me", "/users/me/tokens", "/users/me/export", "/games",
                                  "/games/999999"])
def test_the_api_answers_with_a_token_are_never_kept_by_a_cache(client, players, path):
    r = client.get(path, players["kennedy"])
    assert r.status_code in (200, 404), r.data[:300]
    assert no_store(r), (path, r.headers.get("Cache-Control"))


def test_a_new_api_token_is_never_kept_by_a_cache(client, players):
    r = client.post("/users/me/tokens", players["kennedy"], json={})
    assert r.status_code == 201 and r.get_json()["token"]
    assert no_store(r)


def test_a_game_with_its_hand_is_never_kept_by_a_cache(client, players):
    r = client.post("/games", players["kennedy"], json={
        "game_type": "tmotp", "seats": {"kennedy": players["kennedy"].email,
                                        "nixon": players["nixon"].email}})
    assert r.status_code == 201, r.data[:300]
    assert no_store(r)
    gid = r.get_json()["game"]["id"]
    for player in players.values():
        assert no_store(client.get(f"/games/{gid}", player))


def test_a_refusal_to_a_caller_without_a_token_is_never_kept(client):
    r = client.get("/me")
    assert r.status_code == 401 and no_store(r)


def test_the_private_pages_are_never_kept_by_a_cache(app, smtp_catcher):
    jack = Reader(app, smtp_catcher, "jack@example.org")
    for path in ("/sign-in", "/"):
        assert no_store(jack.get(path)), path
    before = len(smtp_catcher.to(jack.email))
    jack.post_form("/sign-in", "/sign-in", {"email": jack.email, "next": "/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to(jack.email, before + 1)[-1]))
    assert no_store(jack.get(link))  # a signed link's page
    jack.sign_in()
    for path in ("/", "/me/tokens", "/me/mail", "/me/data", "/games/999999"):
        r = jack.get(path)
        assert no_store(r), (path, r.status_code, r.headers.get("Cache-Control"))


def test_the_files_served_as_they_are_stay_cacheable(app):
    r = app.test_client().get("/api/v1/docs/static/swagger-ui-bundle.js")
    assert r.status_code == 200
    assert not no_store(r) and "max-age=" in r.headers["Cache-Control"]
