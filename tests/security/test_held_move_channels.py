"""Every channel during a held move (issue 45, item 1): while a move may still be taken back,
the other seat walks every way to read the game (the game page, the API's game, decision, log
and schedule, the data export, the calendar feed and its event ids, the live stream, the
version check, the answer to a mail, the digest, a webhook's post, the mail a held decision
would be, the replay page) and every way to act (an API order, the page's decision form, a
signed decision link, a mail reply), at the step it sees and at the real one: nothing tells
the move or the step it led to, no order is applied, and the move is still the mover's to
take back (so no channel made it seen).

Both games: 1960: The Making of the President, whose plays for CP and what they pay for may be
taken back; and Mr. President, which has no move that may be: every round is a sealed step of
every seat, and ``engine.core.may_retract`` refuses a sealed order (its ``retractable`` is
always False, engine/games/mrpresident/state.py). Holds cannot occur there, so its walk is a
sanity check of the same channels for a player and a spectator: they show the real game, with
no ``held_until``, and the orders are taken."""

from __future__ import annotations

import re

from sqlalchemy import update
from sqlmodel import Session, select

from server.mail import recipients, webhooks
from server.mail.recipients import MailSettings
from server.models import OutboxMessage, Retractable, User, Webhook
from server.services import links
from tests.security.held_helpers import (UID, assert_hidden, calendar_url, game_step, hold,
                                         log_length, mail_order)
from tests.server.api.helpers import is_problem, real_simultaneous
from tests.web.pages_helpers import Reader, csrf

STEP_FIELD = re.compile(r'name="step" value="(\d+)"')


def _envelopes(app, kind: str, payload: dict) -> list:
    """What the notify task would send now for an outbox row of ``kind`` (its mails and
    webhook posts), rendered in the app."""
    with app.app_context(), Session(app.extensions["whistlestop.db"]) as s:
        row = OutboxMessage(kind=kind, payload=payload)
        found = recipients.envelopes(s, row, MailSettings.from_config(app.config))
        posts = webhooks.posts(s, found)
        return [(e.kind, str(e.context)) for e in found] + [str(p.json) for _h, p in posts]


def _stream(browser, gid: int, known: int) -> str:
    """The live stream's text as ``browser`` reads it from ``known`` (short-lived here)."""
    r = browser.get(f"/games/{gid}/events?step={known}")
    return r.get_data(as_text=True) if r.status_code == 200 else ""


def test_every_channel_during_a_held_move_in_1960(app, client, store, players, mail_server):
    app.config.update(LIVE_LIFETIME_SECONDS=0.3, LIVE_HEARTBEAT_SECONDS=0.1)
    eve = client.signup("eve@example.org", "Eve")
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="walk",
                                 public=True)
    assert client.post(f"/games/{gid}/spectate", eve).status_code == 200
    held = hold(client, store, players, gid)
    them, mover = players[held.waiting], players[held.mover]
    with store.session() as s:  # the other player's webhook and digest
        s.add(Webhook(user_id=them.id, url="https://hooks.example.org/them"))
        s.execute(update(User).where(User.id == them.id).values(mail_mode="digest"))
        s.commit()
    logged = log_length(store, gid)
    browser = Reader(app, mail_server, them.email)
    browser.sign_in()
    real = str(held.real_step)

    # --- reading -------------------------------------------------------------------------
    for reader in (them, eve):
        game = client.get(f"/games/{gid}", reader).get_json()
        assert game["step"] == held.seen_step and game["held_until"] is not None
        assert game["deadline_at"] is None and game["your_move"] is False
        log = client.get(f"/games/{gid}/log", reader).get_json()
        assert_hidden(str(game) + str(log), held, "the API's game and log")
    assert client.get(f"/games/{gid}/schedule", them).get_json()["deadline_at"] is None
    decision = client.get(f"/games/{gid}/decision", them).get_json()
    assert decision["step"] == held.seen_step and decision["legal_actions"] == []
    assert_hidden(str(decision), held, "the API's decision")

    page = browser.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="held"' in page and f"var step = {held.seen_step}," in page
    assert real not in STEP_FIELD.findall(page)
    assert_hidden(page, held, "the game page")

    version = browser.get(f"/games/{gid}/version").get_json()
    assert version == {"step": held.seen_step, "status": "active"}

    assert "event: step" not in _stream(browser, gid, held.seen_step)  # nothing to tell
    told = _stream(browser, gid, held.seen_step - 1)  # a page from before: the step it sees
    assert f"id: {held.seen_step}\n" in told and f"id: {real}\n" not in told
    assert '"your_move": false' in told

    r = client.get("/users/me/export", them)
    (exported,) = [g for g in r.get_json()["games"] if g["game_id"] == gid]
    assert_hidden(str(exported["log"]), held, "the export")

    feed = client.tc.get(calendar_url(app, them.id)).get_data(as_text=True)
    assert_hidden(feed.replace("\r\n ", ""), held, "the calendar feed")
    assert f"game-{gid}-" not in feed and all(s != real for _g, s in UID.findall(feed))

    digest = _envelopes(app, "digest", {"user_id": them.id, "day": "2026-12-07"})
    assert all(f"'game_id': {gid}" not in text for text in map(str, digest))
    # The decision mail the move holds, were it rendered now: nothing (not the seat's yet).
    assert _envelopes(app, "your_decision", {"game_id": gid, "seat": held.waiting,
                                             "step": held.real_step}) == []

    r = browser.get(f"/games/{gid}/replay")
    assert r.status_code == 404  # a game in play has no replay
    assert_hidden(r.get_data(as_text=True), held, "the replay page")

    # --- acting ------------------------------------------------------------------------------
    for step in (held.seen_step, held.real_step):
        r = client.post(f"/games/{gid}/orders", them,
                        json={"step": step, "action": held.real_legal[0]})
        body = is_problem(r, 409)
        assert body["code"] == "held_move" and body["current_step"] == held.seen_step
        assert "legal_actions" not in body and body["decision"]["legal_actions"] == []
        assert_hidden(str(body), held, "the API's refusal")

        r = browser.client.post(f"/games/{gid}/order", data={
            "csrf_token": csrf(page), "step": str(step), "lines": held.real_legal[0]})
        assert r.status_code == 409
        text = r.get_data(as_text=True)
        assert "last move may still be taken back" in text
        assert_hidden(text, held, "the page's refusal")
        assert real not in STEP_FIELD.findall(text)

        token = links.make(app.config["SECRET_KEY"], gid, held.waiting, step,
                           held.real_legal[0], them.id, 0)
        shown = app.test_client().get(f"/games/{gid}/decide/{token}")
        assert_hidden(shown.get_data(as_text=True), held, "a decision link's page")
        r = app.test_client().post(f"/games/{gid}/decide/{token}", data={})
        assert r.status_code in (200, 409)
        assert_hidden(r.get_data(as_text=True), held, "a decision link's answer")

    mails = len(mail_server.to(them.email))
    assert mail_order(app, them, gid, held.waiting, held.real_legal[0]) == "order"
    (answer,) = mail_server.wait_for_to(them.email, mails + 1)[mails:]
    text = answer.get_body(("plain",)).get_content()
    assert "last move may still be taken back" in text
    assert_hidden(text, held, "the mail's answer")
    assert all(f"  {action}" not in text for action in held.real_legal)
    with store.session() as s:
        rows = [r.payload for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "order_answer")).all() if r.payload["game_id"] == gid]
    assert [r["status"] for r in rows] == ["held"] and rows[0]["legal"] == []
    posts = _envelopes(app, "order_answer", rows[0])
    assert_hidden(str(posts), held, "the answer's webhook post")

    # --- nothing changed, and the move is still its mover's to take back ---------------------
    assert game_step(store, gid) == held.real_step and log_length(store, gid) == logged
    r = client.post(f"/games/{gid}/retract", mover, json={"step": held.real_step})
    assert r.status_code == 200, r.get_json()


