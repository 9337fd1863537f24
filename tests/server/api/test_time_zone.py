"""The account's time zone through the API: GET /me shows it, PATCH /me changes it (any case, a
city alone), and a name the time zone database does not have is a 422 saying why, changing
nothing."""

from __future__ import annotations

from tests.server.api.helpers import API, PROBLEM


def patch(client, player, body):
    return client.tc.patch(API + "/me", headers=player.auth if player else {}, json=body)


def test_the_time_zone_is_shown_and_changed(client, players):
    ann = players["kennedy"]
    assert client.get("/me", ann).get_json()["time_zone"] == "UTC"
    r = patch(client, ann, {"time_zone": "asia/tokyo"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["time_zone"] == "Asia/Tokyo" and r.get_json()["email"] == ann.email
    assert client.get("/me", ann).get_json()["time_zone"] == "Asia/Tokyo"
    assert patch(client, ann, {"time_zone": "Madrid"}).get_json()["time_zone"] == \
        "Europe/Madrid"
    assert client.get("/me", players["nixon"]).get_json()["time_zone"] == "UTC"  # only hers


def test_a_name_that_is_no_zone_is_refused(client, players):
    ann = players["kennedy"]
    for body, words in (({"time_zone": "Mars/Olympus"}, "Mars/Olympus is not a time zone"),
                        ({"time_zone": ""}, "Name a time zone"),
                        ({"time_zone": 9}, "Not a valid string"),
                        ({}, "Missing data for required field")):
        r = patch(client, ann, body)
        assert r.status_code == 422 and r.content_type == PROBLEM, r.get_json()
        assert words in str(r.get_json()["errors"]["json"]["time_zone"])
    assert client.get("/me", ann).get_json()["time_zone"] == "UTC"


def test_changing_the_zone_needs_a_token(client, players):
    assert patch(client, None, {"time_zone": "Asia/Tokyo"}).status_code == 401
