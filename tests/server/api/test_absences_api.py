"""Departed and vanished players through the API (issue 46, item 1; server/api/absences.py):
the absent seats and the caller's choices, each choice in 1960 (claim, end, bot, replace and
the replacement taking the seat) and in Mr. President with three and four seats (a bot at
once, end needs everyone, replace, no claim), a silent player coming back, and every refusal
a problem in words with what may be chosen instead, changing nothing."""

from __future__ import annotations

import pytest
from sqlmodel import select

from server.models import Game, OutboxMessage
from server.services import bots
from tests.server.api.absence_setup import absence, goes_silent, leaves, mrpresident, seat_user
from tests.server.api.helpers import PROBLEM

PATHS = {"/api/v1/games/{game_id}/absences": {"get"},
         "/api/v1/games/{game_id}/absences/{seat}": {"post"},
         "/api/v1/games/{game_id}/take-seat": {"post"},
         "/api/v1/games/{game_id}/come-back": {"post"}}


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch):
    """The strongest bot (the one an absent seat is handed to) on a test's budget."""
    monkeypatch.setitem(bots.BUDGETS, "strong", {"iterations": 6})


def _refused(r, status: int, words: str, allowed: list[str] | None = None) -> dict:
    body = r.get_json()
    assert r.status_code == status and r.mimetype == PROBLEM, (r.status_code, body)
    assert words in body["detail"], body["detail"]
    if allowed is not None:
        assert body["allowed"] == allowed
    return body


def _1960(client, store, players, public=False):
    return client.two_player_game(store, players["kennedy"], players["nixon"],
                                  seed="absence-api", public=public)


def test_the_endpoints_are_documented(client):
    spec = client.get("/openapi.json").get_json()
    for path, methods in PATHS.items():
        for method in methods:
            operation = spec["paths"][path][method]
            assert operation.get("description") or operation.get("summary")
            assert "200" in operation["responses"]
    choose = spec["paths"]["/api/v1/games/{game_id}/absences/{seat}"]["post"]
    assert {"400", "403", "404", "409", "410"} <= set(choose["responses"])
    text = choose["description"] + choose["summary"]
    assert "forfeit" in text and "unrated" in text
    assert "absences" in {t["name"] for t in spec["tags"]}
    assert client.get("/problems/absence-refused").status_code == 200


def test_nothing_absent_is_an_empty_list_and_a_choice_is_refused(client, players, store):
    gid = _1960(client, store, players)
    body = client.get(f"/games/{gid}/absences", players["kennedy"]).get_json()
    assert body == {"your_seat": "kennedy", "absent_after_missed": 2, "absences": [],
                    "come_back": False}
    r = client.post(f"/games/{gid}/absences/nixon", players["kennedy"], json={"choice": "claim"})
    _refused(r, 409, "No seat of this game is waiting")


