"""Issue 47, item 4: open public games that seek players are listed (GET /games/open) and any
signed-in player with a proven address takes a free seat nobody is invited to
(POST /games/{id}/join with the seat); a seat kept for an invited address is never taken so,
a private game is never listed, and a second join of the same seat is refused 409 with the
reason, nothing changed."""

from __future__ import annotations

import pytest
from sqlmodel import func, select

from server.models import OutboxMessage, Seat
from tests.server.api.helpers import is_problem


@pytest.fixture
def ann(client):
    return client.signup("ann@example.org", "Ann")


@pytest.fixture
def bob(client):
    return client.signup("bob@example.org", "Bob")


@pytest.fixture
def eve(client):
    return client.signup("eve@example.org", "Eve")


def _listed(client, who=None) -> dict[int, dict]:
    r = client.get("/games/open", who)
    assert r.status_code == 200, r.get_json()
    return {g["id"]: g for g in r.get_json()}


def test_the_open_public_games_with_a_free_uninvited_seat_are_listed(client, store, ann, bob,
                                                                       eve):
    seeking = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True,
                               options={"edition": "zman"})["game"]["id"]
    private = client.open_game(ann, {"kennedy": ann.email, "nixon": None})["game"]["id"]
    invited = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email},
                               public=True)["game"]["id"]
    full = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True)["game"]["id"]
    assert client.post(f"/games/{full}/join", eve, json={"seat": "nixon"}).status_code == 200
    r = client.post("/games", ann, json={"game_type": "tmotp", "seats": {"kennedy": ann.email},
                                         "bots": {"nixon": "random"}, "public": True,
                                         "start_by_hand": True, "options": {}})
    assert r.status_code == 201, r.get_json()
    bots_only = r.get_json()["game"]["id"]
    for who in (None, eve):           # no token needed
        listed = _listed(client, who)
        assert seeking in listed
        assert not {private, invited, full, bots_only} & set(listed)
    game = _listed(client)[seeking]
    assert game["free_seats"] == ["nixon"] and game["creator"] == "Ann"
    assert game["options"] == {"edition": "zman"} and game["timing"]["decision_hours"] == 72
    assert game["status"] == "open" and game["public"] is True


def _seat_and_outbox(store, gid: int) -> tuple:
    """Who holds the game's Nixon seat, and how many messages wait to be sent."""
    with store.session() as s:
        return (s.exec(select(Seat.user_id).where(Seat.game_id == gid,
                                                  Seat.seat == "nixon")).one(),
                s.exec(select(func.count()).select_from(OutboxMessage)).one())


def test_any_proven_player_takes_the_free_seat_and_a_second_join_is_refused(client, store,
                                                                           ann, bob, eve):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True,
                           start_by_hand=True)["game"]["id"]
    r = client.post(f"/games/{gid}/join", eve, json={"seat": "nixon"})
    assert r.status_code == 200, r.get_json()
    seats = {s["seat"]: s for s in r.get_json()["seats"]}
    assert seats["nixon"]["player"] == "Eve" and seats["nixon"]["joined"]
    assert gid not in _listed(client)
    before = _seat_and_outbox(store, gid)
    body = is_problem(client.post(f"/games/{gid}/join", bob, json={"seat": "nixon"}), 409)
    assert body["detail"] == "The seat nixon is already taken."
    body = is_problem(client.post(f"/games/{gid}/join", bob, json={}), 409)
    assert body["detail"] == "Every open seat of this game is taken."
    after = _seat_and_outbox(store, gid)
    assert after == before and after[0] == eve.id


def test_a_seat_kept_for_an_invited_address_is_never_taken_so(client, store, ann, bob, eve):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email},
                           public=True)["game"]["id"]
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={"seat": "nixon"}), 403)
    assert body["detail"] == "The seat nixon is kept for an invited player."
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={}), 403)
    assert "not invited" in body["detail"]
    assert client.post(f"/games/{gid}/join", bob, json={}).status_code == 200


def test_an_unproven_address_may_not_take_a_public_seat(client, store, ann):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True)["game"]["id"]
    nobody = client.signup("nobody@example.org", "Nobody", proven=False)
    body = is_problem(client.post(f"/games/{gid}/join", nobody, json={"seat": "nixon"}), 403)
    assert "not proven" in body["detail"]
    assert gid in _listed(client)


def test_a_private_game_is_not_joined_without_its_code(client, store, ann, eve):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None})["game"]["id"]
    is_problem(client.post(f"/games/{gid}/join", eve, json={"seat": "nixon"}), 404)


def test_the_last_public_seat_taken_starts_the_game(client, store, ann, eve):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True)["game"]["id"]
    r = client.post(f"/games/{gid}/join", eve, json={})
    assert r.status_code == 200 and r.get_json()["status"] == "active"
    body = is_problem(client.post(f"/games/{gid}/join", ann, json={"seat": "nixon"}), 409)
    assert body["detail"]


def test_the_listing_is_in_the_openapi_document(client):
    spec = client.get("/openapi.json").get_json()
    listing = spec["paths"]["/api/v1/games/open"]["get"]
    assert {"200", "401"} <= set(listing["responses"])
    assert "seeking players" in listing.get("summary", "") + listing.get("description", "")
    schema = spec["components"]["schemas"]["OpenGame"]
    assert "free_seats" in schema["properties"]
    join = spec["paths"]["/api/v1/games/{game_id}/join"]["post"]
    assert {"403", "404", "409", "422"} <= set(join["responses"])


def test_a_seat_the_game_has_not_is_refused_with_its_seats(client, store, ann, eve):
    """A schema-valid seat of another game's names (Schemathesis sent "nixon" to a Mr.
    President game): 409 with the seats this game has, nothing changed (not 422: the body is
    valid, the game's state decides)."""
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True,
                           start_by_hand=True)["game"]["id"]
    before = _seat_and_outbox(store, gid)
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={"seat": "p1"}), 409)
    assert body["detail"] == "There is no seat 'p1' in this game; its seats are kennedy, nixon."
    assert _seat_and_outbox(store, gid) == before
