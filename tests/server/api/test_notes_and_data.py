"""Issue 27, items 2, 7, 8 through the API: private notes (shown to their writer only, never
to the other seat, a spectator, the game's view or log), the export of everything the server
holds about a user, deleting the account (refused while it holds seats, allowed with them
handed over to the deadline's default, what remains), and the OpenAPI document."""

from __future__ import annotations

import json

from sqlmodel import select

from server.models import AccountDeletion, AutoOrder, OutboxMessage, ApiToken, Game, Seat, SeatAbsence, SeatNote, User, aware
from server.services import deadlines
from tests.server.api.helpers import PROBLEM

SECRET = "Nixon bluffs <b>Texas</b> & keeps card 42"


def _game(client, store, players, public=False):
    return client.two_player_game(store, players["kennedy"], players["nixon"], seed="s33d-notes-7",
                                  public=public)


def test_notes_are_the_writers_own(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _game(client, store, players)
    empty = client.get(f"/games/{gid}/notes", ann)
    assert empty.status_code == 200
    assert empty.get_json() == {"game_id": gid, "seat": "kennedy", "text": "",
                                "updated_at": None}
    saved = client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth, json={"text": SECRET})
    assert saved.status_code == 200, saved.get_json()
    assert saved.get_json()["text"] == SECRET and saved.get_json()["updated_at"]
    assert client.get(f"/games/{gid}/notes", ann).get_json()["text"] == SECRET
    # the other seat has its own, empty notepad
    theirs = client.get(f"/games/{gid}/notes", bob)
    assert theirs.get_json() == {"game_id": gid, "seat": "nixon", "text": "",
                                 "updated_at": None}
    # the rest of the API never shows them: the game, its decision, its log
    for path in (f"/games/{gid}", f"/games/{gid}/log", f"/games/{gid}/decision", "/games"):
        for player in (ann, bob):
            body = client.get(path, player).get_data(as_text=True)
            assert "Nixon bluffs" not in body and "Texas</b>" not in body, path


def test_notes_refusals_change_nothing(client, store, players):
    ann = players["kennedy"]
    gid = _game(client, store, players)
    client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth, json={"text": "kept"})
    too_long = client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth,
                             json={"text": "x" * 20_001})
    assert too_long.status_code == 422 and too_long.content_type == PROBLEM
    assert "20000" in too_long.get_json()["detail"]
    control = client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth,
                            json={"text": "bell \x07"})
    assert control.status_code == 422 and control.content_type == PROBLEM
    assert control.get_json()["type"].endswith("/problems/invalid-notes")
    assert "control characters" in control.get_json()["detail"]
    assert client.get(f"/games/{gid}/notes", ann).get_json()["text"] == "kept"
    full = client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth,
                         json={"text": "y" * 20_000})
    assert full.status_code == 200


def test_a_spectator_and_a_stranger_read_no_notes(client, store, players):
    ann = players["kennedy"]
    carl = client.signup("carl@example.org", "Carl")
    gid = _game(client, store, players, public=True)
    client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth, json={"text": SECRET})
    assert client.post(f"/games/{gid}/spectate", carl).status_code == 200
    watching = client.get(f"/games/{gid}/notes", carl)
    assert watching.status_code == 403 and watching.content_type == PROBLEM
    assert "Nixon bluffs" not in watching.get_data(as_text=True)
    for path in (f"/games/{gid}", f"/games/{gid}/log"):
        assert "Nixon bluffs" not in client.get(path, carl).get_data(as_text=True)
    private = _game(client, store, players)
    client.tc.put(f"/api/v1/games/{private}/notes", headers=ann.auth, json={"text": SECRET})
    assert client.get(f"/games/{private}/notes", carl).status_code == 404
    assert client.get(f"/games/{private}/notes").status_code == 401


