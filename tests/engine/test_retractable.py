"""Which orders may be taken back until the next seat has seen them (issue 27, item 3): the
engine decides, from the order's own log segment (engine.core.retract.may_retract and each
game's ``retractable``). Played over fixed-seed random games, as the server plays an order:
the action, then chance and forced choices until somebody has a real choice."""

from __future__ import annotations

import random

import pytest

import engine.core as engine
from engine.core import CHANCE, from_dict, may_retract


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


# --- issue 46, item 2: the other seat's automatic answers are undone with the move ----------

def _auto_orders(seed: str, limit: int = 300):
    """Orders of a random 1960 game played as the server plays them with both seats' trigger
    standing order ``helps_me``: an order whose card for CP asks the opponent the trigger
    question has it answered by the policy inside the order (its position noted as
    automatic), then the mover goes on (plain moves, as a multi-action order) until the
    decision leaves them. (seat, segment, automatic positions, state after), only those with
    an automatic answer."""
    state = engine.new_game("tmotp", seed=seed)
    _advance(state)
    rng = random.Random(seed)
    out, n = [], 0
    while state.active() and n < limit:
        n += 1
        active = state.active()
        if len(active) > 1:
            for seat in active:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            _advance(state)
            continue
        seat = active[0]
        before = state.log_length()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        auto = []
        for _ in range(40):
            _advance(state)
            active = state.active()
            if (len(active) == 1 and active[0] != seat
                    and state.standing_policy(active[0]) == "trigger"):
                at = state.log_length()
                state.apply(active[0], state.standing_answer(active[0], "helps_me")[0])
                auto.extend(range(at - before, state.log_length() - before))
                continue
            if not auto or active != [seat]:
                break
            plain = [a for a in state.legal_actions(seat) if a.startswith(PLAIN)]
            if not plain:
                break
            state.apply(seat, rng.choice(plain))
        if auto:
            out.append((seat, [list(e) for e in state.log_since(before)], auto,
                        from_dict(state.to_dict())))
    return out


@pytest.fixture(scope="module")
def auto_orders():
    return [o for seed in ("auto-1", "auto-2", "auto-3", "auto-4") for o in _auto_orders(seed)]


def test_an_automatic_pass_of_the_other_seat_is_undone_with_the_move(auto_orders):
    """The opponent's standing order declined the trigger inside a plain move that handed the
    decision over: nobody chose it, so the move may be taken back; the same entry made by a
    person (not automatic) makes it final, "other_seat"."""
    from engine.core import why_final
    passed = [o for o in auto_orders
              if all(e[1].startswith(PLAIN) or e[1].startswith("play ") for e in o[1])
              and all(o[1][i][1] == "pass" for i in o[2])
              and not any(e[0] == CHANCE for e in o[1])
              and all(not e[1].startswith("play ") or e[1].endswith((" campaign",
                                                                       " position"))
                      for e in o[1])
              and o[3].active() == [next(s for s in ("kennedy", "nixon") if s != o[0])]]
    assert passed, "no automatic pass in the sample games"
    for seat, segment, auto, state in passed:
        assert may_retract(state, seat, segment, auto) is True
        assert why_final(state, seat, segment, auto) is None
        assert may_retract(state, seat, segment) is False
        assert why_final(state, seat, segment) == "other_seat"


def test_an_automatic_trigger_that_drew_or_showed_stays_final(auto_orders):
    """The standing order triggered the event: its draw or what it may show keeps the move
    final, and the reason is that (never "another player's choice")."""
    from engine.core import why_final
    triggered = [o for o in auto_orders if any(o[1][i][1] == "trigger" for i in o[2])]
    assert triggered, "no automatic trigger in the sample games"
    for seat, segment, auto, state in triggered:
        assert may_retract(state, seat, segment, auto) is False
        assert why_final(state, seat, segment, auto) in ("chance", "hidden", "not_handed_over")
