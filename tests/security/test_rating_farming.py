"""Ratings that cannot be farmed (issue 45, L1), each written as the attack; on SQLite and on
PostgreSQL.

- A second account joins a public game and resigns at once, over and over: each "win" raised
  the first account on the public ladder. A game is rated only when both sides played it:
  every rated seat's player made at least ``ratings.MIN_OWN_DECISIONS`` decisions of their own
  (a default the server filed at a deadline is not theirs).
- A private game (nobody else can see it was played) fed the public ladder: it is not rated.
- The same two accounts playing each other again and again: the k-th rated game between them
  within ``ratings.PAIRING_WINDOW`` counts with weight 1/k (OpenSkill's update scaled).
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import update
from sqlmodel import Session, func, select

from server.models import AutoOrder, Order, RatedGame, Rating, Seat, User
from server.services import ratings
from tests.server.api.helpers import _play_one


@pytest.fixture
def api_db_url(both_databases) -> str:
    """The API tests' app on a migrated SQLite file, then on a real PostgreSQL."""
    return both_databases


@pytest.fixture
def pair(client, store, players):
    return players["kennedy"], players["nixon"]


def own_decisions(store, gid: int) -> dict[str, int]:
    with Session(store.engine) as s:
        return {seat: n for seat, n in s.exec(
            select(Order.seat, func.count()).where(Order.game_id == gid,
                                                   Order.status == "applied")
            .group_by(Order.seat)).all()}


def play(store, gid: int, decisions: int = ratings.MIN_OWN_DECISIONS, seed: int = 1) -> None:
    """Random legal decisions through the order service until every seat made ``decisions``
    (its players' moves not held for a take back: they play straight on)."""
    with Session(store.engine) as s:
        seats = s.exec(select(Seat).where(Seat.game_id == gid)).all()
        people = [seat.user_id for seat in seats if seat.user_id is not None]
        s.execute(update(User).where(User.id.in_(people)).values(retract_hold_seconds=0))
        s.commit()
    rng = random.Random(seed)
    for _ in range(500):
        made = own_decisions(store, gid)
        if len(made) == len(seats) and min(made.values()) >= decisions:
            return
        with Session(store.engine) as s:
            _play_one(s, gid, rng)
    raise AssertionError("the seats never made their decisions")


def ladder(store) -> list[tuple[str, str, int]]:
    with Session(store.engine) as s:
        return sorted((r.role, r.player, r.games) for r in s.exec(select(Rating)))


def test_a_second_account_resigning_at_once_rates_nobody(client, store, pair):
    ann, bob = pair
    for _ in range(3):
        gid = client.two_player_game(store, ann, bob, public=True)
        assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    assert ladder(store) == []
    with Session(store.engine) as s:
        assert all(g.changes == [] for g in s.exec(select(RatedGame)))


def test_a_game_one_side_left_to_its_defaults_rates_nobody(client, store, pair):
    """Bob "played" only by the server's defaults at his deadlines: not his own decisions."""
    ann, bob = pair
    gid = client.two_player_game(store, ann, bob, public=True)
    play(store, gid, ratings.MIN_OWN_DECISIONS)
    with Session(store.engine) as s:
        for order in s.exec(select(Order).where(Order.game_id == gid, Order.seat == "nixon")):
            s.add(AutoOrder(game_id=gid, seat="nixon", step=order.step, actions=order.actions,
                            source="default", rule="default"))
        s.commit()
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    assert ladder(store) == []


def test_a_private_game_does_not_feed_the_public_ladder(client, store, pair):
    ann, bob = pair
    gid = client.two_player_game(store, ann, bob, public=False)
    play(store, gid, ratings.MIN_OWN_DECISIONS)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    assert ladder(store) == []
    assert client.get("/ratings?game=tmotp").get_json() == []


def test_a_public_game_both_sides_played_is_rated(client, store, pair):
    ann, bob = pair
    gid = client.two_player_game(store, ann, bob, public=True)
    play(store, gid, ratings.MIN_OWN_DECISIONS)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    assert ladder(store) == [("kennedy", f"user:{ann.id}", 1), ("nixon", f"user:{bob.id}", 1)]


def test_repeated_pairings_count_less_and_less(client, store, pair):
    ann, bob = pair
    gains = []
    for k in (1, 2, 3):
        gid = client.two_player_game(store, ann, bob, public=True)
        play(store, gid, ratings.MIN_OWN_DECISIONS, seed=k)
        assert client.post(f"/games/{gid}/resign", bob).status_code == 200
        with Session(store.engine) as s:
            changes = {c["player"]: c for c in s.get(RatedGame, gid).changes}
        mine = changes[f"user:{ann.id}"]
        theirs = changes[f"user:{bob.id}"]
        assert mine["weight"] == pytest.approx(1 / k) and theirs["weight"] == pytest.approx(1 / k)
        # The update OpenSkill gives from the ratings before, scaled by the weight.
        full = ratings.MODEL.rate(
            [[ratings.MODEL.rating(mu=mine["before"]["mu"], sigma=mine["before"]["sigma"])],
             [ratings.MODEL.rating(mu=theirs["before"]["mu"], sigma=theirs["before"]["sigma"])]],
            ranks=[1, 2])
        gained = mine["after"]["mu"] - mine["before"]["mu"]
        assert gained == pytest.approx((full[0][0].mu - mine["before"]["mu"]) / k)
        gains.append(gained)
    assert gains[0] > gains[1] > gains[2] > 0
