"""Games: open, list, show, join, start, decision, log, resign, spectate, and who may see what."""

from __future__ import annotations

import hashlib

import pytest

from server.models import User
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


def test_open_a_game_answers_it_and_each_seats_code_once(client, ann, bob):
    r = client.post("/games", ann, json={
        "game_type": "tmotp", "options": {"edition": "zman", "vp_cards": True},
        "seats": {"kennedy": "ANN@example.org", "nixon": None}, "public": True})
    assert r.status_code == 201
    body = r.get_json()
    game = body["game"]
    assert set(body["invitations"]) == {"kennedy", "nixon"}
    assert game["status"] == "open" and game["step"] == 0 and game["public"] is True
    assert game["options"] == {"edition": "zman", "vp_cards": True}
    assert game["seats"] == [
        {"seat": "kennedy", "player": "Ann", "joined": True, "invited": True, "bot": None},
        {"seat": "nixon", "player": None, "joined": False, "invited": False, "bot": None}]
    assert game["your_seat"] == "kennedy" and game["role"] == "player"
    assert game["seed"] is None and len(game["seed_hash"]) == 64 and game["view"] is None
    assert game["creator"] == "Ann" and "state" not in game
    # The code is shown once: the game itself never shows it again.
    again = client.get(f"/games/{game['id']}", ann).get_data(as_text=True)
    assert body["invitations"]["nixon"] not in again

    r = client.post(f"/games/{game['id']}/join", bob, json={"code": body["invitations"]["nixon"]})
    assert r.status_code == 200 and r.get_json()["your_seat"] == "nixon"


@pytest.mark.parametrize("payload, field", [
    ({"game_type": "tmotp", "options": {"edition": "deluxe"}, "seats": {}}, "options"),
    ({"game_type": "tmotp", "options": {"colour": "red"}, "seats": {}}, "options"),
    ({"game_type": "tmotp", "seats": {"kennedy": "not-mail", "nixon": None}}, "seats"),
    ({"game_type": "tmotp", "seats": {"kennedy": None}, "public": "perhaps"}, "public"),
    ({"seats": {"kennedy": None, "nixon": None}}, "game_type"),
    ({"game_type": "chess", "seats": {"white": None, "black": None}}, "game_type"),
    # Values of another JSON type than the document says, once taken (found by Schemathesis,
    # tests/security/test_schemathesis_live.py): a number for a boolean, a fraction for a count.
    ({"game_type": "tmotp", "seats": {"kennedy": None, "nixon": None}, "public": 1}, "public"),
    ({"game_type": "tmotp", "seats": {"kennedy": None, "nixon": None},
      "options": {"vp_cards": "yes"}}, "options"),
    ({"game_type": "tmotp", "seats": {"kennedy": None, "nixon": None},
      "bot_delay_seconds": 2.5e-42}, "bot_delay_seconds"),
    ({"game_type": "tmotp", "seats": {"kennedy": None, "nixon": None},
      "timing": {"decision_hours": 1.0}}, "timing"),
])
def test_open_a_game_with_a_malformed_body_is_422(client, ann, payload, field):
    body = is_problem(client.post("/games", ann, json=payload), 422)
    assert field in body["errors"]["json"]


@pytest.mark.parametrize("payload, words", [
    ({"game_type": "tmotp", "seats": {"kennedy": None}}, "The seats of tmotp are kennedy, nixon"),
    ({"game_type": "tmotp", "seats": {"kennedy": "a@x.org", "nixon": "A@x.org"}},
     "One person cannot take two seats"),
])
def test_open_a_game_the_game_does_not_have_is_422(client, ann, payload, words):
    body = is_problem(client.post("/games", ann, json=payload), 422)
    assert body["type"].endswith("/problems/invalid-options") and words in body["detail"]


