"""Sign-up (a mailed link leads to the token), tokens and authentication."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from sqlmodel import select

from server.models import ApiToken, User
from tests.server.api.conftest import make_app
from tests.server.api.helpers import Client, is_problem


def token_by_mail(app, catcher, email: str) -> str:
    """Follow the sign-up mail: its link signs a browser in (proving the address) on the page
    that makes API tokens; make one there and read it off the page."""
    from tests.web.pages_helpers import csrf, path_of, sign_in_link
    browser = app.test_client()
    link = path_of(sign_in_link(catcher.to(email)[-1]))
    assert link.startswith("/sign-in/")
    confirm = browser.get(link)
    entered = browser.post(link, data={"csrf_token": csrf(confirm.data)})
    assert entered.status_code == 303 and entered.headers["Location"] == "/me/tokens"
    page = browser.get("/me/tokens")
    made = browser.post("/me/tokens", data={"csrf_token": csrf(page.data), "action": "new"})
    assert made.status_code == 201
    return re.search(r'<code id="new-token">([^<]+)</code>', made.get_data(as_text=True))[1]


def test_sign_up_mails_a_link_that_leads_to_a_token_shown_once(app, client, store,
                                                               smtp_catcher):
    r = client.post("/users", json={"email": " Ann@Example.org ", "display_name": "Ann",
                                    "locale": "fr-CA"})
    assert r.status_code == 202
    assert r.get_json()["email"] == "ann@example.org" and "token" not in r.get_json()
    smtp_catcher.wait_for_to("ann@example.org", 1)
    token = token_by_mail(app, smtp_catcher, "ann@example.org")
    with store.session() as s:
        rows = s.exec(select(ApiToken)).all()
        assert [r.token_hash for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]
        user = s.exec(select(User)).one()
        assert user.email_verified_at is not None
    me = client.get("/me", headers={"Authorization": f"Bearer {token}"})
    body = me.get_json()
    assert me.status_code == 200 and body["email"] == "ann@example.org"
    assert body["display_name"] == "Ann" and body["locale"] == "fr-CA"
    assert body["created_at"].endswith("+00:00") and body["email_verified"] is True


def test_sign_up_answers_alike_for_a_known_address_and_refuses_bad_input(client, store,
                                                                          smtp_catcher):
    first = client.post("/users", json={"email": "bo@example.org"})
    again = client.post("/users", json={"email": "BO@example.org"})
    assert first.status_code == again.status_code == 202
    assert first.get_json() == again.get_json()
    smtp_catcher.wait_for_to("bo@example.org", 2)      # the owner gets each mail
    with store.session() as s:
        user = s.exec(select(User)).one()
        assert user.display_name == "" and user.locale == "en"  # none: never the address
        assert user.email_verified_at is None and s.exec(select(ApiToken)).all() == []

    body = is_problem(client.post("/users", json={"email": "not an address", "locale": "x"}),
                      422)
    assert body["type"].endswith("/problems/invalid-request")
    assert set(body["errors"]["json"]) == {"email", "locale"}
    assert "email" in body["detail"] and "locale" in body["detail"]

    body = is_problem(client.post("/users", json={"display_name": "No Mail"}), 422)
    assert body["errors"]["json"]["email"] == ["Missing data for required field."]


def test_sign_up_can_be_closed(tmp_path, api_db_url):
    app = make_app(tmp_path, api_db_url, OPEN_SIGNUP=False)
    client = Client(app.test_client())
    body = is_problem(client.post("/users", json={"email": "x@example.org"}), 403)
    assert body["type"].endswith("/problems/signup-closed")
    app.extensions["whistlestop.db"].dispose()


def test_open_signup_comes_from_the_environment():
    from server import config

    assert config.from_env({})["OPEN_SIGNUP"] is True
    assert config.from_env({"WHISTLESTOP_OPEN_SIGNUP": "false"})["OPEN_SIGNUP"] is False


def test_missing_and_bad_tokens_get_401_with_a_bearer_challenge(client):
    r = client.get("/me")
    body = is_problem(r, 401)
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="whistlestop"'
    assert body["type"].endswith("/problems/unauthorized")

    for header in ("Bearer ws_not-a-token", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bearer "):
        r = client.get("/me", headers={"Authorization": header})
        is_problem(r, 401)
        assert r.headers["WWW-Authenticate"] == 'Bearer realm="whistlestop", error="invalid_token"'
    is_problem(client.post("/me/tokens", headers={"Authorization": "Bearer nope"}), 401)
    is_problem(client.post("/games", json={}), 401)


def test_a_new_token_works_beside_the_old_one(client, store):
    ann = client.signup("ann@example.org")
    r = client.post("/me/tokens", ann)
    assert r.status_code == 201
    token = r.get_json()["token"]
    assert token != ann.token and token.startswith("ws_")
    for t in (token, ann.token):
        me = client.get("/me", headers={"Authorization": f"Bearer {t}"})
        assert me.get_json()["id"] == ann.id
    with store.session() as s:
        assert len(s.exec(select(ApiToken).where(ApiToken.user_id == ann.id)).all()) == 2
        assert s.exec(select(User)).one().email == "ann@example.org"


def test_token_use_is_recorded_by_successful_writes_only(client, store):
    ann = client.signup("ann@example.org")

    def last_used():
        with store.session() as s:
            return s.exec(select(ApiToken.last_used_at)).one()

    assert client.get("/me", ann).status_code == 200
    assert client.post("/games", ann, json={"game_type": "go"}).status_code == 422
    assert last_used() is None
    assert client.post("/me/tokens", ann).status_code == 201
    with store.session() as s:
        used = s.exec(select(ApiToken.last_used_at)
                      .where(ApiToken.token_hash == hashlib.sha256(ann.token.encode())
                             .hexdigest())).one()
    assert used is not None


def test_token_use_is_recorded_at_most_once_an_hour(client, store):
    ann = client.signup("ann@example.org")
    digest = hashlib.sha256(ann.token.encode()).hexdigest()

    def last_used():
        with store.session() as s:
            return s.exec(select(ApiToken.last_used_at)
                          .where(ApiToken.token_hash == digest)).one()

    assert client.post("/me/tokens", ann).status_code == 201
    first = last_used()
    assert first is not None
    assert client.post("/me/tokens", ann).status_code == 201
    assert last_used() == first                       # within the hour: not written again
    with store.session() as s:                        # an hour and more ago
        row = s.exec(select(ApiToken).where(ApiToken.token_hash == digest)).one()
        row.last_used_at = first - timedelta(hours=2)
        s.add(row)
        s.commit()
    assert client.post("/me/tokens", ann).status_code == 201
    assert last_used() > first


def test_a_token_use_that_cannot_be_recorded_does_not_turn_a_done_write_into_an_error(
        client, store, monkeypatch):
    """The write is committed before its token's use is recorded: a database that refuses
    the record (busy past its timeout) leaves the answer as it was."""
    from sqlalchemy.exc import OperationalError

    from server.services import users

    ann = client.signup("ann@example.org")

    def locked(connection, token, every_seconds=3600):
        raise OperationalError("UPDATE apitoken", {}, Exception("database is locked"))

    monkeypatch.setattr(users, "token_used", locked)
    made = client.post("/me/tokens", ann)
    assert made.status_code == 201
    with store.session() as s:
        assert len(s.exec(select(ApiToken)).all()) == 2  # the new token is there


def test_the_request_session_ends_with_the_request_not_its_app_context(app, client, players):
    """A test (or a command) may keep an app context across requests: each request still
    closes the session its token was read in, so the next one reads afresh."""
    from flask import g

    from server import db

    with app.app_context():
        assert client.get("/me", players["kennedy"]).status_code == 200
        assert g.get(db._REQUEST_SESSION) is None
        assert client.get("/me", players["nixon"]).status_code == 200