def test_claim_the_win_over_a_player_who_left(client, players, store):
    gid = _1960(client, store, players)
    leaves(store.engine, players["nixon"].id, "bob@example.org")
    [shown] = client.get(f"/games/{gid}/absences", players["kennedy"]).get_json()["absences"]
    assert shown["seat"] == "nixon" and shown["reason"] == "left" and shown["bot"] is None
    assert shown["choices"] == ["claim", "end", "bot", "replace"]
    r = client.post(f"/games/{gid}/absences/nixon", players["kennedy"], json={"choice": "claim"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["done"] == "claimed" and r.get_json()["absences"] == []
    game = store.game(gid)
    assert game.status == "finished" and game.result["winner"] == "kennedy"
    assert game.result["rated"] is True
    again = client.post(f"/games/{gid}/absences/nixon", players["kennedy"],
                        json={"choice": "end"})
    assert _refused(again, 410, "settled already", [])["settled"] == "claimed"


def test_end_a_two_player_game_at_once_unrated(client, players, store):
    gid = _1960(client, store, players)
    goes_silent(store.engine, gid, "nixon")
    [shown] = client.get(f"/games/{gid}/absences", players["kennedy"]).get_json()["absences"]
    assert shown["reason"] == "silent" and shown["missed"] == 2
    r = client.post(f"/games/{gid}/absences/nixon", players["kennedy"], json={"choice": "end"})
    assert r.get_json()["done"] == "ended"
    game = store.game(gid)
    assert game.status == "finished" and game.result["winner"] is None
    assert game.result["rated"] is False


def test_hand_the_seat_to_a_bot_then_the_silent_player_comes_back(client, players, store):
    gid = _1960(client, store, players)
    goes_silent(store.engine, gid, "nixon")
    r = client.post(f"/games/{gid}/absences/nixon", players["kennedy"], json={"choice": "bot"})
    assert r.status_code == 200 and r.get_json()["done"] == "bot"
    [shown] = r.get_json()["absences"]
    assert shown["bot"] == "strong" and shown["bot_by"] == "kennedy"
    assert shown["choices"] == ["end", "replace"]       # no claim while a bot plays it
    assert store.game(gid).bots == {"nixon": "strong"}
    again = client.post(f"/games/{gid}/absences/nixon", players["kennedy"],
                        json={"choice": "bot"})
    _refused(again, 409, "A bot already plays this seat", ["end", "replace"])
    claim = client.post(f"/games/{gid}/absences/nixon", players["kennedy"],
                        json={"choice": "claim"})
    _refused(claim, 409, "claimed only in a two-player game", ["end", "replace"])
    mine = client.get(f"/games/{gid}/absences", players["nixon"]).get_json()
    assert mine["come_back"] is True and mine["absences"][0]["choices"] == []
    assert client.post(f"/games/{gid}/come-back", players["kennedy"]).status_code == 409
    r = client.post(f"/games/{gid}/come-back", players["nixon"])
    assert r.status_code == 200 and r.get_json()["absences"] == []
    assert store.game(gid).bots == {} and absence(store.engine, gid, "nixon").status == \
        "returned"
    _refused(client.post(f"/games/{gid}/come-back", players["nixon"]), 409,
             "nothing to take back")


def test_invite_a_replacement_who_takes_the_seat(client, players, store, mail_server):
    gid = _1960(client, store, players)
    leaves(store.engine, players["nixon"].id, "bob@example.org")
    bad = client.post(f"/games/{gid}/absences/nixon", players["kennedy"],
                      json={"choice": "replace", "invite_email": "cy at example"})
    _refused(bad, 422, "invite_email")
    r = client.post(f"/games/{gid}/absences/nixon", players["kennedy"],
                    json={"choice": "replace", "invite_email": "cy@example.org"})
    body = r.get_json()
    assert r.status_code == 200 and body["done"] == "invited" and body["code"]
    assert body["take_seat_url"].endswith(f"/games/{gid}/take-seat/{body['code']}")
    assert body["absences"][0]["invited_by"] == "kennedy"
    assert "invite_email" not in body["absences"][0]          # the address is never shown
    with store.session() as s:
        [invitation] = [m.payload for m in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "absence_invitation")).all()]
    assert invitation["email"] == "cy@example.org"
    cy = client.signup("cy@example.org", "Cy")
    wrong = client.post(f"/games/{gid}/take-seat", cy, json={"code": "not-the-code"})
    _refused(wrong, 404, "not one of this game's")
    own = client.post(f"/games/{gid}/take-seat", players["kennedy"], json={"code": body["code"]})
    _refused(own, 409, "already play a seat")
    r = client.post(f"/games/{gid}/take-seat", cy, json={"code": body["code"]})
    assert r.status_code == 200 and r.get_json() == {"seat": "nixon", "game_id": gid}
    assert seat_user(store.engine, gid, "nixon") == cy.id
    dee = client.signup("dee@example.org", "Dee")
    _refused(client.post(f"/games/{gid}/take-seat", dee, json={"code": body["code"]}), 410,
             "no longer good")
    assert client.get(f"/games/{gid}/absences", cy).get_json()["absences"] == []


def test_every_refusal_says_why_and_what_may_be_chosen(client, players, store):
    gid = _1960(client, store, players)
    goes_silent(store.engine, gid, "nixon")
    before = store.snapshot(gid)
    ann = players["kennedy"]
    unknown = client.post(f"/games/{gid}/absences/nixon", ann, json={"choice": "surrender"})
    _refused(unknown, 400, "There is no choice 'surrender'",
             ["claim", "end", "bot", "replace"])
    own = client.post(f"/games/{gid}/absences/nixon", players["nixon"], json={"choice": "claim"})
    _refused(own, 403, "Only a present player")
    _refused(client.post(f"/games/{gid}/absences/nixon", ann, json={}), 422, "choice")
    _refused(client.post(f"/games/{gid}/absences/kennedy", ann, json={"choice": "end"}), 409,
             "No seat of this game is waiting")
    _refused(client.post(f"/games/999999/absences/nixon", ann, json={"choice": "end"}), 404,
             "no such game")
    assert client.post(f"/games/{gid}/absences/nixon", json={"choice": "end"}).status_code == 401
    assert store.snapshot(gid)[:3] == before[:3]
    assert absence(store.engine, gid, "nixon").status == "open"


