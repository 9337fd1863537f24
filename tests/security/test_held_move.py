"""A move that may still be taken back, attacked by the other seat (issue 45, H1 and M6), on
SQLite and on PostgreSQL: while the hold is open the other seat reads the game through the
data export and the calendar feed (H1: both built from the real game, they named the card
played and the decision it asks), and orders at the real step (M6: the order service applied
it, an answer to a question never shown, and the move became final unseen). Each attack must
learn nothing and change nothing."""

from __future__ import annotations

from server.models import Game
from tests.security.held_helpers import (UID, assert_hidden, calendar_url, db_app,  # noqa: F401
                                         game_step, hold, log_length, mail_order)
from tests.server.api.conftest import both_databases  # noqa: F401
from tests.server.api.helpers import Client, Store, is_problem


def _setup(app):
    client = Client(app.test_client())
    store = Store(app.extensions["whistlestop.db"])
    players = {"kennedy": client.signup("ann@example.org", "Ann"),
               "nixon": client.signup("bob@example.org", "Bob")}
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="held-45")
    return client, store, players, gid


def _export_log(client, player, gid):
    r = client.get("/users/me/export", player)
    assert r.status_code == 200
    (game,) = [g for g in r.get_json()["games"] if g["game_id"] == gid]
    return game["log"]


def test_the_export_does_not_show_a_held_move(db_app):
    client, store, players, gid = _setup(db_app)
    from tests.server.api.test_retract import at_retractable
    _state, seat, _action = at_retractable(store, gid)
    from tests.server.api.helpers import other
    them = players[other(seat)]
    before = _export_log(client, them, gid)
    held = hold(client, store, players, gid)
    assert held.mover == seat
    during = _export_log(client, them, gid)
    assert during == before
    assert_hidden(str(during), held, "the export")
    # The mover's own export shows their move.
    assert held.action in str(_export_log(client, players[held.mover], gid))


def test_the_calendar_feed_does_not_show_a_held_move(db_app):
    client, store, players, gid = _setup(db_app)
    held = hold(client, store, players, gid)
    them = players[held.waiting]
    feed = client.tc.get(calendar_url(db_app, them.id))
    assert feed.status_code == 200
    text = feed.get_data(as_text=True).replace("\r\n ", "")  # unfolded
    assert_hidden(text, held, "the calendar feed")
    # Before the move it was not their decision: no event, no UID at the real step.
    assert f"game-{gid}-" not in text
    assert all(int(step) != held.real_step for _g, step in UID.findall(text))
    # The mover's feed: not theirs to decide now either.
    mine = client.tc.get(calendar_url(db_app, players[held.mover].id)).get_data(as_text=True)
    assert f"game-{gid}-" not in mine


def _unchanged(store, gid, held):
    assert game_step(store, gid) == held.real_step
    with store.session() as s:
        assert s.get(Game, gid).status == "active"


def test_an_order_at_the_hidden_step_is_refused_by_the_api(db_app):
    client, store, players, gid = _setup(db_app)
    held = hold(client, store, players, gid)
    logged = log_length(store, gid)
    r = client.post(f"/games/{gid}/orders", players[held.waiting],
                    json={"step": held.real_step, "action": held.real_legal[0]})
    body = is_problem(r, 409)
    assert body["type"].endswith("/problems/held-move") and body["code"] == "held_move"
    assert "/show-move" in body["detail"]
    assert_hidden(str(body), held, "the API's refusal")
    assert all(a not in body.get("legal_actions", []) for a in held.real_legal)
    _unchanged(store, gid, held)
    assert log_length(store, gid) == logged


def test_an_order_at_the_hidden_step_is_refused_by_mail(db_app, smtp_catcher, monkeypatch):
    monkeypatch.setenv("WHISTLESTOP_MAIL_SMTP_PORT", str(smtp_catcher.port))
    client, store, players, gid = _setup(db_app)
    held = hold(client, store, players, gid)
    them = players[held.waiting]
    logged = log_length(store, gid)
    # A fresh mail (no thread headers) is read at the step the seat may see.
    assert mail_order(db_app, them, gid, held.waiting, held.real_legal[0]) == "order"
    _unchanged(store, gid, held)
    assert log_length(store, gid) == logged
    from server.models import OutboxMessage
    from sqlmodel import select
    with store.session() as s:
        (answer,) = [r.payload for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind == "order_answer")).all() if r.payload["game_id"] == gid]
    assert answer["status"] == "held"
    assert answer["legal"] == [] and answer["answered_step"] == held.seen_step
    assert_hidden(str(answer), held, "the mail's answer")


def test_an_order_at_the_hidden_step_is_refused_by_the_order_service(db_app):
    """Whatever the channel: the service itself (games.submit_order) refuses it."""
    from server.services import games
    client, store, players, gid = _setup(db_app)
    held = hold(client, store, players, gid)
    with store.session() as s:
        try:
            games.submit_order(s, gid, held.waiting, held.real_step, [held.real_legal[0]])
        except games.HeldMove as exc:
            assert exc.code == "held_move" and exc.seat == held.mover
            assert_hidden(str(exc), held, "the service's refusal")
        else:
            raise AssertionError("the order was applied during the hold")
    _unchanged(store, gid, held)
