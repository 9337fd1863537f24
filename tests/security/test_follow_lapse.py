"""Following a private game lasts only as long as what allowed it (issue 45, finding L15),
written as the attack: invited to a seat of a private game, one follows it, somebody else
takes the seat (by its code) and the game goes on, and the follower kept reading it (its
page, its moves, its chat) as if still invited."""
from __future__ import annotations

from sqlmodel import select

from server.models import Spectator
from tests.server.api.helpers import is_problem


def listed(client, player) -> list[int]:
    body = client.get("/games", player).get_json()
    return [g["id"] for g in (body["games"] if isinstance(body, dict) else body)]


def test_a_follow_ends_when_the_invitation_it_rested_on_lapses(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": carol.email})
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/spectate", carol).status_code == 200
    assert client.get(f"/games/{gid}", carol).status_code == 200      # invited: may watch
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    is_problem(client.get(f"/games/{gid}", carol), 404)                # no longer invited
    assert gid not in listed(client, carol)
    is_problem(client.post(f"/games/{gid}/spectate", carol), 404)
    with store.session() as s:
        assert s.exec(select(Spectator).where(Spectator.game_id == gid)).all() == []


def test_a_follow_of_a_public_game_stays(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": carol.email}, public=True)
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/spectate", carol).status_code == 200
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.get(f"/games/{gid}", carol).status_code == 200
    assert gid in listed(client, carol)


def test_a_follow_left_from_before_the_fix_grants_and_lists_nothing(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    gid = client.two_player_game(store, ann, bob)               # private
    with store.session() as s:       # a follow whose invitation lapsed before the fix
        s.add(Spectator(game_id=gid, user_id=carol.id))
        s.commit()
    is_problem(client.get(f"/games/{gid}", carol), 404)
    assert gid not in listed(client, carol)
