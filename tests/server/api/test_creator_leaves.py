"""An open game whose creator deletes their account (issue 27): it passes to the player who
joined it first, who invites to the freed seat and starts it; one nobody else joined is
withdrawn, gone from every list. Through the API: the deletion, then what the others can do."""

from __future__ import annotations

from sqlmodel import SQLModel, select

from server import models
from server.models import ChatMessage, ChatReport, Game, Seat
from server.services import lobby
from tests.server.api.helpers import is_problem


def _delete(client, player):
    r = client.delete(f"/users/me?confirm={player.email}&hand_over=true", player)
    assert r.status_code == 200, r.get_json()


def _ids(client, path, player=None) -> set[int]:
    r = client.get(path, player)
    assert r.status_code == 200, r.get_json()
    return {g["id"] for g in r.get_json()}


def test_an_open_game_nobody_else_joined_is_withdrawn(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    watcher = client.signup("wendy@example.org", "Wendy")
    body = client.post("/games", ann, json={"game_type": "tmotp", "public": True,
                                            "seats": {"kennedy": ann.email, "nixon": bob.email},
                                            "spectator_chat": True}).get_json()
    gid = body["game"]["id"]
    other = client.open_game(bob, {"kennedy": ann.email, "nixon": bob.email}, public=True)
    assert client.post(f"/games/{gid}/spectate", watcher).status_code == 200
    assert client.post(f"/games/{gid}/chat", ann, json={"body": "Anyone?"}).status_code == 201
    line = client.post(f"/games/{gid}/chat", watcher,
                       json={"body": "soon", "channel": "spectators"}).get_json()
    walter = client.signup("walter@example.org", "Walter")
    assert client.post(f"/games/{gid}/spectate", walter).status_code == 200
    assert client.post(f"/games/{gid}/chat/{line['id']}/report", walter,
                       json={"reason": "spam"}).status_code in (200, 201)
    assert gid in _ids(client, "/games", bob) and gid in _ids(client, "/games/public")
    _delete(client, ann)
    # Gone: from the lobby's lists, the invitee's and the follower's; its page and seats too.
    assert gid not in _ids(client, "/games/public")
    assert gid not in _ids(client, "/games", bob) and gid not in _ids(client, "/games", watcher)
    is_problem(client.get(f"/games/{gid}", bob), 404)
    is_problem(client.post(f"/games/{gid}/join", bob, json={}), 404)
    with store.session() as s:
        assert s.get(Game, gid) is None
        assert not s.exec(select(Seat).where(Seat.game_id == gid)).all()
        assert not s.exec(select(ChatMessage).where(ChatMessage.game_id == gid)).all()
        assert not s.exec(select(ChatReport)).all()
    # Bob's own open game, which Ann was only invited to, stays.
    assert other["game"]["id"] in _ids(client, "/games", bob)


def test_a_1960_game_passes_to_the_player_who_joined_and_they_start_it(client, store,
                                                                        players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email},
                           start_by_hand=True)["game"]["id"]
    assert client.post(f"/games/{gid}/join", bob, json={}).status_code == 200
    _delete(client, ann)
    game = client.get(f"/games/{gid}", bob).get_json()
    assert game["status"] == "open" and game["creator"] == "Bob"
    assert [s["joined"] for s in game["seats"]] == [False, True]   # Ann's seat is free
    # Bob may start it now, once the free seat has a player: he makes its code.
    assert "still open: kennedy" in is_problem(client.post(f"/games/{gid}/start", bob),
                                                409)["detail"]
    r = client.post(f"/games/{gid}/code", bob, json={"seat": "kennedy"})
    assert r.status_code == 200, r.get_json()
    carol = client.signup("carol@example.org", "Carol")
    assert client.post(f"/games/{gid}/join", carol,
                       json={"code": r.get_json()["code"]}).status_code == 200
    r = client.post(f"/games/{gid}/start", bob)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["status"] == "active"
    assert {s["seat"]: s["player"] for s in r.get_json()["seats"]} == {"kennedy": "Carol",
                                                                       "nixon": "Bob"}


def test_a_mr_president_game_passes_to_the_earliest_joined_player(client, store):
    people = [client.signup(f"{n}@example.org", n.title())
              for n in ("barry", "lyndon", "george")]
    barry, lyndon, george = people
    gid = client.open_game(barry, {f"p{i}": p.email for i, p in enumerate(people, 1)},
                           public=True, options={"players": 3}, game_type="mrpresident",
                           start_by_hand=True)["game"]["id"]
    # George joins before Lyndon: the game passes to George.
    assert client.post(f"/games/{gid}/join", george, json={}).status_code == 200
    assert client.post(f"/games/{gid}/join", lyndon, json={}).status_code == 200
    _delete(client, barry)
    assert client.get(f"/games/{gid}", lyndon).get_json()["creator"] == "George"
    is_problem(client.post(f"/games/{gid}/start", lyndon), 403)
    is_problem(client.post(f"/games/{gid}/code", lyndon, json={"seat": "p1"}), 403)
    code = client.post(f"/games/{gid}/code", george, json={"seat": "p1"}).get_json()["code"]
    hubert = client.signup("hubert@example.org", "Hubert")
    assert client.post(f"/games/{gid}/join", hubert, json={"code": code}).status_code == 200
    r = client.post(f"/games/{gid}/start", george)
    assert r.status_code == 200 and r.get_json()["status"] == "active", r.get_json()


def test_a_new_code_is_refused_in_words(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    stranger = client.signup("eve@example.org", "Eve")
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": None})["game"]["id"]
    assert "seat 'truman'" in is_problem(
        client.post(f"/games/{gid}/code", ann, json={"seat": "truman"}), 422)["detail"]
    assert "already taken" in is_problem(
        client.post(f"/games/{gid}/code", ann, json={"seat": "kennedy"}), 409)["detail"]
    is_problem(client.post(f"/games/{gid}/code", stranger, json={"seat": "nixon"}), 404)
    is_problem(client.post(f"/games/{gid}/code", ann, json={}), 422)
    is_problem(client.post(f"/games/{gid}/code", None, json={"seat": "nixon"}), 401)
    first = client.post(f"/games/{gid}/code", ann, json={"seat": "nixon"}).get_json()["code"]
    second = client.post(f"/games/{gid}/code", ann, json={"seat": "nixon"}).get_json()["code"]
    # The old code opens nothing (and shows nothing of the private game).
    is_problem(client.post(f"/games/{gid}/join", bob, json={"code": first}), 404)
    assert client.post(f"/games/{gid}/join", bob, json={"code": second}).status_code == 200


def test_withdrawing_removes_every_kind_of_row_that_points_at_a_game():
    """Every table with a column pointing at a game is in lobby._GAME_ROWS (a new one must
    be added there, or withdrawing a game would fail on its foreign key)."""
    game = Game.__table__
    pointing = {table.name for table in SQLModel.metadata.tables.values()
                for fk in table.foreign_keys if fk.column.table is game}
    listed = {getattr(models, name).__table__.name for name in lobby._GAME_ROWS}
    assert pointing <= listed, pointing - listed
