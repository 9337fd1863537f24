"""Standing orders and time limits through the API: shown, filed, refused with the reason."""

from __future__ import annotations

from tests.server.api.helpers import API, is_problem


def _put(client, player, gid, body):
    return client.tc.put(f"{API}/games/{gid}/standing-orders", headers=player.auth, json=body)


def test_standing_orders_are_filed_and_shown(client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="so")
    url = f"/games/{gid}/standing-orders"
    assert client.get(url, players["nixon"]).get_json() == {
        "seat": "nixon", "trigger": "ask", "second_place": "ask", "debate_side": "ask",
        "strategy_order": "ask", "deadline_default": None}
    r = _put(client, players["nixon"], gid, {"trigger": "helps_me", "second_place": "momentum",
                                             "deadline_default": ["pass", "play 12 campaign"]})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"seat": "nixon", "trigger": "helps_me", "second_place": "momentum",
                            "debate_side": "ask", "strategy_order": "ask",
                            "deadline_default": ["pass", "play 12 campaign"]}
    # Only the fields sent change; "ask" withdraws.
    r = _put(client, players["nixon"], gid, {"trigger": "ask"})
    assert r.get_json()["trigger"] == "ask" and r.get_json()["second_place"] == "momentum"
    # The other seat's are its own.
    assert client.get(url, players["kennedy"]).get_json()["second_place"] == "ask"


def test_a_refused_standing_order_changes_nothing(client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="so2")
    url = f"/games/{gid}/standing-orders"
    before = client.get(url, players["kennedy"]).get_json()
    body = is_problem(_put(client, players["kennedy"], gid,
                           {"trigger": "never", "deadline_default": ["frobnicate NY"]}), 422)
    assert "frobnicate" in body["detail"] and "Actions are" in body["detail"]
    assert client.get(url, players["kennedy"]).get_json() == before
    body = is_problem(_put(client, players["kennedy"], gid, {"trigger": "sometimes"}), 422)
    assert "trigger" in body["detail"] or body.get("errors")
    assert client.get(url, players["kennedy"]).get_json() == before


def test_only_players_have_standing_orders(client, store, players):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="so3")
    outsider = client.signup("outsider@example.com")
    is_problem(client.get(f"/games/{gid}/standing-orders", outsider), 404)
    is_problem(client.get("/games/99999/standing-orders", players["kennedy"]), 404)
    is_problem(client.get(f"/games/{gid}/standing-orders"), 401)


def test_a_game_is_opened_with_its_time_limits(client, players):
    r = client.post("/games", players["kennedy"], json={
        "game_type": "tmotp", "seats": {"kennedy": players["kennedy"].email, "nixon": None},
        "timing": {"decision_hours": 48, "reminder_hours": [6, 24], "on_deadline": "forfeit"}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["game"]["timing"] == {"decision_hours": 48, "reminder_hours": [24, 6],
                                              "on_deadline": "forfeit",
                                              "absent_after_missed": 2}
    assert r.get_json()["game"]["deadline_at"] is None  # not started yet
    r = client.post("/games", players["kennedy"], json={
        "game_type": "tmotp", "seats": {"kennedy": players["kennedy"].email, "nixon": None},
        "timing": {"decision_hours": 12, "reminder_hours": [12]}})
    body = is_problem(r, 422)
    assert "less than decision_hours (12)" in body["detail"]
