"""Orders through the API: applied (200), sealed (202), and every refusal, which changes nothing."""

from __future__ import annotations

import pytest
from engine.core import from_dict

from server.services import games as svc
from tests.server.api.helpers import (is_problem, other, real_simultaneous,
                                      sequential_choice)


@pytest.fixture
def gid(client, store, players):
    return client.two_player_game(store, players["kennedy"], players["nixon"], seed="orders")


def _continuing(state, seat):
    """Two actions the seat can give in one order (the second is its own decision too)."""
    for first in state.legal_actions(seat):
        probe = from_dict(state.to_dict())
        probe.apply(seat, first)
        svc._advance(probe)
        if probe.active() == [seat]:
            return first, probe.legal_actions(seat)[0]
    return None


def test_a_sequential_order_is_applied(client, store, players, gid):
    state = store.advance_until(gid, sequential_choice)
    seat = state.active()[0]
    step = store.game(gid).step
    action = state.legal_actions(seat)[-1]
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "actions": [action.upper()]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["applied"] == [action]  # canonical text
    assert body["step"] == step + 1 == store.game(gid).step
    assert body["stopped_at"] is None and body["reason"] is None and body["legal_actions"] == []
    assert body["status"] == "active"
    decision = client.get(f"/games/{gid}/decision", players[seat]).get_json()
    assert body["decision"] == decision
    assert store.rebuild(gid)


def test_an_order_of_several_actions_stops_with_the_reason_and_the_legal_choices(
        client, store, players, gid):
    found = None

    def two_in_a_row(state):
        nonlocal found
        found = sequential_choice(state) and _continuing(state, state.active()[0])
        return bool(found)

    state = store.advance_until(gid, two_in_a_row)
    seat, (first, second) = state.active()[0], found
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat],
                    json={"step": step, "actions": [first, second, "campaign ZZ 9"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["applied"][:1] == [first]
    assert body["stopped_at"] is not None and body["reason"]
    assert body["legal_actions"]
    assert body["legal_actions"] == (body["decision"]["legal_actions"]
                                     or body["legal_actions"])
    assert store.rebuild(gid)


@pytest.mark.parametrize("text, kind", [
    ("xyzzy 1", "malformed-action"),
    ("strategy 99", "illegal-action"),
])
def test_a_refused_order_says_why_and_what_is_legal_and_changes_nothing(
        client, store, players, gid, text, kind):
    state = store.advance_until(gid, sequential_choice)
    seat = state.active()[0]
    step = store.game(gid).step
    before = store.snapshot(gid)
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step, "action": text})
    body = is_problem(r, 422)
    assert body["type"].endswith(f"/problems/{kind}")
    assert body["legal_actions"] == state.legal_actions(seat)
    assert body["current_step"] == step
    if kind == "illegal-action":
        assert body["detail"] == f"'{text}' is not allowed now: {state.prompt(seat)}"
    else:
        assert "'xyzzy' is not an action of this game" in body["detail"]
    assert store.snapshot(gid) == before


def test_the_other_seat_is_refused_with_the_games_words(client, store, players, gid):
    state = store.advance_until(gid, sequential_choice)
    seat = state.active()[0]
    before = store.snapshot(gid)
    body = is_problem(client.post(f"/games/{gid}/orders", players[other(seat)],
                                  json={"step": store.game(gid).step,
                                        "action": state.legal_actions(seat)[0]}), 422)
    assert f"It is not {other(seat).title()}'s decision now" in body["detail"]
    assert store.snapshot(gid) == before


def test_a_stale_order_gets_409_with_the_current_step_and_decision(client, store, players, gid):
    state = store.advance_until(gid, sequential_choice)
    seat = state.active()[0]
    step = store.game(gid).step
    before = store.snapshot(gid)
    body = is_problem(client.post(f"/games/{gid}/orders", players[seat],
                                  json={"step": step - 1, "action": state.legal_actions(seat)[0]}),
                      409)
    assert body["type"].endswith("/problems/stale-step")
    assert body["current_step"] == step
    assert body["decision"]["step"] == step and body["decision"]["active"] is True
    assert body["decision"]["legal_actions"] == state.legal_actions(seat)
    assert f"step {step - 1}" in body["detail"] and state.prompt(seat) in body["detail"]
    assert store.snapshot(gid) == before