def test_join_start_and_show_the_game_to_each_seat(client, store, ann, bob):
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email})["game"]["id"]
    assert client.get("/games", bob).get_json()[0]["role"] == "invited"
    body = is_problem(client.post(f"/games/{gid}/start", ann), 409)
    assert "still open: nixon" in body["detail"]
    r = client.post(f"/games/{gid}/join", bob, json={})
    assert r.status_code == 200 and r.get_json()["your_seat"] == "nixon"
    # issue 47: the last seat taken, the game began by itself
    assert r.get_json()["status"] == "active" and r.get_json()["step"] == 1
    body = is_problem(client.post(f"/games/{gid}/join", bob, json={}), 409)
    assert "already have a seat" in body["detail"]
    body = is_problem(client.post(f"/games/{gid}/start", bob), 403)
    assert body["detail"] == "Only the game's creator can start it."
    for _ in range(2):      # the creator's start changes nothing: it began already
        r = client.post(f"/games/{gid}/start", ann)
        assert r.status_code == 200
        assert r.get_json()["status"] == "active" and r.get_json()["step"] == 1

    state = store.state(gid)
    for player, seat, opp in ((ann, "kennedy", "nixon"), (bob, "nixon", "kennedy")):
        game = client.get(f"/games/{gid}", player).get_json()
        assert game["your_seat"] == seat and game["seed"] is None
        assert game["seed_hash"] == store.game(gid).seed_hash
        assert game["view"]["seat"] == seat
        assert game["view"]["hands"] == {seat: state.s["hands"][seat]}
        assert game["view"]["hand_sizes"][opp] == len(state.s["hands"][opp])
        assert game["your_move"] == (seat in state.active())
        assert [s["player"] for s in game["seats"]] == ["Ann", "Bob"]
    listed = client.get("/games", ann).get_json()
    assert [(g["id"], g["status"]) for g in listed] == [(gid, "active")]
    assert "view" not in listed[0]
    assert client.get("/games?status=open", ann).get_json() == []
    assert len(client.get("/games?status=active", bob).get_json()) == 1
    body = is_problem(client.get("/games?status=paused", ann), 422)
    assert "status" in body["errors"]["query"]


def test_your_move_in_the_list_follows_the_decision(client, store, ann, bob):
    gid = client.two_player_game(store, ann, bob, seed="your-move")
    active = store.state(gid).active()
    for player, seat in ((ann, "kennedy"), (bob, "nixon")):
        mine = client.get("/games", player).get_json()[0]
        decision = client.get(f"/games/{gid}/decision", player).get_json()
        assert mine["your_move"] == decision["active"] == (seat in active)


def test_a_game_opened_to_start_by_hand_waits_for_its_creator(client, store, ann, bob):
    r = client.post("/games", ann, json={"game_type": "tmotp", "start_by_hand": True,
                                         "seats": {"kennedy": ann.email, "nixon": bob.email}})
    gid = r.get_json()["game"]["id"]
    joined = client.post(f"/games/{gid}/join", bob, json={}).get_json()
    assert joined["status"] == "open" and store.game(gid).status == "open"
    started = client.post(f"/games/{gid}/start", ann)
    assert started.status_code == 200 and started.get_json()["status"] == "active"
    assert "already started" in is_problem(client.post(f"/games/{gid}/start", ann),
                                           409)["detail"]


def test_a_game_whose_other_seats_are_bots_starts_at_once(client, store, ann):
    r = client.post("/games", ann, json={"game_type": "tmotp", "bots": {"nixon": "random"},
                                         "seats": {"kennedy": ann.email}})
    assert r.status_code == 201 and r.get_json()["game"]["status"] == "active"


def test_random_side_draws_the_creators_seat(client, store, ann, bob):
    from server.services import lobby
    r = client.post("/games", ann, json={
        "game_type": "tmotp", "random_side": True, "start_by_hand": True,
        "seats": {"kennedy": ann.email, "nixon": bob.email}})
    assert r.status_code == 201, r.get_json()
    seats = {s["seat"]: s for s in r.get_json()["game"]["seats"]}
    mine = r.get_json()["game"]["your_seat"]
    other = "nixon" if mine == "kennedy" else "kennedy"
    assert seats[mine]["joined"] and seats[other]["invited"] and not seats[other]["joined"]
    with store.session() as session:
        creator = session.get(User, ann.id)
        drawn = {next(s for s, e in lobby._random_side(
            {"kennedy": ann.email, "nixon": bob.email}, {}, creator).items()
            if e == ann.email) for _ in range(64)}
        assert drawn == {"kennedy", "nixon"}       # both sides come up (a miss: 2 ** -63)
        assert lobby._random_side({"kennedy": ann.email, "nixon": None}, {"nixon": "random"},
                                  creator) == {"kennedy": ann.email, "nixon": None}


