"""No 5xx on any input (issue 23, item 7), each test written as the input that broke the server:
ids beyond the database's integer range, numbers in other scripts' digits, JSON nested too deep,
too large, undecodable or holding a lone surrogate, and a chunked body past the inbound hook's
limit. Each gets a clear 4xx and changes nothing."""
from __future__ import annotations

import io

import pytest

from tests.web.pages_helpers import Reader, csrf

HUGE = [str(2 ** 63), str(2 ** 64 + 5), str(2 ** 31), "9" * 400, "²", "١٢", "1²"]


@pytest.mark.parametrize("gid", HUGE)
@pytest.mark.parametrize("path", ["/games/{}", "/games/{}/replay", "/games/{}/result",
                                  "/api/v1/games/{}", "/api/v1/games/{}/log",
                                  "/api/v1/games/{}/decision"])
def test_an_id_beyond_the_database_or_not_ascii_is_not_found(app, players, path, gid):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {players['kennedy'].token}"}
    r = client.get(path.format(gid), headers=headers)
    assert r.status_code == 404, (path, gid, r.status_code)


@pytest.mark.parametrize("gid", [str(2 ** 63), "²"])
def test_posts_to_an_id_beyond_range_are_not_found(app, players, gid):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {players['kennedy'].token}"}
    for path in (f"/api/v1/games/{gid}/orders", f"/api/v1/games/{gid}/join",
                 f"/api/v1/games/{gid}/resign"):
        r = client.post(path, json={"step": 1, "action": "pass"}, headers=headers)
        assert r.status_code == 404, (path, r.status_code)


def test_json_nested_too_deep_is_refused(app, players):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {players['kennedy'].token}",
               "Content-Type": "application/json"}
    for depth in (100, 5000, 100_000):
        body = "[" * depth + "]" * depth
        r = client.post("/api/v1/games", data=body, headers=headers)
        assert r.status_code == 400, (depth, r.status_code)
        assert r.mimetype == "application/problem+json" and "nested" in r.get_json()["detail"]
    nested = '{"a":' * 50 + "1" + "}" * 50
    assert client.post("/api/v1/users", data=nested, headers=headers).status_code == 400
    # brackets inside strings are text, not nesting
    fine = {"email": "deep@example.org", "display_name": "[" * 60}
    assert client.post("/api/v1/users", json=fine).status_code in (202, 422)


def test_json_larger_than_the_limit_is_refused(app, players):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {players['kennedy'].token}"}
    big = {"game_type": "tmotp", "seats": {}, "options": {"x": "y" * (2 * 1024 * 1024)}}
    r = client.post("/api/v1/games", json=big, headers=headers)
    assert r.status_code == 413


@pytest.mark.parametrize("body", [
    b'{"email": "s@example.org", "display_name": "\\ud800"}',
    b'{"email": "s@example.org", "display_name": "a\\udfffb"}',
    b'{"email": "\\udc80@example.org"}',
    b'{"email": "s@example.org", "display_name": "\xff\xfe"}',
])
def test_json_that_is_not_text_is_refused(app, body):
    r = app.test_client().post("/api/v1/users", data=body,
                               headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.get_data(as_text=True)[:300]


def test_an_order_with_a_lone_surrogate_is_refused(app, client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"])
    state = store.state(gid)
    seat = state.active()[0] if state.active() != ["chance"] else "kennedy"
    before = store.snapshot(gid)
    r = app.test_client().post(f"/api/v1/games/{gid}/orders",
                               data=b'{"step": 1, "action": "play \\ud83d 1"}',
                               headers={"Authorization": f"Bearer {players[seat].token}",
                                        "Content-Type": "application/json"})
    assert r.status_code == 400
    assert store.snapshot(gid) == before


@pytest.fixture
def jack(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "jack@example.org")
    reader.sign_in()
    return reader


@pytest.mark.parametrize("field, value", [
    ("bot_delay_seconds", "²"), ("bot_delay_seconds", "٣"), ("bot_delay_seconds", "9" * 5000),
    ("decision_hours", "７２"), ("decision_hours", "²"), ("reminder_hours", "24 ²"),
    ("decision_hours", str(2 ** 64)),
])
def test_numbers_in_the_lobby_form_are_read_strictly(app, jack, field, value):
    r = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                           "opponent": "dick@example.org", "seat": "kennedy",
                                           "edition": "gmt", field: value})
    assert r.status_code == 422, (field, value, r.status_code)


def test_a_strange_step_on_the_game_form_is_no_error(app, client, store, players, smtp_catcher):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"])
    reader = Reader(app, smtp_catcher, players["kennedy"].email)
    reader.sign_in()
    page = reader.get(f"/games/{gid}")
    for step in ("²", "٣", "9" * 5000, "-1"):
        r = reader.client.post(f"/games/{gid}/order", data={
            "csrf_token": csrf(page.data), "step": step, "lines": "pass"})
        assert r.status_code < 500, (step, r.status_code)


@pytest.mark.parametrize("token", ["².abc", "٣.abc", "9" * 40 + ".abc", "%C2%B2.x"])
def test_a_strange_mail_settings_token_is_not_found(app, token):
    r = app.test_client().get(f"/me/mail/{token}")
    assert 400 <= r.status_code < 500


def test_the_inbound_hook_limit_holds_for_a_chunked_body(app):
    app.config["INBOUND_MAIL_SECRET"] = "s3cret-hook"
    limit = int(app.config["INBOUND_MAIL_MAX_BYTES"])
    body = b"Subject: x\r\n\r\n" + b"a" * (limit + 10)
    r = app.test_client().post(
        "/inbound/mail", input_stream=io.BytesIO(body),
        headers={"Authorization": "Bearer s3cret-hook", "Content-Type": "message/rfc822",
                 "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 413


def test_any_other_chunked_body_past_the_request_limit_is_refused(app, players):
    limit = int(app.config["MAX_CONTENT_LENGTH"])
    body = b'{"email": "big@example.org", "display_name": "' + b"a" * (limit + 10) + b'"}'
    r = app.test_client().post(
        "/api/v1/users", input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 413
