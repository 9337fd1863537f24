"""Issue 47 item 3 through the API: PATCH /me takes a display name under the rule of names
(server/services/display_names.py; a refused one is a 422 saying why, changing nothing; an
empty one goes back to the neutral "Player <id>"), and the ratings carry the shown rating (the
Elo-like scale of services/rating_scale.py: 1500 for a newcomer, never negative) beside the raw
mu, sigma and ordinal."""

from __future__ import annotations

from tests.security.test_rating_farming import play
from tests.server.api.helpers import API, PROBLEM


def patch(client, player, body):
    return client.tc.patch(API + "/me", headers=player.auth if player else {}, json=body)


def test_a_display_name_is_set_changed_and_cleared(client, players):
    ann = players["kennedy"]
    r = patch(client, ann, {"display_name": "  Ann   Smith "})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["display_name"] == "Ann Smith"       # normalised: the rule's spaces
    assert r.get_json()["shown_name"] == "Ann Smith"
    assert client.get("/me", ann).get_json()["display_name"] == "Ann Smith"
    r = patch(client, ann, {"display_name": "アン・スミス"})
    assert r.status_code == 200 and r.get_json()["display_name"] == "アン・スミス"
    # Empty: no name chosen; others see the neutral default, never the address.
    r = patch(client, ann, {"display_name": ""})
    body = r.get_json()
    assert r.status_code == 200 and body["display_name"] == ""
    assert body["shown_name"] == f"Player {body['id']}" and "ann" not in body["shown_name"]


def test_a_name_the_rule_refuses_is_a_422_saying_why(client, players):
    ann = players["kennedy"]
    for name, words in (("evil.com", "may not look like a link"),
                        ("Player 12", "one of the names the server itself uses"),
                        ("Аnn", "mixes scripts"),              # a Cyrillic А
                        ("Ann <b>", "is not one of them"),
                        ("x" * 41, "at most 40 characters")):
        r = patch(client, ann, {"display_name": name})
        assert r.status_code == 422 and r.content_type == PROBLEM, (name, r.get_json())
        assert words in str(r.get_json()["errors"]["json"]["display_name"]), r.get_json()
    assert client.get("/me", ann).get_json()["display_name"] == "Ann"    # nothing changed


def test_the_openapi_document_says_which_characters(client):
    spec = client.get("/openapi.json").get_json()
    change = spec["components"]["schemas"]["UserChange"]["properties"]["display_name"]
    assert "letters (any script), digits, spaces" in change["description"]
    assert "look like" in change["description"] and "Player <id>" in change["description"]


def test_the_scale_a_newcomer_reads():
    """The openskill FAQ's Elo-like display: 200 points a standard deviation of the prior
    (alpha = 200 / (25/3) = 24), a newcomer at 1500."""
    from server.services import rating_scale
    assert rating_scale.shown(25.0, 25.0 / 3) == 1500
    assert rating_scale.shown(23.2, 8.33) < 1500
    assert rating_scale.shown(-40.0, 8.33) == 0                # never below zero
    assert rating_scale.shown(30.0, 2.0) == round(24 * 24 + 1500)


def test_the_ratings_carry_the_shown_rating(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob, seed="scale-1", public=True)
    play(store, gid)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    rows = client.get("/ratings?game=tmotp").get_json()
    by_name = {r["player"]: r for r in rows}
    assert by_name["Ann"]["rating"] > 1500 > by_name["Bob"]["rating"] > 1400
    assert by_name["Bob"]["ordinal"] < 0                        # the raw ordinal, kept
    assert {"mu", "sigma", "ordinal"} <= set(by_name["Bob"])
    mine = client.get(f"/users/{bob.id}/ratings").get_json()
    assert mine["ratings"][0]["rating"] == by_name["Bob"]["rating"]
