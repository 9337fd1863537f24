"""Bot seats through the API: a solo game against a bot played to the end (Celery runs eagerly
here: each bot_move task runs as its outbox row is published; tests/e2e plays one with a real
worker), the levels each game offers, the refusals, and a bot's task that runs twice."""

from __future__ import annotations

import random

import pytest

from sqlmodel import Session, select

from server.models import LogEntry, OutboxMessage
from server.services import bots as bot_seats
from tests.server.api.helpers import is_problem
from tests.server.api.test_playthrough import play_to_the_end


def _solo(client, store, player, game_type, seats, bots, options=None, seed="solo-1"):
    r = client.post("/games", player, json={"game_type": game_type, "seats": seats,
                                            "bots": bots, "options": options or {}})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    gid = body["game"]["id"]
    assert set(body["invitations"]) == set(seats)       # no code opens a bot's seat
    assert {s["seat"]: s["bot"] for s in body["game"]["seats"] if s["bot"]} == bots
    store.set_seed(gid, seed)
    r = client.post(f"/games/{gid}/start", player)
    assert r.status_code == 200, r.get_json()
    return gid


def test_a_solo_game_of_mr_president_against_the_strong_bot(client, store, monkeypatch):
    monkeypatch.setitem(bot_seats.BUDGETS, "strong", {"iterations": 12})
    ann = client.signup("ann@example.org", "Ann")
    gid = _solo(client, store, ann, "mrpresident", {"p1": ann.email}, {"p2": "strong"},
                {"edition": "chalkboard", "players": 2})
    game = play_to_the_end(client, gid, {"p1": ann}, random.Random(3))
    assert game["result"]["winner"] in ("p1", "p2")
    assert store.rebuild(gid)
    with Session(store.engine) as s:
        by_bot = s.exec(select(LogEntry).where(LogEntry.game_id == gid,
                                               LogEntry.seat == "p2")).all()
        waiting = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "bot_move",
                                                     OutboxMessage.delivered_at.is_(None))).all()
    rounds = store.state(gid).s["history"]
    assert len(by_bot) == len(rounds) >= 5      # its card(s) each round, by its own orders
    assert waiting == []            # every bot_move row consumed


def test_a_solo_game_of_1960_against_the_random_bot(client, store):
    bob = client.signup("bob@example.org", "Bob")
    gid = _solo(client, store, bob, "tmotp", {"kennedy": bob.email}, {"nixon": "random"},
                {"edition": "gmt"}, seed="solo-1960")
    game = play_to_the_end(client, gid, {"kennedy": bob}, random.Random(4))
    assert game["result"]["winner"] in ("kennedy", "nixon")
    assert store.rebuild(gid)


@pytest.mark.slow  # a whole game of the strong bot's search; the random bot's plays in the fast tier
def test_a_solo_game_of_1960_against_the_strong_bot(client, store):
    """The strong bot with its own budget (the one the server gives it), the Z-Man edition with
    the Vice President cards: every one of Nixon's orders is the bot's, through the pipeline."""
    dee = client.signup("dee@example.org", "Dee")
    gid = _solo(client, store, dee, "tmotp", {"kennedy": dee.email}, {"nixon": "strong"},
                {"edition": "zman", "vp_cards": True}, seed="solo-1960-strong")
    game = play_to_the_end(client, gid, {"kennedy": dee}, random.Random(5))
    assert game["result"]["winner"] in ("kennedy", "nixon")
    assert store.rebuild(gid)
    with Session(store.engine) as s:
        plays = s.exec(select(LogEntry).where(LogEntry.game_id == gid,
                                              LogEntry.seat == "nixon")).all()
    assert sum(e.action.startswith(("play ", "vp ")) for e in plays) >= 30


def test_three_candidates_two_of_them_bots(client, store, monkeypatch):
    monkeypatch.setitem(bot_seats.BUDGETS, "strong", {"iterations": 6})
    cy = client.signup("cy@example.org", "Cy")
    gid = _solo(client, store, cy, "mrpresident", {"p2": cy.email},
                {"p1": "greedy", "p3": "strong"},
                {"edition": "dial", "players": 3, "version": "short"})
    game = play_to_the_end(client, gid, {"p2": cy}, random.Random(5))
    assert game["result"]["winner"] in ("p1", "p2", "p3") and store.rebuild(gid)


def test_the_levels_each_game_offers(client):
    r = client.get("/games/bots")
    assert r.status_code == 200
    assert r.get_json()["games"] == {"mrpresident": ["random", "greedy", "strong"],
                                     "tmotp": ["random", "greedy", "strong"],
                                     "sealedbid": ["random"]}    # a game with no bots of its own


def test_refusals_say_what_would_do_and_open_nothing(client, store):
    ann = client.signup("ann@example.org", "Ann")
    before = store.count(OutboxMessage)
    cases = [
        ({"p1": ann.email}, {"p2": "grandmaster"}, "There is no bot 'grandmaster'; this game "
                                                   "has random, greedy, strong."),
        ({"p1": ann.email, "p2": "bob@example.org"}, {"p2": "random"},
         "The seat p2 is given to a bot and to bob@example.org"),
        ({"p1": ann.email}, {"p9": "random"}, "There is no seat 'p9' for a bot"),
    ]
    for seats, bots, words in cases:
        r = client.post("/games", ann, json={"game_type": "mrpresident", "seats": seats,
                                             "bots": bots, "options": {"players": 2}})
        assert words in is_problem(r, 422)["detail"]
    r = client.post("/games", ann, json={"game_type": "mrpresident", "seats": {"p1": ann.email},
                                         "bots": {"p2": "random"}, "bot_delay_seconds": 31})
    is_problem(r, 422)
    assert store.count(OutboxMessage) == before


def test_a_bots_task_that_runs_again_changes_nothing(client, store, app):
    """The relay may send a bot_move row twice: the second run finds the seat has answered."""
    ann = client.signup("ann@example.org", "Ann")
    r = client.post("/games", ann, json={"game_type": "mrpresident", "seats": {"p1": ann.email},
                                         "bots": {"p2": "greedy"},
                                         "options": {"edition": "dial", "players": 2}})
    gid = r.get_json()["game"]["id"]
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    game = store.game(gid)
    sealed = store.pending_orders(gid)
    assert list(sealed) == ["p2"]   # the bot sealed its first card (eagerly); p1 is asked
    logged = store.count(LogEntry, gid)
    with Session(store.engine) as s:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "bot_move")).first()
        assert (row.payload["seat"], row.payload["step"]) == ("p2", game.step)
        assert row.delivered_at is not None
        assert bot_seats.play(s, gid, "p2", game.step, row.id) is None
    assert store.game(gid).step == game.step and store.count(LogEntry, gid) == logged
    assert store.pending_orders(gid) == sealed


def test_a_bot_that_fails_plays_the_safe_default_and_the_game_goes_on(client, store,
                                                                     monkeypatch, caplog):
    class Broken:
        def choose(self, view, rng):
            raise RuntimeError("a bug in the bot")

    monkeypatch.setattr(bot_seats.bots, "make", lambda *a, **k: Broken())
    ann = client.signup("ann@example.org", "Ann")
    gid = _solo(client, store, ann, "mrpresident", {"p1": ann.email}, {"p2": "strong"},
                {"edition": "dial", "players": 2})
    assert store.pending_orders(gid) == {"p2": ["play 1"]}      # the lowest card alone
    assert "a bug in the bot" in caplog.text