def test_join_refusals(client, store, ann, bob, eve):
    # Nixon's seat is kept for Bob: a public game's free seat nobody is invited to would be
    # anybody's (tests/server/api/test_public_seats.py).
    opened = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email}, public=True,
                              start_by_hand=True)
    gid, code = opened["game"]["id"], opened["invitations"]["nixon"]
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={}), 403)
    assert "not invited" in body["detail"]
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={"code": "wrong"}), 403)
    assert "opens no seat" in body["detail"]
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={"code": code,
                                                                    "seat": "kennedy"}), 422)
    assert "not for the seat 'kennedy'" in body["detail"]
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    # A code is used up by the seat it opened (issue 45, L4): it opens nothing after.
    body = is_problem(client.post(f"/games/{gid}/join", eve, json={"code": code}), 403)
    assert "opens no seat" in body["detail"]
    is_problem(client.post(f"/games/{gid}/join", eve, json={"code": ""}), 422)


def test_a_private_game_is_a_404_identical_to_a_missing_game(client, store, ann, bob, eve):
    opened = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email})
    gid = opened["game"]["id"]
    code = opened["invitations"]["nixon"]
    missing = gid + 1000
    requests = [
        ("get", "/games/{}", None), ("get", "/games/{}/log", None),
        ("get", "/games/{}/decision", None), ("post", "/games/{}/join", {}),
        ("post", "/games/{}/join", {"code": "a-guess"}), ("post", "/games/{}/start", None),
        ("post", "/games/{}/resign", None), ("post", "/games/{}/spectate", None),
        ("post", "/games/{}/orders", {"step": 1, "action": "pass"}),
    ]

    def answers(status):
        out = []
        for method, path, payload in requests:
            for who in (eve, None):
                if method == "post" and who is None:
                    continue
                kwargs = {"json": payload} if method == "post" else {}
                private = getattr(client, method)(path.format(gid), who, **kwargs)
                absent = getattr(client, method)(path.format(missing), who, **kwargs)
                if who is None and path in ("/games/{}/decision",):
                    assert private.status_code == absent.status_code == 401
                    continue
                is_problem(private, 404)
                assert private.get_data() == absent.get_data()
                assert dict(private.headers) == dict(absent.headers)
                out.append(private.get_data())
        return out

    assert len(set(answers(404))) == 1  # one answer for everything, before the start...
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    assert len(set(answers(404))) == 1  # ...and during play
    assert client.get(f"/games/{gid}", bob).status_code == 200
    assert client.get("/games/public", eve).get_json() == []


def test_public_games_anyone_may_follow(client, store, ann, bob, eve):
    gid = client.two_player_game(store, ann, bob, public=True)
    private = client.two_player_game(store, ann, bob)
    for who in (None, eve):
        listed = client.get("/games/public", who).get_json()
        assert [g["id"] for g in listed] == [gid]
        game = client.get(f"/games/{gid}", who).get_json()
        assert game["your_seat"] is None and game["role"] == "visitor"
        assert game["view"]["seat"] is None and game["view"]["hands"] == {}
        log = client.get(f"/games/{gid}/log", who).get_json()
        assert log["complete"] is False and log["seed"] is None and log["entries"]
    assert client.get("/games/public?status=finished", None).get_json() == []
    is_problem(client.get("/games/public?status=nope"), 422)
    assert {g["id"] for g in client.get("/games", ann).get_json()} == {gid, private}
    # A visitor may look but not act.
    body = is_problem(client.get(f"/games/{gid}/decision", eve), 403)
    assert "no seat" in body["detail"]
    is_problem(client.post(f"/games/{gid}/resign", eve), 403)
    is_problem(client.post(f"/games/{gid}/start", eve), 403)