def test_the_export_holds_everything_and_no_secret(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _game(client, store, players)
    client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth, json={"text": SECRET})
    client.tc.put(f"/api/v1/games/{gid}/notes", headers=bob.auth, json={"text": "bob's own"})
    answer = client.get("/users/me/export", ann)
    assert answer.status_code == 200
    data = answer.get_json()
    assert data["format"] == "whistlestop-export/1"
    assert data["account"]["email"] == "ann@example.org"
    assert data["account"]["display_name"] == "Ann"
    assert data["account"]["email_verified_at"] and data["account"]["time_zone"] == "UTC"
    assert [t["id"] for t in data["tokens"]] and ann.token not in answer.get_data(as_text=True)
    assert set(data["tokens"][0]) == {"id", "created_at", "last_used_at"}
    [game] = data["games"]
    assert (game["game_id"], game["seat"], game["status"]) == (gid, "kennedy", "active")
    assert game["log"] == client.get(f"/games/{gid}/log", ann).get_json()["entries"]
    assert data["notes"] == [{"game_id": gid, "seat": "kennedy", "text": SECRET,
                              "updated_at": data["notes"][0]["updated_at"]}]
    text = answer.get_data(as_text=True)
    assert "bob's own" not in text and "bob@example.org" not in text
    assert store.game(gid).seed not in text   # the seed stays secret until the end
    assert client.get("/users/me/export").status_code == 401


def test_deletion_is_refused_while_seats_are_held_then_allowed(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]   # Bob (Nixon) leaves; Ann plays on
    gid = _game(client, store, players)
    client.tc.put(f"/api/v1/games/{gid}/notes", headers=bob.auth, json={"text": SECRET})
    wrong = client.delete("/users/me?confirm=someone@example.org", bob)
    assert wrong.status_code == 422 and wrong.content_type == PROBLEM
    held = client.delete("/users/me?confirm=bob@example.org", bob)
    assert held.status_code == 409 and held.content_type == PROBLEM
    assert [(s["game_id"], s["seat"]) for s in held.get_json()["seats"]] == [(gid, "nixon")]
    assert held.get_json()["seats"][0]["url"].endswith(f"/games/{gid}")
    assert client.get("/me", bob).status_code == 200   # nothing changed
    assert client.get(f"/games/{gid}/notes", bob).get_json()["text"] == SECRET
    done = client.delete("/users/me?confirm=BOB@example.org&hand_over=true", bob)
    assert done.status_code == 200, done.get_json()
    assert [(s["game_id"], s["seat"]) for s in done.get_json()["handed_over"]] \
        == [(gid, "nixon")]
    assert client.get("/me", bob).status_code == 401   # the token is gone
    with store.session() as s:
        user = s.get(User, bob.id)
        assert user.email == f"deleted-{bob.id}@deleted.invalid" and user.display_name == ""
        assert user.email_verified_at is None and user.session_epoch == 1
        assert s.exec(select(ApiToken).where(ApiToken.user_id == bob.id)).all() == []
        assert s.exec(select(SeatNote).where(SeatNote.user_id == bob.id)).all() == []
        assert s.get(AccountDeletion, bob.id).handed_over == [[gid, "nixon"]]
        seat = s.exec(select(Seat).where(Seat.game_id == gid, Seat.seat == "nixon")).one()
        assert seat.user_id is None
        game = s.get(Game, gid)
    log_before = client.get(f"/games/{gid}/log", ann).get_json()["entries"]
    # Ann's game goes on: its log kept, Nixon played by the deadline default at its deadline
    assert game.status == "active" and log_before
    assert "nixon" in store.state(gid).active()
    assert deadlines.ring(store.engine, gid, aware(game.deadline_at)) == "defaulted"
    with store.session() as s:
        assert s.exec(select(AutoOrder).where(AutoOrder.game_id == gid,
                                              AutoOrder.seat == "nixon")).all()
    assert len(client.get(f"/games/{gid}/log", ann).get_json()["entries"]) > len(log_before)
    shown = client.get(f"/games/{gid}", ann).get_json()
    assert "bob@example.org" not in json.dumps(shown)
    assert {s["seat"]: s["player"] for s in shown["seats"]}["nixon"] == "a deleted player"


