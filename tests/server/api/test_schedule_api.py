"""Vacations, quiet hours, pauses and extensions through the API (issue 27, items 4 and 5),
each refusal a problem in words that changes nothing, and every endpoint in the OpenAPI
document."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlmodel import select

from server.models import Extension, OutboxMessage, User, aware, utcnow
from server.services import vacations
from tests.server.api.helpers import PROBLEM

PATHS = {"/api/v1/users/me/vacations": {"get", "post"},
         "/api/v1/users/me/vacations/{vacation_id}": {"delete"},
         "/api/v1/users/me/quiet-hours": {"get", "put"},
         "/api/v1/games/{game_id}/schedule": {"get"},
         "/api/v1/games/{game_id}/pause": {"post"},
         "/api/v1/games/{game_id}/pause/answer": {"post"},
         "/api/v1/games/{game_id}/pause/resume": {"post"},
         "/api/v1/games/{game_id}/extension": {"post"},
         "/api/v1/games/{game_id}/extension/answer": {"post"}}


def test_the_endpoints_are_documented(client):
    spec = client.get("/openapi.json").get_json()
    for path, methods in PATHS.items():
        assert path in spec["paths"], path
        for method in methods:
            operation = spec["paths"][path][method]
            assert operation["summary"] or operation.get("description")
            assert "200" in operation["responses"] or "201" in operation["responses"]
    assert "schedule" in {t["name"] for t in spec["tags"]}


def test_book_list_and_cancel_a_vacation(client, players):
    ann = players["kennedy"]
    today = datetime.now(timezone.utc).date()
    r = client.get("/users/me/vacations", ann)
    assert r.status_code == 200
    body = r.get_json()
    assert body["allowance"] == 30 and body["notice_hours"] == 24 and body["vacations"] == []

    too_soon = client.post("/users/me/vacations", ann,
                           json={"first_day": today.isoformat(), "last_day": today.isoformat()})
    assert too_soon.status_code == 422 and too_soon.mimetype == PROBLEM
    assert "at least 24 hours" in too_soon.get_json()["detail"]
    too_long = client.post("/users/me/vacations", ann, json={
        "first_day": (today + timedelta(days=3)).isoformat(),
        "last_day": (today + timedelta(days=33)).isoformat()})
    assert too_long.status_code == 422 and "31 days" in too_long.get_json()["detail"]
    bad = client.post("/users/me/vacations", ann, json={"first_day": "soon"})
    assert bad.status_code == 422 and bad.mimetype == PROBLEM
    assert client.get("/users/me/vacations", ann).get_json()["vacations"] == []

    first = today + timedelta(days=3)
    r = client.post("/users/me/vacations", ann, json={
        "first_day": first.isoformat(), "last_day": (first + timedelta(days=1)).isoformat()})
    assert r.status_code == 201, r.get_json()
    [row] = r.get_json()["vacations"]
    assert row["days"] == 2 and row["first_day"] == first.isoformat()
    assert row["last_day"] == (first + timedelta(days=1)).isoformat() and not row["ongoing"]
    assert r.get_json()["used_this_year"] == (2 if first.year == today.year else 0)
    other = client.delete(f"/users/me/vacations/{row['id']}", players["nixon"])
    assert other.status_code == 404
    r = client.delete(f"/users/me/vacations/{row['id']}", ann)
    assert r.status_code == 200 and r.get_json() == {"result": "cancelled"}
    assert client.get("/users/me/vacations", ann).get_json()["vacations"] == []


def test_quiet_hours_set_refused_and_turned_off(client, players):
    ann = players["kennedy"]
    assert client.get("/users/me/quiet-hours", ann).get_json() == {
        "start": None, "end": None, "time_zone": "UTC"}
    r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth,
                      json={"start": "22:30", "end": "7:00"})
    assert r.status_code == 200 and r.get_json()["start"] == "22:30"
    assert r.get_json()["end"] == "07:00"
    r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth,
                      json={"start": "25:00", "end": "07:00"})
    assert r.status_code == 422 and "HH:MM" in r.get_json()["detail"]
    assert client.get("/users/me/quiet-hours", ann).get_json()["start"] == "22:30"
    for partial in ({}, {"start": "22:00"}):  # both are asked for: a PUT missing one is refused
        r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth, json=partial)
        assert r.status_code == 422
    assert client.get("/users/me/quiet-hours", ann).get_json()["start"] == "22:30"
    r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth,
                      json={"start": None, "end": None})
    assert r.get_json()["start"] is None


def test_pause_and_extension_through_the_api(client, players, store):
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob, seed="schedule-api")
    game = store.game(gid)
    deadline = aware(game.deadline_at)
    owing = store.state(gid).active()[0]
    asker, other = (ann, bob) if owing == "kennedy" else (bob, ann)

    r = client.post(f"/games/{gid}/pause", asker)
    assert r.status_code == 200 and r.get_json()["pause"]["status"] == "asked"
    again = client.post(f"/games/{gid}/pause", other)
    assert again.status_code == 409 and again.mimetype == PROBLEM
    r = client.post(f"/games/{gid}/pause/answer", other, json={"agree": True})
    assert r.get_json()["pause"]["status"] == "paused" and r.get_json()["clock_stopped"]
    r = client.post(f"/games/{gid}/pause/resume", asker)
    assert r.status_code == 200 and r.get_json()["pause"] is None
    assert aware(store.game(gid).deadline_at) >= deadline

    refused = client.post(f"/games/{gid}/extension", other)
    assert refused.status_code == 409 and "owes the decision" in refused.get_json()["detail"]
    r = client.post(f"/games/{gid}/extension", asker)
    assert r.status_code == 200
    [asked] = r.get_json()["extensions"]
    assert asked["status"] == "asked" and asked["hours"] == game.decision_hours
    own = client.post(f"/games/{gid}/extension/answer", asker, json={"agree": True})
    assert own.status_code == 403
    before = aware(store.game(gid).deadline_at)
    r = client.post(f"/games/{gid}/extension/answer", other, json={"agree": True})
    assert r.get_json()["extensions"][0]["status"] == "granted"
    assert aware(store.game(gid).deadline_at) >= before + timedelta(hours=game.decision_hours)
    once = client.post(f"/games/{gid}/extension", asker)
    assert once.status_code == 409 and "one extension" in once.get_json()["detail"]
    with store.session() as s:
        kinds = [(r.kind, r.payload["event"]) for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind.in_(("pause", "extension"))).order_by(OutboxMessage.id)).all()]
        assert s.exec(select(Extension)).one().answered_by in ("kennedy", "nixon")
    assert kinds == [("pause", "asked"), ("pause", "paused"), ("pause", "resumed"),
                     ("extension", "asked"), ("extension", "granted")]
    stranger = client.signup("eve@example.org", "Eve")
    assert client.get(f"/games/{gid}/schedule", stranger).status_code in (403, 404)


def test_the_schedule_shows_every_player_the_same_and_no_hidden_information(client, players,
                                                                            store):
    """What the schedule says is public to the game's players (the same to each seat) and
    carries nothing of a seat's view: no hand, no sealed order."""
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob, seed="schedule-leak")
    owing = store.state(gid).active()[0]
    asker = ann if owing == "kennedy" else bob
    client.post(f"/games/{gid}/extension", asker)
    client.post(f"/games/{gid}/pause", asker)
    seen = [client.get(f"/games/{gid}/schedule", p).get_json() for p in (ann, bob)]
    assert seen[0] == seen[1]
    state = store.state(gid)
    hands = [str(card) for seat in ("kennedy", "nixon")
             for card in state.view(seat).get("hand", [])]
    text = repr(seen[0])
    assert not any(f"'{card}'" in text for card in hands)
    assert set(seen[0]) == {"deadline_at", "clock_stopped", "pause", "extensions", "away"}


def test_a_vacation_is_told_to_the_players_and_to_nobody_else(client, players, store):
    """A vacation is its player's own: the game's players read it in the schedule; a spectator
    of the public game and an anonymous caller learn nothing of it from any game answer."""
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob, seed="away", public=True)
    watcher = client.signup("wendy@example.org", "Wendy")
    assert client.post(f"/games/{gid}/spectate", watcher).status_code == 200
    with store.session() as s:
        today = utcnow().date()
        vacations.book(s, s.get(User, bob.id), today, today + timedelta(days=1),
                       utcnow() - timedelta(days=2))
    away = client.get(f"/games/{gid}/schedule", ann).get_json()["away"]
    assert [a["seat"] for a in away] == ["nixon"]
    until = away[0]["until"]
    assert client.get(f"/games/{gid}/schedule", watcher).status_code == 403
    assert client.get(f"/games/{gid}/schedule").status_code == 401
    for who in (watcher, None):
        for path in (f"/games/{gid}", f"/games/{gid}/log", "/games/public"):
            r = client.get(path, who)
            assert r.status_code == 200, (path, r.get_json())
            text = r.get_data(as_text=True)
            assert "vacation" not in text and "away" not in text and until[:16] not in text