def test_spectate_a_public_game_and_see_only_the_public_view(client, store, ann, bob, eve):
    gid = client.two_player_game(store, ann, bob, public=True)
    r = client.post(f"/games/{gid}/spectate", eve)
    assert r.status_code == 200
    game = r.get_json()
    assert game["role"] == "spectator" and game["view"]["hands"] == {}
    assert game["view"]["strategy"] == {} and game["view"]["seat"] is None
    assert client.post(f"/games/{gid}/spectate", eve).status_code == 200  # again: no change
    mine = client.get("/games", eve).get_json()
    assert [(g["id"], g["role"], g["your_move"]) for g in mine] == [(gid, "spectator", False)]
    # A player spectating stays a player.
    assert client.post(f"/games/{gid}/spectate", ann).get_json()["role"] == "player"


def test_invited_and_creator_may_see_a_private_game(client, store, ann, bob, eve):
    opened = client.open_game(ann, {"kennedy": None, "nixon": bob.email})
    gid = opened["game"]["id"]
    game = client.get(f"/games/{gid}", ann).get_json()
    assert game["role"] == "creator" and game["your_seat"] is None
    assert client.get(f"/games/{gid}", bob).get_json()["role"] == "invited"
    r = client.post(f"/games/{gid}/spectate", bob)
    assert r.status_code == 200
    # Eve gets the code from Ann: the code shows her the game.
    r = client.post(f"/games/{gid}/join", eve, json={"code": opened["invitations"]["kennedy"]})
    assert r.status_code == 200 and r.get_json()["your_seat"] == "kennedy"


def test_the_log_during_play_and_after_the_end(client, store, ann, bob):
    gid = client.two_player_game(store, ann, bob, seed="log-seed")
    state = store.state(gid)
    log = client.get(f"/games/{gid}/log", ann).get_json()
    assert set(log) == {"game_id", "game_type", "options", "seed_hash", "seed", "complete",
                        "entries"}
    assert log["game_id"] == gid and log["game_type"] == "tmotp" and log["options"] == {}
    assert log["seed"] is None and log["complete"] is False
    assert log["seed_hash"] == hashlib.sha256(b"log-seed").hexdigest()
    assert len(log["entries"]) == len(state.s["log"])
    assert set(log["entries"][0]) == {"seq", "seat", "action", "chance"}
    deals_to_bob = [e for e in state.s["log"] if e[1].startswith("deal nixon ")]
    assert deals_to_bob
    texts = [e["action"] for e in log["entries"]]
    assert not any(e[1] in texts for e in deals_to_bob)  # redacted for Ann
    assert "deal nixon" in texts

    r = client.post(f"/games/{gid}/resign", bob)
    assert r.status_code == 200
    game = r.get_json()
    assert game["status"] == "finished" and game["seed"] == "log-seed"
    assert game["result"]["winner"] == "kennedy" and game["result"]["resigned"] == "nixon"
    assert game["result"]["termination"] == "resigned"
    full = client.get(f"/games/{gid}/log", ann).get_json()
    assert full["complete"] is True and full["seed"] == "log-seed"
    assert [[e["seat"], e["action"]] for e in full["entries"]] == [list(e) for e in state.s["log"]]
    body = is_problem(client.post(f"/games/{gid}/resign", ann), 409)
    assert "Only a game in play" in body["detail"]
    decision = client.get(f"/games/{gid}/decision", ann).get_json()
    assert decision["active"] is False and decision["legal_actions"] == []


def test_resign_refusals(client, store, ann, bob, eve):
    opened = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email}, public=True)
    gid = opened["game"]["id"]
    is_problem(client.post(f"/games/{gid}/resign", ann), 409)  # not started yet
    is_problem(client.post(f"/games/{gid}/resign", eve), 403)  # not a player