def test_a_stranger_and_a_spectator_are_refused_and_a_private_game_is_not_shown(client, players,
                                                                                store):
    gid = _1960(client, store, players, public=True)
    goes_silent(store.engine, gid, "nixon")
    watcher = client.signup("wendy@example.org", "Wendy")
    assert client.post(f"/games/{gid}/spectate", watcher).status_code == 200
    for who in (watcher, None):                  # public game information: shown, no choices
        body = client.get(f"/games/{gid}/absences", who).get_json()
        assert body["your_seat"] is None and body["absences"][0]["choices"] == []
    r = client.post(f"/games/{gid}/absences/nixon", watcher, json={"choice": "claim"})
    _refused(r, 403, "no seat in this game")
    _refused(client.post(f"/games/{gid}/come-back", watcher), 403, "no seat in this game")
    private = client.two_player_game(store, players["kennedy"], players["nixon"])
    goes_silent(store.engine, private, "nixon")
    eve = client.signup("eve@example.org", "Eve")
    _refused(client.get(f"/games/{private}/absences", eve), 404, "no such game")
    _refused(client.get(f"/games/{private}/absences"), 404, "no such game")
    _refused(client.post(f"/games/{private}/absences/nixon", eve, json={"choice": "claim"}),
             404, "no such game")
    assert store.game(private).status == "active"


@pytest.mark.parametrize("seats", [3, 4])
def test_mr_president_hands_the_seat_to_a_bot_at_once_and_ending_needs_everyone(client, store,
                                                                               seats):
    gid, people = mrpresident(client, store, seats)
    leaves(store.engine, people["p2"].id, "bob@example.org")
    [shown] = client.get(f"/games/{gid}/absences", people["p1"]).get_json()["absences"]
    assert shown["reason"] == "left" and shown["bot"] == "strong" and shown["bot_by"] is None
    assert shown["choices"] == ["end", "replace"]
    claim = client.post(f"/games/{gid}/absences/p2", people["p1"], json={"choice": "claim"})
    _refused(claim, 409, "claimed only in a two-player game", ["end", "replace"])
    bot = client.post(f"/games/{gid}/absences/p2", people["p1"], json={"choice": "bot"})
    _refused(bot, 409, "A bot already plays this seat", ["end", "replace"])
    present = [s for s in people if s != "p2"]
    for n, seat in enumerate(present[:-1], 1):
        r = client.post(f"/games/{gid}/absences/p2", people[seat], json={"choice": "end"})
        assert r.status_code == 200 and r.get_json()["done"] == "asked_end"
        [shown] = r.get_json()["absences"]
        assert shown["wants_end"] == present[:n] and "end" not in shown["choices"]
        twice = client.post(f"/games/{gid}/absences/p2", people[seat], json={"choice": "end"})
        _refused(twice, 409, "already asked to end", ["replace"])
        assert store.game(gid).status == "active"
    r = client.post(f"/games/{gid}/absences/p2", people[present[-1]], json={"choice": "end"})
    assert r.get_json()["done"] == "ended"
    game = store.game(gid)
    assert game.status == "finished" and game.result["rated"] is False


def test_mr_president_replacement_takes_the_seat_from_its_bot(client, store):
    gid, people = mrpresident(client, store, 3)
    goes_silent(store.engine, gid, "p3")
    assert store.game(gid).bots == {"p3": "strong"}
    r = client.post(f"/games/{gid}/absences/p3", people["p2"], json={"choice": "replace"})
    assert r.get_json()["done"] == "invited"
    eve = client.signup("eve@example.org", "Eve")
    r = client.post(f"/games/{gid}/take-seat", eve, json={"code": r.get_json()["code"]})
    assert r.status_code == 200 and r.get_json()["seat"] == "p3"
    with store.session() as s:
        assert s.get(Game, gid).bots == {}
    assert seat_user(store.engine, gid, "p3") == eve.id
