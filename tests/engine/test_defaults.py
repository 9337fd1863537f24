"""The safe default of a decision (engine/games/tmotp/defaults.py): always legal, declines what
can be declined, and a game where one seat only ever gets defaults still ends."""
from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, new_game, sample_chance

SEEDS = range(40)


def _play(seed, defaulted: set, options=None, seen=None):
    """Play a game: seats in ``defaulted`` always take the default, the others random actions."""
    state = new_game("tmotp", seed=f"defaults/{seed}", options=options or {})
    rng = random.Random(seed)
    for _ in range(5000):
        active = state.active()
        if not active:
            return state
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
            continue
        seat = active[0]
        legal = state.legal_actions(seat)
        if seat in defaulted:
            action = state.default_action(seat)
            assert action in legal
            if seen is not None:
                seen.setdefault(state.asks(seat)["step"], set()).add((action, tuple(legal)))
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("edition", ["gmt", "zman"])
def test_a_game_of_defaults_ends(edition):
    seen: dict = {}
    for seed in SEEDS:
        final = _play(seed, {"kennedy", "nixon"} if seed % 3 == 0 else {"nixon"},
                      {"edition": edition}, seen)
        assert final.outcome() is not None
    # The rules of the default, checked on every decision met in these games.
    for action, legal in seen.get("trigger", ()):
        assert action == "pass"
    for action, legal in seen.get("award_choice", ()):
        assert action == "momentum"
    for action, legal in seen.get("activity", ()):
        plays = [a for a in legal if a.endswith(" campaign") and a.split()[1].isdigit()]
        if "pass" in legal:
            assert action == "pass"
        elif plays:
            assert action == min(plays, key=lambda a: int(a.split()[1]))
    for action, legal in seen.get("campaign_strategy", ()):
        assert action == min(legal, key=lambda a: [int(w) for w in a.split()[1:]])
    assert {"activity", "campaign_strategy", "trigger"} <= set(seen)


def test_asks_names_the_step_and_the_triggered_card():
    for seed in range(200):
        state = new_game("tmotp", seed=f"asks/{seed}")
        rng = random.Random(seed)
        while state.active():
            active = state.active()
            if active == [CHANCE]:
                state.apply(CHANCE, sample_chance(state))
                continue
            for seat in state.seats:
                asks = state.asks(seat)
                assert (asks is not None) == (seat in active)
            asks = state.asks(active[0])
            if asks["step"] == "trigger":
                assert asks["icon"] in ("kennedy", "nixon", "both")
                assert state.view(active[0])["asks"] == asks
                return
            state.apply(active[0], rng.choice(state.legal_actions(active[0])))
    raise AssertionError("no trigger decision met")


def test_the_campaign_plan_says_where_campaign_points_need_support_checks():
    """asks()["plan"] while Campaigning: a state it lists under support_checks starts support
    checks when campaigned in (a draw from the bag), any other state takes the cubes at once;
    travel costs what the legal actions charge."""
    from engine.games.tmotp.data import STATES, travel_cost
    met = {True: 0, False: 0}
    for seed in range(40):
        state = new_game("tmotp", seed=f"plan/{seed}")
        rng = random.Random(seed)
        while state.active() and min(met.values()) < 20:
            active = state.active()
            if active == [CHANCE]:
                state.apply(CHANCE, sample_chance(state))
                continue
            seat = active[0]
            asks = state.asks(seat)
            if asks["step"] == "campaigning":
                plan = asks["plan"]
                legal = [str(a) for a in state.legal_actions(seat)]
                for st in STATES:
                    most = max((int(a.split()[2]) for a in legal
                                if a.startswith(f"campaign {st} ")), default=0)
                    travel = 0 if plan["free_travel"] else travel_cost(plan["token"], st)
                    if st not in plan["barred"] and st not in plan["declared"] \
                            and not plan["max_per_state"]:
                        assert most == max(0, plan["cp"] - travel), (st, plan)
                st = rng.choice([a for a in legal if a.startswith("campaign")]).split()[1]
                checks = st in plan["support_checks"]
                state.apply(seat, f"campaign {st} 1")
                drew = state.s["stack"] and state.s["stack"][-1]["step"] == "support_checks"
                assert bool(drew) == checks, (st, plan)
                met[checks] += 1
                continue
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert min(met.values()) >= 5, met
