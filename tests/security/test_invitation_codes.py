"""A used invitation code is used up (issue 45, finding L4), written as the attack: the code of
a seat that was taken once opened it again when the seat was freed (its player deleted the
account before the start), to whoever had seen the code meanwhile."""
from __future__ import annotations

from sqlalchemy import update
from sqlmodel import select

from server.models import Seat
from server.services.users import sha256_hex
from tests.server.api.helpers import is_problem


def test_a_used_code_does_not_open_the_seat_again_once_it_is_freed(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True,
                            start_by_hand=True)
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.delete(f"/users/me?confirm={bob.email}&hand_over=true", bob).status_code \
        == 200                                            # the seat is free again
    eve = client.signup("eve@example.org")
    refused = is_problem(client.post(f"/games/{gid}/join", eve, json={"code": code}), 403)
    assert "opens no seat" in refused["detail"]
    with store.session() as s:       # the code's hash went when the seat was taken
        assert s.exec(select(Seat).where(Seat.invite_token_hash == sha256_hex(code))).all() == []
    fresh = client.post(f"/games/{gid}/code", ann, json={"seat": "nixon"})   # a new one works
    assert fresh.status_code == 200, fresh.get_json()
    assert client.post(f"/games/{gid}/join", eve, json={"code": fresh.get_json()["code"]}) \
        .status_code == 200


def test_a_used_code_of_a_private_game_shows_nothing(client, players):
    ann, bob = players["kennedy"], players["nixon"]
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, start_by_hand=True)
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    eve = client.signup("eve@example.org")
    is_problem(client.post(f"/games/{gid}/join", eve, json={"code": code}), 404)


def test_a_code_kept_by_a_seat_taken_before_the_fix_dies_when_the_seat_is_freed(
        client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": None}, public=True,
                            start_by_hand=True)
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    with store.session() as s:       # the row as a join before the fix left it
        s.execute(update(Seat).where(Seat.game_id == gid, Seat.seat == "nixon")
                  .values(invite_token_hash=sha256_hex(code)))
        s.commit()
    assert client.delete(f"/users/me?confirm={bob.email}&hand_over=true", bob).status_code \
        == 200
    eve = client.signup("eve@example.org")
    is_problem(client.post(f"/games/{gid}/join", eve, json={"code": code}), 403)
