"""What a simultaneous step shows of its sealed orders: the seat's own order back to it, and how
many seats have committed (server/services/games.py, ``sealed_actions`` and ``pending_seats``,
read by prebuilt statements on the driver's cursor). On SQLite and PostgreSQL."""

from __future__ import annotations

import random

from server.models import Game, Order
from server.services import games
from server.services.games import create_game, submit_order

SEATS = {"kennedy": None, "nixon": None}


def _to_a_sealed_step(session, game_id: int, rng: random.Random) -> tuple[Game, list[str]]:
    """Play random sequential orders until every seat is asked at once."""
    for _ in range(200):
        game = session.get(Game, game_id)
        session.refresh(game)
        state = games._load(game)
        active = state.active()
        if len(active) > 1:
            return game, active
        submit_order(session, game_id, active[0], game.step,
                     [rng.choice(state.legal_actions(active[0]))], by_player=False)
    raise AssertionError("no simultaneous step in 200 orders")


def test_a_sealed_order_is_shown_to_its_seat_only_and_counted_for_the_others(session):
    game = create_game(session, "tmotp", {}, SEATS, seed="sealed")
    game, active = _to_a_sealed_step(session, game.id, random.Random(3))
    first, second = active
    assert games.pending_seats(session, game.id, game.step) == set()
    assert games.sealed_actions(session, game.id, game.step, first) is None

    action = str(games._load(game).legal_actions(first)[0])
    submit_order(session, game.id, first, game.step, [action])
    game = session.get(Game, game.id)
    session.refresh(game)
    assert games.pending_seats(session, game.id, game.step) == {first}
    assert games.sealed_actions(session, game.id, game.step, first) == [action]
    assert games.sealed_actions(session, game.id, game.step, second) is None
    mine = games.decision_for(session, game, first)
    theirs = games.decision_for(session, game, second)
    assert (mine["your_order"], mine["active"], mine["committed"]) == ([action], False, 1)
    assert (theirs["your_order"], theirs["active"], theirs["committed"]) == (None, True, 1)
    assert not games.your_move(session, game, first) and games.your_move(session, game, second)


def test_the_sealed_orders_include_the_sessions_unwritten_ones(session):
    """As an ORM query would (autoflush): an order added in the session's transaction and not
    yet written is counted."""
    game = create_game(session, "tmotp", {}, SEATS, seed="unwritten")
    game, active = _to_a_sealed_step(session, game.id, random.Random(4))
    before = games.pending_seats(session, game.id, game.step)  # the server's forced orders
    seat = next(x for x in active if x not in before)
    session.add(Order(game_id=game.id, step=game.step, seat=seat, actions=["x"]))
    assert games.pending_seats(session, game.id, game.step) == before | {seat}
    assert games.sealed_actions(session, game.id, game.step, seat) == ["x"]
    session.rollback()
    assert games.pending_seats(session, game.id, game.step) == before
