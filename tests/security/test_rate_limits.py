"""Rate limits (issue 23, item 6), each test written as the abuse: a stranger making the server
mail somebody's address over and over (sign-in, sign-up), from one client or many; a user
creating games or invitations without end; all-bot games filling the workers. Each limit is a
clear 429 with Retry-After, and nothing is done or mailed past it."""
from __future__ import annotations

import pytest

from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import csrf


def ask_sign_in(client, email: str, ip: str = "198.51.100.7"):
    page = client.get("/sign-in", environ_base={"REMOTE_ADDR": ip})
    return client.post("/sign-in", data={"csrf_token": csrf(page.data), "email": email,
                                         "next": "/"}, environ_base={"REMOTE_ADDR": ip})


def test_sign_in_mails_to_one_address_are_limited(app, smtp_catcher):
    client = app.test_client()
    for n in range(5):
        assert ask_sign_in(client, "victim@example.org", f"198.51.100.{n}").status_code == 200
    smtp_catcher.wait_for_to("victim@example.org", 5)
    refused = ask_sign_in(client, "Victim@Example.org", "203.0.113.9")   # another client too
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "Too many sign-in mails" in refused.get_data(as_text=True)
    assert 'value="Victim@Example.org"' in refused.get_data(as_text=True)   # kept as typed
    assert len(smtp_catcher.to("victim@example.org")) == 5


def test_sign_in_mails_asked_by_one_client_are_limited(app):
    app.config["RATE_SIGN_IN_PER_CLIENT"] = "3/hour"
    client = app.test_client()
    for n in range(3):
        assert ask_sign_in(client, f"p{n}@example.org").status_code == 200
    assert ask_sign_in(client, "p9@example.org").status_code == 429
    assert ask_sign_in(client, "p9@example.org", ip="192.0.2.1").status_code == 200


def test_api_sign_ups_are_limited_per_client_and_address(app, client, smtp_catcher):
    app.config["RATE_SIGN_UP_PER_CLIENT"] = "4/hour"
    for n in range(4):
        assert client.post("/users", json={"email": f"u{n}@example.org"}).status_code == 202
    r = client.post("/users", json={"email": "u9@example.org"})
    body = is_problem(r, 429)
    assert body["type"].endswith("/problems/too-many-requests") and "Retry-After" in r.headers


def test_games_created_per_user_are_limited(app, client, players):
    app.config["RATE_GAMES_PER_USER"] = "3/day"
    ann = players["kennedy"]
    for _ in range(3):
        assert client.post("/games", ann, json={"game_type": "tmotp",
                                                "seats": {"kennedy": ann.email,
                                                          "nixon": None}}).status_code == 201
    r = client.post("/games", ann, json={"game_type": "tmotp",
                                         "seats": {"kennedy": ann.email, "nixon": None}})
    is_problem(r, 429)
    assert int(r.headers["Retry-After"]) > 0
    bob = players["nixon"]                   # another user is not held back
    assert client.post("/games", bob, json={"game_type": "tmotp",
                                            "seats": {"nixon": bob.email,
                                                      "kennedy": None}}).status_code == 201


def test_invitations_per_user_are_limited(app, client, players):
    app.config["RATE_INVITATIONS_PER_USER"] = "2/day"
    ann = players["kennedy"]
    for n in range(2):
        assert client.post("/games", ann, json={
            "game_type": "tmotp", "seats": {"kennedy": ann.email,
                                            "nixon": f"friend{n}@example.org"}}).status_code == 201
    is_problem(client.post("/games", ann, json={
        "game_type": "tmotp", "seats": {"kennedy": ann.email,
                                        "nixon": "friend9@example.org"}}), 429)


@pytest.mark.parametrize("game_type, bots", [("mrpresident", {"p1": "random", "p2": "random"}),
                                             ("tmotp", {"kennedy": "random", "nixon": "random"})])
def test_all_bot_games_in_play_at_once_are_limited(app, client, players, game_type, bots):
    app.config["ALL_BOT_GAMES_PER_USER"] = 2
    ann = players["kennedy"]
    # started by hand: a game of bots alone would begin at once and, its tasks running
    # eagerly here, be over before the next is made (a finished game is in play no more)
    for _ in range(2):
        assert client.post("/games", ann, json={"game_type": game_type, "seats": {},
                                                "bots": bots,
                                                "start_by_hand": True}).status_code == 201
    body = is_problem(client.post("/games", ann, json={"game_type": game_type, "seats": {},
                                                       "bots": bots, "start_by_hand": True}),
                      429)
    assert "bots only" in body["detail"]
