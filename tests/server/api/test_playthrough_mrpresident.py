"""Mr. President through the API: three (and four) players open, join and start a game, then
answer GET /decision with random legal orders until it ends. Every round is a sealed step of
every seat, resolved once the last one commits; the log then rebuilds the cached state and no
answer to one seat shows another's hand or sealed cards."""

from __future__ import annotations

import json
import random

import pytest

from tests.server.api.test_playthrough import play_to_the_end

EMAILS = ("barry@example.org", "lyndon@example.org", "george@example.org", "hubert@example.org")


def _open(client, store, options, seed):
    players = {f"p{i + 1}": client.signup(email, email.split("@")[0].title())
               for i, email in enumerate(EMAILS[:options["players"]])}
    body = client.open_game(players["p1"], {seat: p.email for seat, p in players.items()},
                            options=options, game_type="mrpresident")
    gid = body["game"]["id"]
    store.set_seed(gid, seed)
    for seat, player in players.items():
        if seat != "p1":
            assert client.post(f"/games/{gid}/join", player, json={}).status_code == 200
    r = client.post(f"/games/{gid}/start", players["p1"])
    assert r.status_code == 200, r.get_json()
    return gid, players


@pytest.mark.parametrize("options", [
    {"edition": "dial", "players": 3, "version": "short"},
    {"edition": "chalkboard", "players": 3, "plurality": True},
    {"edition": "chalkboard", "players": 4, "nominee": True, "plurality": True},
], ids=["dial-3", "chalkboard-3", "nominee-4"])
def test_a_whole_mr_president_game_through_the_api(client, store, options):
    gid, players = _open(client, store, options, "mp-api-1")
    sealed_seen = []

    def check(seat, response):
        body = response.get_json()
        text = json.dumps(body)
        state = store.state(gid)
        if state.s["stack"]:
            for other in state.s["seats"]:
                if other != seat and state.s["hands"][other]:
                    assert json.dumps({other: sorted(state.s["hands"][other])}) not in text
        if body.get("sealed"):
            sealed_seen.append(seat)

    game = play_to_the_end(client, gid, players, random.Random(5), check=check)
    assert game["result"]["winner"] in players
    assert store.rebuild(gid)
    assert len(sealed_seen) >= 12
    log = client.get(f"/games/{gid}/log", players["p2"]).get_json()
    assert log["complete"] is True and log["game_type"] == "mrpresident"


def test_the_game_tells_how_many_have_sealed_their_cards_never_who(client, store):
    """The engine learns sealed orders only when the round resolves: the view the API shows
    counts the server's sealed orders ("1 of 3"), and names nobody."""
    gid, players = _open(client, store, {"edition": "dial", "players": 3}, "mp-api-count")
    decision = client.get(f"/games/{gid}/decision", players["p1"]).get_json()
    r = client.post(f"/games/{gid}/orders", players["p1"],
                    json={"step": decision["step"], "action": "play 13"})
    assert r.status_code == 202 and r.get_json()["sealed"]
    for seat in ("p2", "p3"):
        view = client.get(f"/games/{gid}", players[seat]).get_json()["view"]
        assert view["committed"] == 1 and view["deciding"] == 3
        assert view["plays"] == {} and all(who != "p1" for who, _ in view["log"])
