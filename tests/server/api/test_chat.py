"""Table talk through the API (issue 27, item 1): post, list, read, unread, mute, report, and
every refusal as problem+json; what a spectator and a muter may never see; the mail batching
(three lines make one mail; nothing more until read)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import event, update
from sqlmodel import select

from server.models import ChatMessage, ChatReport, OutboxMessage, utcnow
from tests.server.api.helpers import is_problem


def _chat(client, player, gid, **query):
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return client.get(f"/games/{gid}/chat" + (f"?{q}" if q else ""), player)


def _post(client, player, gid, body, channel=None):
    return client.post(f"/games/{gid}/chat", player,
                       json={"body": body, **({"channel": channel} if channel else {})})


def _game(client, store, players, spectator_chat=False, public=True):
    a, b = players["kennedy"], players["nixon"]
    r = client.post("/games", a, json={"game_type": "tmotp", "public": public,
                                       "seats": {"kennedy": a.email, "nixon": b.email},
                                       "spectator_chat": spectator_chat})
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game"]["id"]
    store.set_seed(gid, "chat")
    assert client.post(f"/games/{gid}/join", b, json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", a).status_code == 200
    return gid


def test_players_post_list_and_read(client, store, players):
    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    r = _post(client, ann, gid, "Good luck, Bob!")
    assert r.status_code == 201, r.get_json()
    line = r.get_json()
    assert line["body"] == "Good luck, Bob!" and line["seat"] == "kennedy" and line["mine"]
    _post(client, ann, gid, "Second line")
    body = _chat(client, bob, gid).get_json()
    assert body["channel"] == "players" and body["channels"] == ["players"]
    assert [x["body"] for x in body["lines"]] == ["Good luck, Bob!", "Second line"]
    assert body["unread"] == 2 and not body["lines"][0]["mine"]
    assert body["lines"][0]["author"] == "Ann" and body["lines"][0]["author_id"] == ann.id
    # Paging: the newest last, ``before`` goes back.
    page = _chat(client, bob, gid, limit=1).get_json()["lines"]
    assert [x["body"] for x in page] == ["Second line"]
    older = _chat(client, bob, gid, limit=1, before=page[0]["id"]).get_json()["lines"]
    assert [x["body"] for x in older] == ["Good luck, Bob!"]
    r = client.post(f"/games/{gid}/chat/read", bob, json={})
    assert r.status_code == 200 and r.get_json()["read_through"] == page[0]["id"]
    assert _chat(client, bob, gid).get_json()["unread"] == 0
    assert _chat(client, ann, gid).get_json()["unread"] == 0  # one's own lines are read


def test_refusals_are_problems_and_change_nothing(client, store, players):
    gid = _game(client, store, players)
    ann = players["kennedy"]
    outsider = client.signup("carol@example.org", "Carol")
    assert "empty" in is_problem(_post(client, ann, gid, "   \n "), 422)["detail"]
    detail = is_problem(_post(client, ann, gid, "x" * 4001), 422)["detail"]
    assert "4001" in detail and "4000" in detail
    assert "control characters" in is_problem(_post(client, ann, gid, "a\x00b"), 422)["detail"]
    assert _post(client, ann, gid, "x" * 4000).status_code == 201
    # A reader without a seat may not post in the players' chat; with no spectators' chat
    # opened, not in that one either.
    assert "players" in is_problem(_post(client, outsider, gid, "hi", "players"), 403)["detail"]
    assert "spectators" in is_problem(_post(client, outsider, gid, "hi", "spectators"),
                                      403)["detail"]
    is_problem(_post(client, ann, gid, "hi", "lobby"), 422)
    is_problem(client.post(f"/games/{gid}/chat", None, json={"body": "hi"}), 401)
    is_problem(_post(client, ann, 99999, "hi"), 404)
    with store.session() as s:
        assert len(s.exec(select(ChatMessage)).all()) == 1


def test_spectators_chat_is_never_mixed_with_the_players(client, store, players):
    gid = _game(client, store, players, spectator_chat=True)
    ann, bob = players["kennedy"], players["nixon"]
    watcher = client.signup("watcher@example.org", "Wendy")
    assert client.post(f"/games/{gid}/spectate", watcher).status_code in (200, 201, 204)
    assert _post(client, ann, gid, "secret plan: Ohio").status_code == 201
    r = _post(client, watcher, gid, "Kennedy should go to Ohio", "spectators")
    assert r.status_code == 201, r.get_json()
    # Players do not post in the spectators' chat, nor read it; spectators never read theirs.
    is_problem(_post(client, bob, gid, "hi", "spectators"), 403)
    is_problem(_chat(client, ann, gid, channel="spectators"), 404)
    is_problem(_chat(client, watcher, gid, channel="players"), 404)
    seen = _chat(client, watcher, gid).get_json()
    assert seen["channel"] == "spectators" and seen["channels"] == ["spectators"]
    assert [x["body"] for x in seen["lines"]] == ["Kennedy should go to Ohio"]
    text = str(_chat(client, bob, gid).get_json())
    assert "Ohio" in text and "Kennedy should go" not in text
    # Nor through any other answer a spectator gets.
    for path in (f"/games/{gid}", f"/games/{gid}/log"):
        assert "secret plan" not in client.get(path, watcher).get_data(as_text=True)
    # A reader who may not see a private game gets 404 for its chat.
    private = _game(client, store, {"kennedy": client.signup("p1@example.org"),
                                    "nixon": client.signup("p2@example.org")}, public=False)
    is_problem(_chat(client, watcher, private), 404)


def test_a_muted_user_is_hidden_from_the_muter(client, store, players):
    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    r = client.post("/users/me/mutes", bob, json={"user_id": ann.id})
    assert r.status_code == 200 and r.get_json() == {"muted": [ann.id]}
    _post(client, ann, gid, "you will lose")
    body = _chat(client, bob, gid).get_json()
    assert body["lines"] == [] and body["unread"] == 0
    # No table-talk mail is written for the muter either.
    with store.session() as s:
        assert not s.exec(select(OutboxMessage).where(OutboxMessage.kind == "table_talk")).all()
    is_problem(client.post("/users/me/mutes", bob, json={"user_id": bob.id}), 422)
    is_problem(client.post("/users/me/mutes", bob, json={"user_id": 99999}), 404)
    r = client.post("/users/me/mutes", bob, json={"user_id": ann.id, "muted": False})
    assert r.get_json() == {"muted": []}
    assert [x["body"] for x in _chat(client, bob, gid).get_json()["lines"]] == ["you will lose"]


def test_a_line_is_reported_to_the_operator(client, store, players, app):
    app.config["OPERATOR_EMAIL"] = "ops@example.org"
    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    line = _post(client, ann, gid, "rude words").get_json()
    r = client.post(f"/games/{gid}/chat/{line['id']}/report", bob, json={"reason": "rude"})
    assert r.status_code == 201, r.get_json()
    is_problem(client.post(f"/games/{gid}/chat/{line['id']}/report", bob, json={}), 409)
    is_problem(client.post(f"/games/{gid}/chat/{line['id']}/report", ann, json={}), 422)
    outsider = client.signup("eve@example.org")
    is_problem(client.post(f"/games/{gid}/chat/{line['id']}/report", outsider, json={}), 404)
    with store.session() as s:
        report = s.exec(select(ChatReport)).one()
        assert report.reason == "rude" and report.user_id == bob.id
        assert s.get(ChatMessage, line["id"]).reported
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "chat_report")).all()
        assert [r.payload["address"] for r in rows] == ["ops@example.org"]


def _due_now(store):
    """Make every waiting table-talk mail due now (the delay has passed)."""
    with store.session() as s:
        for row in s.exec(select(OutboxMessage).where(OutboxMessage.kind == "table_talk")):
            row.payload = {**row.payload,
                           "not_before": (utcnow() - timedelta(seconds=1)).isoformat()}
            s.add(row)
        s.commit()


def _send_due(store, app):
    """Run the chat mail task of every waiting row, as the relay would send it again."""
    from workers import tasks
    with store.session() as s:
        ids = [r.id for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "table_talk", OutboxMessage.delivered_at.is_(None)))]
    with app.app_context():
        return [tasks.chat_mail(i) for i in ids]


def test_three_lines_make_one_mail_and_nothing_more_until_read(client, store, players,
                                                                mail_server, app):
    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    for text in ("one", "two <script>alert(1)</script>", "three"):
        assert _post(client, ann, gid, text).status_code == 201
    with store.session() as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "table_talk")).all()
        assert [r.payload["user_id"] for r in rows] == [bob.id]  # one row, for Bob only
    assert _send_due(store, app) == ["early"]  # the delay has not passed: not sent
    before = len(mail_server.to(bob.email))
    _due_now(store)
    assert _send_due(store, app) == ["sent"]
    mails = mail_server.wait_for_to(bob.email, before + 1)[before:]
    assert len(mails) == 1
    text = mails[0].get_body(("plain",)).get_content()
    html = mails[0].get_body(("html",)).get_content()
    assert "one" in text and "three" in text and "<script>alert(1)</script>" in text
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert mails[0]["Reply-To"] and "r+c" in str(mails[0]["Reply-To"])
    # More lines before Bob reads: no new mail.
    _post(client, ann, gid, "four")
    with store.session() as s:
        assert len(s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "table_talk")).all()) == 1
    # Bob reads; the next line makes a new mail, with only what he has not read.
    client.post(f"/games/{gid}/chat/read", bob, json={})
    _post(client, ann, gid, "five")
    _due_now(store)
    assert _send_due(store, app) == ["sent"]
    last = mail_server.wait_for_to(bob.email, before + 2)[-1].get_body(("plain",)).get_content()
    assert "five" in last and "four" not in last and "three" not in last


def test_a_muted_users_lines_never_reach_the_muter_by_mail(client, store, players,
                                                             mail_server, app):
    gid = _game(client, store, players, spectator_chat=True)
    ann, bob = players["kennedy"], players["nixon"]
    _post(client, bob, gid, "first")       # a mail waits for Ann
    client.post("/users/me/mutes", ann, json={"user_id": bob.id})
    _post(client, bob, gid, "muted words")
    _due_now(store)
    before = len(mail_server.to(ann.email))
    _send_due(store, app)
    assert len(mail_server.to(ann.email)) == before  # every unread line is muted: no mail


def test_your_lines_are_in_your_export_and_stay_in_the_game_after_you_leave(client, store,
                                                                             players):
    """Issue 27 item 7 with the chat: the export's ``chat`` section is the reader's own lines
    (never another's); deleting the account drops its read markers and mutes, while its lines
    stay in the game's table talk under "a deleted player"."""
    from server.models import ChatMute, ChatRead

    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    _post(client, ann, gid, "Ann's line")
    _post(client, bob, gid, "Bob's <b>line</b>")
    client.post(f"/games/{gid}/chat/read", bob, json={})
    assert client.post("/users/me/mutes", bob, json={"user_id": ann.id}).status_code in (200,
                                                                                        201)
    exported = client.get("/users/me/export", bob)
    assert exported.status_code == 200, exported.get_data(as_text=True)[:500]
    mine = exported.get_json()["chat"]
    assert [(x["game_id"], x["channel"], x["seat"], x["text"]) for x in mine] == [
        (gid, "players", "nixon", "Bob's <b>line</b>")]
    assert "Ann's line" not in str(client.get("/users/me/export", bob).get_json())
    client.post(f"/games/{gid}/resign", bob, json={})   # no unfinished seat left to hold
    done = client.delete(f"/users/me?confirm={bob.email}&hand_over=true", bob)
    assert done.status_code == 200, done.get_json()
    with store.session() as s:
        assert s.exec(select(ChatRead).where(ChatRead.user_id == bob.id)).all() == []
        assert s.exec(select(ChatMute).where(ChatMute.user_id == bob.id)).all() == []
    lines = _chat(client, ann, gid).get_json()["lines"]
    assert [x["body"] for x in lines] == ["Ann's line", "Bob's <b>line</b>"]
    assert lines[1]["author"] == "a deleted player"


def _unread_in_list(client, player) -> dict[int, int]:
    r = client.get("/games", player)
    assert r.status_code == 200, r.get_json()
    return {g["id"]: g["unread_chat"] for g in r.get_json()}


def test_the_games_list_counts_each_game_s_unread_lines(client, store, players):
    """GET /games says, per game, the lines of the caller's channel they have not read (as the
    lobby page does): not their own, not a muted user's, not the other channel's."""
    ann, bob = players["kennedy"], players["nixon"]
    first = _game(client, store, players, spectator_chat=True)
    second = _game(client, store, players)
    watcher = client.signup("watcher@example.org", "Wendy")
    other = client.signup("walter@example.org", "Walter")
    for p in (watcher, other):
        assert client.post(f"/games/{first}/spectate", p).status_code == 200
    _post(client, ann, first, "one")
    _post(client, ann, second, "two")
    _post(client, ann, second, "three")
    _post(client, other, first, "from the stands", "spectators")
    assert _unread_in_list(client, bob) == {first: 1, second: 2}
    assert _unread_in_list(client, ann) == {first: 0, second: 0}
    assert _unread_in_list(client, watcher) == {first: 1}   # the spectators' line only
    assert client.post(f"/games/{second}/chat/read", bob, json={}).status_code == 200
    assert _unread_in_list(client, bob) == {first: 1, second: 0}
    _post(client, bob, first, "reply")   # one's own line reads the channel
    _post(client, ann, first, "four")
    assert client.post("/users/me/mutes", bob, json={"user_id": ann.id}).status_code == 200
    assert _unread_in_list(client, bob) == {first: 0, second: 0}
    assert client.post("/users/me/mutes", bob,
                       json={"user_id": ann.id, "muted": False}).status_code == 200
    assert _unread_in_list(client, bob) == {first: 1, second: 0}
    # The document says what the field is.
    spec = client.get("/openapi.json").get_json()
    listed = spec["paths"]["/api/v1/games"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["items"]["$ref"].rsplit("/", 1)[1]
    assert "unread_chat" in spec["components"]["schemas"][listed]["properties"]


def test_the_games_list_counts_unread_lines_in_one_statement(client, store, players, app):
    """However many games are listed, their unread lines are counted by one statement."""
    ann, bob = players["kennedy"], players["nixon"]
    engine = app.extensions["whistlestop.db"]
    seen: list[str] = []

    def record(conn, cursor, statement, *args):
        seen.append(statement.lower())

    def chat_statements() -> int:
        seen.clear()
        event.listen(engine, "before_cursor_execute", record)
        try:
            _unread_in_list(client, bob)
        finally:
            event.remove(engine, "before_cursor_execute", record)
        return sum("from chatmessage" in s for s in seen)

    gid = _game(client, store, players)
    _post(client, ann, gid, "hello")
    assert chat_statements() == 1
    for n in range(3):
        _post(client, ann, _game(client, store, players), f"hello {n}")
    assert _unread_in_list(client, bob) == dict.fromkeys(_unread_in_list(client, bob), 1)
    assert len(_unread_in_list(client, bob)) == 4
    assert chat_statements() == 1
