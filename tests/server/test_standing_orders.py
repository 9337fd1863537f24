"""Standing orders: the server answers a trigger or second-place decision by the seat's filed
policy instead of asking, records it for the seat's next mail, and the log still rebuilds. What
a policy answers, and how, is the game's (tests/engine/test_standing.py)."""

from __future__ import annotations

import random

import pytest
from engine.core import from_dict
from sqlmodel import Session, select

from server.models import AutoOrder, Game
from server.services import games, standing
from server.services.standing import StandingOrderError
from tests.server.api.helpers import _play_one

SEATS = {"kennedy": None, "nixon": None}


def test_policies_answer_instead_of_asking(db_engine):
    with Session(db_engine) as session:
        gid = games.create_game(session, "tmotp", {}, SEATS, seed="standing-1").id
        standing.file(session, gid, "kennedy", "trigger", "helps_me")
        standing.file(session, gid, "nixon", "trigger", "never")
        standing.file(session, gid, "kennedy", "second_place", "endorsement")
        standing.file(session, gid, "nixon", "second_place", "momentum")
        session.commit()
    rng = random.Random(7)
    for _ in range(3000):
        with Session(db_engine) as session:
            game = session.get(Game, gid)
            if game.status == "finished":
                break
            state = from_dict(game.state)
            for seat in state.active():
                asks = state.asks(seat)
                assert asks["step"] not in ("trigger", "award_choice"), (seat, asks)
            _play_one(session, gid, rng)
    with Session(db_engine) as session:
        assert session.get(Game, gid).status == "finished"
        assert games.rebuild(session, gid)
        given = session.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
    rules = {(a.seat, a.rule, a.actions[0]) for a in given}
    assert all(a.source == "standing" and a.mailed_at is None for a in given)
    assert {r for r in rules if r[1].startswith("second_place")} <= {
        ("kennedy", "second_place:endorsement", "endorsement"),
        ("nixon", "second_place:momentum", "momentum")}
    assert ("nixon", "trigger:never", "pass") in rules
    assert {rule for _, rule, _ in rules} >= {"trigger:never", "trigger:helps_me"}
    assert all(action == "pass" for seat, rule, action in rules if rule == "trigger:never")


@pytest.mark.parametrize("kind, value, words", [
    ("trigger", "sometimes", "never, always, helps_me, ask"),
    ("second_place", "votes", "momentum, endorsement, ask"),
    ("deadline_default", ["frobnicate 3"], "not an action of this game"),
    ("deadline_default", [""] * 3, "1 to 10 lines"),
    ("deadline_default", 42, "list of order lines"),
    ("mood", "calm", "The standing orders are"),
])
def test_a_bad_standing_order_is_refused_with_the_reason(session, kind, value, words):
    gid = games.create_game(session, "tmotp", {}, SEATS, seed="standing-2").id
    state = from_dict(session.get(Game, gid).state)
    with pytest.raises(StandingOrderError) as refused:
        standing.file(session, gid, "kennedy", kind, value, state)
    assert words in str(refused.value)
    assert standing.of_game(session, gid) == {}


def test_1960s_policies_are_refused_in_a_game_of_mr_president(session):
    """Mr. President declares no policies: one for a trigger or second-place decision would be
    filed and never used, so it is refused with the reason and what it may file; a default order
    is filed."""
    seats = {"p1": None, "p2": None, "p3": None}
    gid = games.create_game(session, "mrpresident", {"edition": "dial", "players": 3}, seats,
                            seed="standing-mp").id
    state = from_dict(session.get(Game, gid).state)
    for kind, value in (("trigger", "always"), ("second_place", "momentum")):
        with pytest.raises(StandingOrderError, match="does not have; its standing orders are "
                                                     "deadline_default"):
            standing.file(session, gid, "p1", kind, value, state)
        with pytest.raises(StandingOrderError, match="does not have"):
            standing.file(session, gid, "p1", kind, value)      # known from the game's row
    standing.file(session, gid, "p1", "deadline_default", ["play 13"], state)
    assert standing.of_game(session, gid) == {"p1": {"deadline_default": ["play 13"]}}