def test_a_finished_game_shows_a_deleted_player(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    gid = _game(client, store, players)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    assert client.delete("/users/me?confirm=ann@example.org", ann).status_code == 200
    body = client.get(f"/games/{gid}", bob).get_data(as_text=True)
    assert "a deleted player" in body and "ann@example.org" not in body and "Ann" not in body
    assert client.get(f"/games/{gid}/log", bob).get_json()["entries"]


def test_the_openapi_document_lists_the_endpoints(client):
    spec = client.get("/openapi.json").get_json()
    paths = spec["paths"]
    assert {"get", "put"} <= set(paths["/api/v1/games/{game_id}/notes"])
    assert "get" in paths["/api/v1/users/me/export"]
    delete = paths["/api/v1/users/me"]["delete"]
    assert {p["name"] for p in delete["parameters"]} >= {"confirm", "hand_over"}
    assert {"409", "422"} <= set(delete["responses"])
    assert "deadline default" in delete["description"]
    assert "never the tokens" in paths["/api/v1/users/me/export"]["get"]["description"]
    assert "Private notes" in json.dumps(spec["tags"])
    assert "Private notes" in json.dumps(spec["tags"])


def test_hand_over_without_deadlines_leaves_the_choice_and_frees_open_seats(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carl = client.signup("carl@example.org", "Carl")
    made = client.post("/games", ann, json={"game_type": "tmotp", "options": {},
                                            "seats": {"kennedy": ann.email,
                                                      "nixon": bob.email},
                                            "timing": {"decision_hours": 0,
                                                       "reminder_hours": []}})
    assert made.status_code == 201, made.get_json()
    untimed = made.get_json()["game"]["id"]
    assert client.post(f"/games/{untimed}/join", bob, json={}).status_code == 200
    assert client.post(f"/games/{untimed}/start", ann).status_code == 200
    waiting = client.open_game(carl, {"kennedy": carl.email, "nixon": bob.email},
                               start_by_hand=True)["game"]["id"]
    assert client.post(f"/games/{waiting}/join", bob, json={}).status_code == 200
    done = client.delete("/users/me?confirm=bob@example.org&hand_over=true", bob)
    assert done.status_code == 200, done.get_json()
    assert {(s["game_id"], s["status"]) for s in done.get_json()["handed_over"]} \
        == {(untimed, "active"), (waiting, "open")}
    # issue 46: the game waits for Ann's choice (no deadline would ever play Nixon's seat)
    assert store.game(untimed).status == "active"
    with store.session() as s:
        absent = s.exec(select(SeatAbsence).where(SeatAbsence.game_id == untimed)).one()
        assert (absent.seat, absent.reason, absent.status) == ("nixon", "left", "open")
    seats = {s["seat"]: s for s in client.get(f"/games/{waiting}", carl).get_json()["seats"]}
    assert seats["nixon"]["joined"] is False and seats["nixon"]["player"] is None
    assert seats["nixon"]["invited"] is False   # the address is erased from the invitation


def test_notes_never_reach_a_mail_or_an_outbox_row(client, store, players, mail_server):
    """Notes are in no mail (to anybody, the writer included: mails are views) and in no
    outbox row, which every mail and webhook post is made from."""
    ann, bob = players["kennedy"], players["nixon"]
    gid = _game(client, store, players)
    for player in (ann, bob):
        client.tc.put(f"/api/v1/games/{gid}/notes", headers=player.auth, json={"text": SECRET})
    for _turn in range(4):   # a few orders: decisions, receipts, reveals go out
        game = store.game(gid)
        seat = store.state(gid).active()[0]
        if seat not in players:
            break
        action = client.get(f"/games/{gid}/decision", players[seat]).get_json()
        r = client.post(f"/games/{gid}/orders", players[seat],
                        json={"step": game.step, "actions": [action["legal_actions"][0]]})
        assert r.status_code in (200, 202), r.get_json()
    mails = mail_server.received()
    assert len(mails) >= 2 and len({m["To"] for m in mails}) == 2   # both players got mail
    for mail in mails:
        texts = [part.get_content() for part in mail.walk()
                 if part.get_content_maintype() == "text"]
        assert texts and all("Nixon bluffs" not in t and "keeps card 42" not in t
                             for t in texts)
    with store.session() as s:
        for row in s.exec(select(OutboxMessage)).all():
            assert "Nixon bluffs" not in json.dumps(row.payload)