def _mrpresident(client, store):
    emails = ("barry@example.org", "lyndon@example.org", "george@example.org")
    players = {f"p{i + 1}": client.signup(email, email.split("@")[0].title())
               for i, email in enumerate(emails)}
    body = client.open_game(players["p1"], {seat: p.email for seat, p in players.items()},
                            options={"edition": "dial", "players": 3, "version": "short"},
                            game_type="mrpresident", public=True)
    gid = body["game"]["id"]
    store.set_seed(gid, "walk-mp")
    for seat, player in players.items():
        if seat != "p1":
            assert client.post(f"/games/{gid}/join", player, json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", players["p1"]).status_code == 200
    return gid, players


def test_every_channel_in_mr_president_which_has_no_held_move(app, client, store, mail_server):
    """Mr. President's orders are sealed, never taken back: after every seat's order of a
    round no hold exists, and every channel shows the real game to a player and a
    spectator (the sanity half of the walk: a hold cannot occur here)."""
    app.config.update(LIVE_LIFETIME_SECONDS=0.3, LIVE_HEARTBEAT_SECONDS=0.1)
    gid, players = _mrpresident(client, store)
    eve = client.signup("eve@example.org", "Eve")
    assert client.post(f"/games/{gid}/spectate", eve).status_code == 200
    for _round in range(3):  # each seat orders through the API, as a player would
        state = store.state(gid)
        assert real_simultaneous(state) or len(state.active()) >= 1
        step = game_step(store, gid)
        for seat in state.active():
            r = client.post(f"/games/{gid}/orders", players[seat],
                            json={"step": step, "action": state.legal_actions(seat)[0]})
            assert r.status_code in (200, 202), r.get_json()
            assert r.get_json().get("retract_until") is None
    with store.session() as s:
        assert s.exec(select(Retractable).where(Retractable.game_id == gid)).all() == []
    step = game_step(store, gid)
    p1 = players["p1"]
    browser = Reader(app, mail_server, p1.email)
    browser.sign_in()
    for reader in (p1, eve):
        game = client.get(f"/games/{gid}", reader).get_json()
        assert game["step"] == step and game["held_until"] is None
    decision = client.get(f"/games/{gid}/decision", p1).get_json()
    assert decision["step"] == step and decision["held_until"] is None
    assert decision["legal_actions"] == [str(a) for a in store.state(gid).legal_actions("p1")]
    assert browser.get(f"/games/{gid}/version").get_json()["step"] == step
    assert f"id: {step}\n" in _stream(browser, gid, step - 1)
    page = browser.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="held"' not in page and f"var step = {step}," in page
    r = client.get("/users/me/export", p1)
    (exported,) = [g for g in r.get_json()["games"] if g["game_id"] == gid]
    assert exported["log"] == client.get(f"/games/{gid}/log", p1).get_json()["entries"]
    assert browser.get(f"/games/{gid}/replay").status_code == 404
    # Acting: a sealed order is taken (no false refusal).
    r = client.post(f"/games/{gid}/orders", p1,
                    json={"step": step, "action": decision["legal_actions"][0]})
    assert r.status_code in (200, 202), r.get_json()
