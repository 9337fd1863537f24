"""A whole game through the API: two players sign up, open, join and start a game, then answer
GET /decision with random legal orders until it ends; the log then verifies against the seed."""

from __future__ import annotations

import hashlib
import random

from engine.core import replay



def play_to_the_end(client, gid, players, rng, check=None, limit=3000):
    """Answer every open decision of both seats with a random legal order; return the game."""
    for _ in range(limit):
        progressed = False
        for seat, player in players.items():
            r = client.get(f"/games/{gid}/decision", player)
            assert r.status_code == 200
            decision = r.get_json()
            if check:
                check(seat, r)
            if not decision["active"]:
                if decision.get("held_until"):  # the other's move may be taken back: see it
                    assert client.post(f"/games/{gid}/show-move", player).status_code == 200
                    progressed = True
                continue
            action = rng.choice(decision["legal_actions"])
            r = client.post(f"/games/{gid}/orders", player,
                            json={"step": decision["step"], "action": action})
            assert r.status_code in (200, 202), r.get_json()
            if check:
                check(seat, r)
            body = r.get_json()
            if r.status_code == 200:
                assert body["applied"] == [action] and body["stopped_at"] is None
                assert body["step"] == decision["step"] + 1
            else:
                assert body["sealed"] and body["your_order"] == [action]
            progressed = True
        if not progressed:  # nobody is asked anything: the game must be over
            game = client.get(f"/games/{gid}", next(iter(players.values()))).get_json()
            assert game["status"] == "finished"
            return game
    raise AssertionError("the game did not end")


def test_a_whole_game_through_the_api(client, store):
    a, b = client.signup("ann@example.org", "Ann"), client.signup("bob@example.org", "Bob")
    gid = client.two_player_game(store, a, b, seed="playthrough-1")
    game = play_to_the_end(client, gid, {"kennedy": a, "nixon": b}, random.Random(11))

    assert game["result"]["winner"] in ("kennedy", "nixon") and game["result"]["reason"]
    assert game["seed"] == "playthrough-1"
    assert game["seed_hash"] == hashlib.sha256(b"playthrough-1").hexdigest()
    assert store.rebuild(gid)  # the log rebuilds the cached state exactly

    log = client.get(f"/games/{gid}/log", b).get_json()
    assert log["complete"] is True and log["seed"] == "playthrough-1"
    assert log["seed_hash"] == game["seed_hash"] and log["game_type"] == "tmotp"
    assert [e["seq"] for e in log["entries"]] == list(range(len(log["entries"])))
    assert any(e["chance"] for e in log["entries"])
    # What `whistlestop verify --file` does with this document: replay it from the seed.
    final = replay(log["game_type"], log["seed"],
                   [[e["seat"], e["action"]] for e in log["entries"]], options=log["options"])
    assert final.to_dict() == store.state(gid).to_dict()  # the cached state and its history
    assert final.outcome().winner == game["result"]["winner"]

    r = client.post(f"/games/{gid}/orders", a, json={"step": game["step"], "action": "pass"})
    assert r.status_code == 422 and r.get_json()["detail"] == "The game is over."
