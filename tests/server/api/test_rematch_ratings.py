"""Issue 27 item 6 through the API: a rematch offered, accepted (a new game with the same options
and the roles swapped, or kept), withdrawn; ratings per role after a finished game (winner up,
loser down, each side its own pool), rated once however often its task runs, a bot rated;
the ladder and a player's ratings; the OpenAPI document lists the endpoints."""

from __future__ import annotations

import pytest
from sqlmodel import select

from server.models import Game, OutboxMessage, RatedGame, Rating, Seat
from server.services import ratings
from tests.security.test_rating_farming import play
from tests.server.api.helpers import is_problem


def _finished(client, store, a, b, options=None) -> int:
    gid = client.two_player_game(store, a, b, seed="rematch-1", options=options)
    r = client.post(f"/games/{gid}/resign", b)       # Nixon (b) resigns: Kennedy (a) wins
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["result"]["winner"] == "kennedy"
    return gid


def _rated(client, store, a, b) -> int:
    """A public game both sides played (a rated one: services/ratings.py), Nixon (b) resigns."""
    gid = client.two_player_game(store, a, b, seed="rematch-1", public=True)
    play(store, gid)
    r = client.post(f"/games/{gid}/resign", b)
    assert r.status_code == 200 and r.get_json()["result"]["winner"] == "kennedy"
    return gid


def _texts(messages) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in messages]


def _seats(store, gid) -> dict[str, int | None]:
    with store.session() as s:
        return {r.seat: r.user_id for r in s.exec(select(Seat).where(Seat.game_id == gid))}


def test_rematch_offered_accepted_swaps_the_roles_and_keeps_the_options(client, store,
                                                                         players, mail_server):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _finished(client, store, ann, bob, options={"edition": "zman"})
    r = client.post(f"/games/{gid}/rematch", ann, json={})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"game_id": gid, "status": "open", "swap": True,
                            "accepted": ["kennedy"], "waiting_for": ["nixon"],
                            "new_game_id": None}
    offered = _texts(mail_server.wait_for_to(bob.email, 3))
    assert any("Ann" in t and "offers a rematch of game" in t for t in offered), offered
    r = client.post(f"/games/{gid}/rematch/accept", bob)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["status"] == "made" and body["accepted"] == ["kennedy", "nixon"]
    new = store.game(body["new_game_id"])
    old = store.game(gid)
    assert new.status == "active" and new.game_type == old.game_type
    assert new.options == old.options and new.decision_hours == old.decision_hours
    assert new.seed != old.seed
    assert _seats(store, new.id) == {"kennedy": bob.id, "nixon": ann.id}
    # A second accept or offer: the rematch is made already.
    is_problem(client.post(f"/games/{gid}/rematch", bob, json={}), 409)
    shown = client.get(f"/games/{gid}/rematch", ann).get_json()
    assert shown["new_game_id"] == new.id


