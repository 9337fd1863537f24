"""Rematch links act once in every encoding (issue 45, L5), written as the attack.

A rematch link's "acts once" was kept per spelling of its token: the same token with base64
padding appended (which the signature still accepts) offered the rematch again after the
offer was withdrawn. A used link is now kept as the digest of what its signature covers
(services/links.canonical_digest), as the decision and sign-in links are; on SQLite and on
PostgreSQL.
"""

from __future__ import annotations


import pytest
from sqlmodel import Session

from server.services import links, rematch
from tests.web.pages_helpers import csrf


@pytest.fixture
def api_db_url(both_databases) -> str:
    """The API tests' app on a migrated SQLite file, then on a real PostgreSQL."""
    return both_databases


def _finished(client, store, ann, bob) -> int:
    gid = client.two_player_game(store, ann, bob)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    return gid


def _post(app, gid: int, token: str, action: str = "offer"):
    """The link's button, from a browser that is not signed in (the CSRF token of a page
    that has a form: a used link's page has none)."""
    browser = app.test_client()
    page = browser.get("/sign-in")
    return browser.post(f"/games/{gid}/rematch", data={
        "csrf_token": csrf(page.get_data(as_text=True)), "t": token, "action": action,
        "swap": "swap"})


@pytest.mark.parametrize("suffix", ["=", "=="])
def test_a_used_offer_link_with_padding_appended_does_not_offer_again(app, client, store,
                                                                       players, suffix):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _finished(client, store, ann, bob)
    token = rematch.make_token(app.secret_key, gid, ann.id, "offer")
    assert _post(app, gid, token).status_code == 303
    assert client.get(f"/games/{gid}/rematch", ann).get_json()["status"] == "open"
    assert client.delete(f"/games/{gid}/rematch", bob).get_json()["status"] == "withdrawn"
    again = _post(app, gid, token + suffix)
    assert again.status_code == 409, again.get_data(as_text=True)[-800:]
    assert "used already" in again.get_data(as_text=True)
    assert client.get(f"/games/{gid}/rematch", ann).get_json()["status"] == "withdrawn"


def test_every_encoding_of_a_rematch_token_has_one_digest(app, client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _finished(client, store, ann, bob)
    token = rematch.make_token(app.secret_key, gid, bob.id, "accept")
    with Session(store.engine) as s:
        one = rematch.read_token(s, app.secret_key, token, gid, 3600)
        other = rematch.read_token(s, app.secret_key, token + "==", gid, 3600)
    assert one == other
    assert one[2] != links.digest(token)          # not the text's digest
