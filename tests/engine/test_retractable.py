"""Which orders may be taken back until the next seat has seen them (issue 27, item 3): the
engine decides, from the order's own log segment (engine.core.retract.may_retract and each
game's ``retractable``). Played over fixed-seed random games, as the server plays an order:
the action, then chance and forced choices until somebody has a real choice."""

from __future__ import annotations

import random

import pytest

import engine.core as engine
from engine.core import CHANCE, may_retract


def _advance(state) -> None:
    while True:
        active = state.active()
        if active == [CHANCE]:
            state.apply(CHANCE, engine.sample_chance(state))
        elif active and all(len(state.legal_actions(s)) == 1 for s in active):
            for seat in active:
                state.apply(seat, state.legal_actions(seat)[0])
        else:
            return


def orders(game_id: str, seed: str, limit: int = 400, **options):
    """(seat, segment, may_retract, seats asked next) of each sequential order of a random game."""
    state = engine.new_game(game_id, seed=seed, options=options)
    _advance(state)
    rng = random.Random(seed)
    out = []
    while state.active() and len(out) < limit:
        active = state.active()
        if len(active) > 1:  # a sealed step: every seat commits, then it resolves
            for seat in active:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            _advance(state)
            continue
        seat = active[0]
        before = len(state.s["log"])
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        _advance(state)
        segment = [list(e) for e in state.s["log"][before:]]
        out.append((seat, segment, may_retract(state, seat, segment), list(state.active())))
    return out


@pytest.fixture(scope="module")
def tmotp_orders():
    return orders("tmotp", "retract-1") + orders("tmotp", "retract-2")


PLAIN = ("campaign ", "travel ", "done", "position ", "media ", "pass", "swap ", "momentum")


def test_a_plain_move_handing_the_decision_over_may_be_taken_back(tmotp_orders):
    """Campaigning, Positioning, a media cube, declining: nothing drawn, nothing shown, and
    the decision passes to the opponent."""
    plain = [o for o in tmotp_orders if all(e[0] == o[0] and e[1].startswith(PLAIN)
                                             for e in o[1])
             and len(o[3]) == 1 and o[3][0] not in (o[0], CHANCE)]
    assert len(plain) > 5, "too few plain moves in the sample games"
    assert all(ok for _, _, ok, _ in plain)


def test_a_move_after_which_the_mover_decides_again_is_final(tmotp_orders):
    again = [o for o in tmotp_orders if o[3] == [o[0]]]
    assert again
    assert not any(ok for _, _, ok, _ in again)


def test_an_order_that_drew_is_never_taken_back(tmotp_orders):
    drew = [o for o in tmotp_orders if any(e[0] == CHANCE for e in o[1])]
    assert drew
    assert not any(ok for _, _, ok, _ in drew)


def test_an_event_that_may_reveal_a_card_is_never_taken_back(tmotp_orders):
    events = [o for o in tmotp_orders
              if any(e[1].startswith("play ") and e[1].endswith(" event") for e in o[1])]
    assert events
    assert not any(ok for _, _, ok, _ in events)


def test_every_retractable_order_is_the_movers_alone_and_hands_over(tmotp_orders):
    for seat, segment, ok, _ in tmotp_orders:
        if ok:
            assert all(e[0] == seat for e in segment)


def test_a_plain_state_says_yes_and_a_draw_says_no():
    """The same play, with and without a support check's draw after it."""
    state = engine.new_game("tmotp", seed="retract-3")
    _advance(state)
    for seat, segment, ok, _ in orders("tmotp", "retract-3", limit=60):
        if ok:
            assert not any(e[0] == CHANCE for e in segment)
            assert may_retract(state, seat, segment + [[CHANCE, "draw kennedy"]]) is False
            break
    else:
        pytest.fail("no retractable order in the first 60")


def test_mr_president_never_takes_back_a_sealed_order():
    assert not any(ok for _, _, ok, _ in orders("mrpresident", "retract-4", players=3))
    state = engine.new_game("mrpresident", seed="r", options={"players": 2})
    assert state.retractable("p1", [["p1", "play 1"]]) is False


def test_the_default_is_final():
    state = engine.new_game("mrpresident", seed="r", options={"players": 2})
    assert engine.GameState.retractable(state, "p1", [["p1", "x"]]) is False


def test_why_final_names_the_reason(tmotp_orders):
    from engine.core import why_final
    state = engine.new_game("tmotp", seed="retract-5")
    assert why_final(state, "kennedy", [["kennedy", "play 3 event"], [CHANCE, "draw nixon"]]) \
        == "chance"
    assert why_final(state, "kennedy", [["kennedy", "pass"], ["nixon", "pass"]]) == "other_seat"