@pytest.mark.parametrize("payload, field", [
    ({"action": "pass"}, "step"),
    ({"step": "1", "action": "pass"}, "step"),
    ({"step": 1}, "_schema"),
    ({"step": 1, "action": "pass", "actions": ["pass"]}, "_schema"),
    ({"step": 1, "actions": []}, "actions"),
    ({"step": 1, "actions": [""]}, "actions"),
    ({"step": 1, "action": "x" * 501}, "action"),
    ({"step": 1, "action": "pass", "colour": "red"}, "colour"),
])
def test_a_malformed_order_body_is_a_422_problem(client, store, players, gid, payload, field):
    before = store.snapshot(gid)
    body = is_problem(client.post(f"/games/{gid}/orders", players["kennedy"], json=payload), 422)
    assert body["type"].endswith("/problems/invalid-request")
    assert field in body["errors"]["json"]
    assert store.snapshot(gid) == before


def test_nobody_acts_for_chance_or_for_a_seat_not_theirs(client, store, players, gid):
    step = store.game(gid).step
    before = store.snapshot(gid)
    for seat in ("chance", "nixon"):
        body = is_problem(client.post(f"/games/{gid}/orders", players["kennedy"],
                                      json={"step": step, "action": "draw kennedy",
                                            "seat": seat}), 403)
        assert body["type"].endswith("/problems/forbidden")
    assert "chance" in body["detail"] or "nixon" in body["detail"]
    viewer = client.signup("vi@example.org")
    is_problem(client.post(f"/games/{gid}/orders", viewer, json={"step": step, "action": "pass"}),
               404)  # a private game: the visitor may not even see it
    is_problem(client.post(f"/games/{gid}/orders", json={"step": step, "action": "pass"}), 401)
    assert store.snapshot(gid) == before


def test_a_visitor_of_a_public_game_may_not_order(client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], public=True)
    viewer = client.signup("vi@example.org")
    body = is_problem(client.post(f"/games/{gid}/orders", viewer,
                                  json={"step": 1, "action": "pass"}), 403)
    assert "no seat" in body["detail"]


def test_simultaneous_orders_are_sealed_replaceable_and_resolved(client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="simul")
    state = store.advance_until(gid, real_simultaneous)
    step = store.game(gid).step
    log_len = len(state.s["log"])
    k0, k1 = state.legal_actions("kennedy")[:2]
    r = client.post(f"/games/{gid}/orders", players["kennedy"], json={"step": step, "action": k0})
    assert r.status_code == 202
    assert r.get_json() == {"sealed": True, "your_order": [k0], "all_committed": False,
                            "step": step}
    r = client.post(f"/games/{gid}/orders", players["kennedy"], json={"step": step, "action": k1})
    assert r.status_code == 202 and r.get_json()["your_order"] == [k1]
    mine = client.get(f"/games/{gid}/decision", players["kennedy"]).get_json()
    assert mine["your_order"] == [k1] and mine["active"] is False and mine["simultaneous"]
    theirs = client.get(f"/games/{gid}/decision", players["nixon"]).get_json()
    assert theirs["your_order"] is None and theirs["committed"] == 1 and theirs["active"]
    assert k1 not in client.get(f"/games/{gid}", players["nixon"]).get_data(as_text=True)
    assert client.get("/games", players["kennedy"]).get_json()[0]["your_move"] is False

    body = is_problem(client.post(f"/games/{gid}/orders", players["nixon"],
                                  json={"step": step,
                                        "actions": state.legal_actions("nixon")[:2]}), 422)
    assert "exactly one action" in body["detail"]
    assert body["legal_actions"] == state.legal_actions("nixon")

    n0 = state.legal_actions("nixon")[0]
    r = client.post(f"/games/{gid}/orders", players["nixon"], json={"step": step, "action": n0})
    assert r.status_code == 202 and r.get_json()["all_committed"] is True
    # The resolution task ran (eagerly here) after the commit.
    game = store.game(gid)
    assert game.step > step
    assert ["kennedy", k1] in store.state(gid).s["log"][log_len:]
    assert ["kennedy", k0] not in store.state(gid).s["log"][log_len:]
    assert store.rebuild(gid)
    body = is_problem(client.post(f"/games/{gid}/orders", players["kennedy"],
                                  json={"step": step, "action": k0}), 409)
    assert body["current_step"] == game.step


def test_an_order_before_the_start_is_refused(client, players):
    gid = client.open_game(players["kennedy"], {"kennedy": players["kennedy"].email,
                                                "nixon": players["nixon"].email})["game"]["id"]
    body = is_problem(client.post(f"/games/{gid}/orders", players["kennedy"],
                                  json={"step": 0, "action": "pass"}), 422)
    assert body["detail"] == "The game has not started yet."