def test_a_second_offer_joins_the_first_and_kept_roles_stay(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _finished(client, store, ann, bob)
    assert client.post(f"/games/{gid}/rematch", bob, json={"swap": False}).status_code == 200
    r = client.post(f"/games/{gid}/rematch", ann, json={"swap": True})  # joins Bob's offer
    body = r.get_json()
    assert body["status"] == "made" and body["swap"] is False
    assert _seats(store, body["new_game_id"]) == {"kennedy": ann.id, "nixon": bob.id}


def test_an_offer_withdrawn_and_the_refusals(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    eve = client.signup("eve@example.org", "Eve")
    gid = _finished(client, store, ann, bob)
    is_problem(client.post(f"/games/{gid}/rematch/accept", bob), 409)     # nothing offered
    assert client.post(f"/games/{gid}/rematch", ann, json={}).status_code == 200
    is_problem(client.post(f"/games/{gid}/rematch", eve, json={}), 404)   # private game
    r = client.delete(f"/games/{gid}/rematch", ann)
    assert r.status_code == 200 and r.get_json()["status"] == "withdrawn"
    body = is_problem(client.post(f"/games/{gid}/rematch/accept", bob), 409)
    assert "No rematch is offered" in body["detail"]
    with store.session() as s:
        assert s.exec(select(Game)).all()[-1].id == gid                 # no game made
    is_problem(client.post(f"/games/{gid}/rematch", ann, json={"swap": "maybe"}), 422)
    # A game in play cannot be rematched.
    other = client.two_player_game(store, ann, bob)
    body = is_problem(client.post(f"/games/{other}/rematch", ann, json={}), 409)
    assert "once the game is over" in body["detail"]


def test_ratings_after_a_finished_game_per_role(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    _rated(client, store, ann, bob)
    ladder = client.get("/ratings?game=tmotp").get_json()
    by = {(e["role"], e["player"]): e for e in ladder}
    fresh = ratings.MODEL.rating()
    assert by[("kennedy", "Ann")]["mu"] > fresh.mu > by[("nixon", "Bob")]["mu"]
    assert by[("kennedy", "Ann")]["wins"] == 1 and by[("nixon", "Bob")]["wins"] == 0
    assert set(by) == {("kennedy", "Ann"), ("nixon", "Bob")}   # each only in its side's pool
    # The rematch, roles swapped: Ann now plays Nixon and wins again; her Kennedy rating stays.
    gid2 = client.two_player_game(store, bob, ann, public=True)    # Bob Kennedy, Ann Nixon
    play(store, gid2)
    assert client.post(f"/games/{gid2}/resign", bob).status_code == 200
    mine = client.get(f"/users/{ann.id}/ratings").get_json()
    roles = {e["role"]: e for e in mine["ratings"]}
    assert set(roles) == {"kennedy", "nixon"} and mine["player"] == "Ann"
    assert roles["kennedy"]["mu"] == by[("kennedy", "Ann")]["mu"]
    assert roles["nixon"]["mu"] > fresh.mu and roles["nixon"]["rank"] == 1
    only = client.get("/ratings?game=tmotp&role=nixon").get_json()
    assert [e["player"] for e in only] == ["Ann", "Bob"]
    assert [e["rank"] for e in only] == [1, 2]
    is_problem(client.get("/ratings?game=chess"), 422)
    is_problem(client.get("/ratings"), 422)
    is_problem(client.get("/users/999999/ratings"), 404)


def test_a_game_is_rated_once_however_often_its_task_runs(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _rated(client, store, ann, bob)
    with store.session() as s:
        before = sorted((r.player, r.mu, r.sigma, r.games) for r in s.exec(select(Rating)))
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "rate_game")).all()
        assert [r.payload["game_id"] for r in rows] == [gid]
        assert rows[0].delivered_at is not None                      # consumed by its task
        assert s.get(RatedGame, gid).changes[0]["before"]["mu"] == ratings.MODEL.rating().mu
    with store.session() as s:
        assert ratings.rate(s, gid, rows[0].id) is False      # its task again (the relay's)
        assert ratings.rate(s, gid) is False
        after = sorted((r.player, r.mu, r.sigma, r.games) for r in s.exec(select(Rating)))
    assert after == before and all(r[3] == 1 for r in after)


def test_a_bot_is_rated_as_a_player_of_its_own(client, store):
    ann = client.signup("ann@example.org", "Ann")
    r = client.post("/games", ann, json={"game_type": "tmotp", "seats": {"kennedy": ann.email},
                                         "bots": {"nixon": "random"}, "public": True})
    gid = r.get_json()["game"]["id"]
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    play(store, gid)
    assert client.post(f"/games/{gid}/resign", ann).status_code == 200   # the bot wins
    ladder = {e["role"]: e for e in client.get("/ratings?game=tmotp").get_json()}
    assert ladder["nixon"]["bot"] == "random" and ladder["nixon"]["user_id"] is None
    assert ladder["nixon"]["mu"] > ladder["kennedy"]["mu"]
    # A rematch against a bot: the one person swaps seats with the bot, which keeps its level.
    body = client.post(f"/games/{gid}/rematch", ann, json={}).get_json()
    assert body["status"] == "made"                          # nobody else to ask
    new = store.game(body["new_game_id"])
    assert new.bots == {"kennedy": "random"} and _seats(store, new.id)["nixon"] == ann.id


def test_mr_president_rates_per_number_of_candidates(client, store):
    a, b, c = (client.signup(f"{n}@example.org", n.title()) for n in ("ann", "bob", "cat"))
    r = client.post("/games", a, json={"game_type": "mrpresident", "options": {"players": 3},
                                       "seats": {"p1": a.email, "p2": b.email,
                                                 "p3": c.email}, "public": True})
    gid = r.get_json()["game"]["id"]
    for p in (b, c):
        assert client.post(f"/games/{gid}/join", p, json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", a).status_code == 200
    play(store, gid)
    assert client.post(f"/games/{gid}/resign", c).status_code == 200   # no winner; Cat last
    ladder = client.get("/ratings?game=mrpresident").get_json()
    assert {e["role"] for e in ladder} == {"3 candidates"}
    mu = {e["player"]: e["mu"] for e in ladder}
    assert mu["Ann"] == mu["Bob"] > mu["Cat"]


def test_openapi_lists_the_rematch_and_ratings_endpoints(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    assert {"post", "get", "delete"} <= set(paths["/api/v1/games/{game_id}/rematch"])
    assert "post" in paths["/api/v1/games/{game_id}/rematch/accept"]
    assert "get" in paths["/api/v1/ratings"]
    assert "get" in paths["/api/v1/users/{user_id}/ratings"]


def test_a_game_played_to_its_end_is_rated_and_its_bots_too(client, store):
    """A game the engine ends (not a resignation): two bots of Mr. President play it out
    (Celery runs eagerly: each bot's task runs as its row is published)."""
    ann = client.signup("ann@example.org", "Ann")
    r = client.post("/games", ann, json={"game_type": "mrpresident",
                                         "options": {"players": 2, "edition": "chalkboard"},
                                         "seats": {}, "bots": {"p1": "random", "p2": "greedy"},
                                         "public": True})
    gid = r.get_json()["game"]["id"]
    store.set_seed(gid, "rated-by-the-engine")
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    game = store.game(gid)
    assert game.status == "finished" and game.result["termination"] not in ("resigned",
                                                                            "forfeited")
    ladder = {e["bot"]: e for e in client.get("/ratings?game=mrpresident").get_json()}
    assert set(ladder) == {"random", "greedy"} and {e["role"] for e in ladder.values()} == {
        "2 candidates"}
    winner = game.result["winner"]
    won, lost = ("random", "greedy") if winner == "p1" else ("greedy", "random")
    assert winner is not None                   # every Mr. President game has one
    assert ladder[won]["mu"] > ladder[lost]["mu"] and ladder[won]["wins"] == 1


def test_what_others_see_of_a_rematch_and_the_ratings(client, store, players):
    """A private game's rematch is nobody else's business; ratings name players by the name
    they chose, never by their address; a rematch link works for its own game only."""
    ann, bob = players["kennedy"], players["nixon"]
    eve = client.signup("eve@example.org", "")
    gid = _finished(client, store, ann, bob)
    assert client.post(f"/games/{gid}/rematch", ann, json={}).status_code == 200
    is_problem(client.get(f"/games/{gid}/rematch", eve), 404)
    is_problem(client.delete(f"/games/{gid}/rematch", eve), 404)
    is_problem(client.post(f"/games/{gid}/rematch/accept", eve), 404)
    for path in ("/ratings?game=tmotp", f"/users/{ann.id}/ratings", f"/users/{eve.id}/ratings"):
        assert "@" not in client.get(path).get_data(as_text=True)
    assert client.get(f"/users/{eve.id}/ratings").get_json() == {
        "user_id": eve.id, "player": f"Player {eve.id}", "ratings": []}
    from server.services import rematch
    from server.services.lobby import LobbyError
    token = rematch.make_token("s" * 32, gid, bob.id, "accept")
    with store.session() as s:
        with pytest.raises(LobbyError, match="not for this game"):
            rematch.read_token(s, "s" * 32, token, gid + 1, 3600)
        assert rematch.read_token(s, "s" * 32, token, gid, 3600)[:2] == (bob.id, "accept")


def test_a_forfeited_game_is_rated_and_may_be_played_again(client, store, players):
    """A missed deadline where the game forfeits (the sweeper ends it through lobby.resign)."""
    from server.services import lobby
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob, public=True)
    play(store, gid)
    with client.tc.application.app_context(), store.session() as s:   # its tasks run inline
        game = lobby.resign(s, gid, "kennedy", forfeit=True)
        assert game.result["termination"] == "forfeited" and game.result["winner"] == "nixon"
    ladder = {e["role"]: e for e in client.get("/ratings?game=tmotp").get_json()}
    assert ladder["nixon"]["player"] == "Bob" and ladder["nixon"]["wins"] == 1
    assert ladder["nixon"]["mu"] > ladder["kennedy"]["mu"]
    assert client.post(f"/games/{gid}/rematch", bob, json={}).get_json()["status"] == "open"
