"""An address is proven before it counts (issue 23, item 1), each test written as the attack.

The squatter: somebody who signs up naming another person's address - the one a game's creator
reserved a seat for - to take the seat, read the private game, or take over the account when
its owner comes along. An account's address is proven only by a link mailed to it (a sign-in
link; the API's sign-up mails one). Until then the account claims nothing by its address; the
first proof hands the account to the address's owner and revokes the tokens made before it.
"""
from __future__ import annotations

from sqlmodel import select

from server.models import ApiToken, User
from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import Reader


def private_game_for(client, creator, invited_email: str) -> int:
    body = client.open_game(creator, {"kennedy": creator.email, "nixon": invited_email})
    return body["game"]["id"]


def test_signing_up_with_anothers_address_gives_no_token(client, store, smtp_catcher):
    r = client.post("/users", json={"email": "victim@example.org"})
    assert r.status_code == 202 and "token" not in r.get_json()
    mails = smtp_catcher.wait_for_to("victim@example.org", 1)   # the owner is told, not him
    assert "sign-in" in mails[-1].get_body(("plain",)).get_content()
    with store.session() as s:
        assert s.exec(select(ApiToken)).all() == []


def test_a_known_address_and_a_new_one_get_the_same_answer(client, players, smtp_catcher):
    known = client.post("/users", json={"email": players["kennedy"].email})
    new = client.post("/users", json={"email": "nobody-yet@example.org"})
    assert known.status_code == new.status_code == 202
    assert set(known.get_json()) == set(new.get_json())
    assert known.get_json()["detail"] == new.get_json()["detail"]


def test_an_unproven_account_cannot_take_the_seat_reserved_for_its_address(client, store):
    ann = client.signup("ann@example.org")
    squatter = client.signup("Victim@Example.org", proven=False)   # same address, other case
    gid = private_game_for(client, ann, "victim@example.org")
    body = is_problem(client.post(f"/games/{gid}/join", squatter, json={}), 404)
    assert "no such game" in body["detail"]
    assert client.get(f"/games/{gid}", squatter).status_code == 404      # nor see it
    listed = client.get("/games", squatter).get_json()
    assert gid not in [g["id"] for g in (listed["games"] if isinstance(listed, dict)
                                         else listed)]
    with store.session() as s:
        assert s.exec(select(User).where(User.id == squatter.id)).one().email_verified_at \
            is None


def test_a_public_game_still_refuses_the_unproven_address(client):
    ann = client.signup("ann@example.org")
    squatter = client.signup("victim@example.org", proven=False)
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": "victim@example.org"},
                           public=True)["game"]["id"]
    body = is_problem(client.post(f"/games/{gid}/join", squatter, json={}), 403)
    assert "not proven" in body["detail"]


def test_the_owner_proving_the_address_takes_the_account_from_the_squatter(
        app, client, store, smtp_catcher):
    squatter = client.signup("victim@example.org", proven=False)
    assert client.get("/me", squatter).status_code == 200
    owner = Reader(app, smtp_catcher, "victim@example.org")
    owner.sign_in()                       # the mailed link proves the address
    assert is_problem(client.get("/me", squatter), 401)        # his token is dead
    with store.session() as s:
        user = s.exec(select(User).where(User.email == "victim@example.org")).one()
        assert user.email_verified_at is not None
        assert s.exec(select(ApiToken).where(ApiToken.user_id == user.id)).all() == []


def test_a_proven_address_claims_its_seat(client, store):
    ann = client.signup("ann@example.org")
    victim = client.signup("victim@example.org")
    gid = private_game_for(client, ann, "Victim@Example.ORG")
    assert client.get(f"/games/{gid}", victim).status_code == 200
    assert client.post(f"/games/{gid}/join", victim, json={}).status_code == 200


def test_an_invited_address_loses_sight_of_a_private_game_once_its_seat_is_taken(
        client, store):
    ann = client.signup("ann@example.org")
    invited = client.signup("invited@example.org")
    other = client.signup("other@example.org")
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": "invited@example.org"})
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.get(f"/games/{gid}", invited).status_code == 200
    assert client.post(f"/games/{gid}/join", other, json={"code": code}).status_code == 200
    assert client.get(f"/games/{gid}", invited).status_code == 404


def test_tokens_are_listed_without_themselves_and_revoked_one_by_one(client, store):
    ann = client.signup("ann@example.org")
    second = client.post("/users/me/tokens", ann).get_json()["token"]
    listed = client.get("/users/me/tokens", ann).get_json()
    assert len(listed) == 2 and sum(t["current"] for t in listed) == 1
    assert all(set(t) == {"id", "created_at", "last_used_at", "current"} for t in listed)
    assert ann.token not in str(listed) and second not in str(listed)
    other = [t for t in listed if not t["current"]][0]
    assert client.delete(f"/users/me/tokens/{other['id']}", ann).status_code == 204
    assert client.get("/me", headers={"Authorization": f"Bearer {second}"}).status_code == 401
    assert client.get("/me", ann).status_code == 200
    bob = client.signup("bob@example.org")
    mine = client.get("/users/me/tokens", bob).get_json()[0]["id"]
    assert client.delete(f"/users/me/tokens/{mine}", ann).status_code == 404   # not his
    assert client.get("/me", bob).status_code == 200
