"""Standing orders as the games declare them (engine.core.GameInfo.standing_policies) and answer
them (GameState.standing_policy / standing_answer): the server only stores and applies them
(server/services/standing.py; tests/server/test_standing_orders.py)."""
from __future__ import annotations

import pytest

import engine.core as engine
from engine.core import CHANCE, play_random
from engine.games import GAMES
from engine.games.tmotp import standing as tmotp_standing

SEEDS = range(3)


def _decisions(game_id: str, seed) -> list[tuple]:
    """(seat, kind, legal actions, {value: answer}, asks) at every decision of a random game."""
    declared = engine.info(game_id).standing_policies
    seen = []

    def check(state):
        for seat in state.active():
            if seat == CHANCE:
                continue
            kind = state.standing_policy(seat)
            answers = ({value: state.standing_answer(seat, value) for value in declared[kind]}
                       if kind in declared else {})
            seen.append((seat, kind, state.legal_actions(seat), answers, state.asks(seat)))

    play_random(game_id, seed, policy_seed=f"standing/{seed}", check=check)
    return seen


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_standing_order_answers_only_a_declared_decision_with_a_legal_action(game_id, seed):
    declared = engine.info(game_id).standing_policies
    assert all("ask" in values for values in declared.values())   # withdrawing is always one
    assert "deadline_default" not in declared                    # the server's, every game's
    for seat, kind, legal, answers, _asks in _decisions(game_id, seed):
        assert kind is None or kind in declared, (seat, kind)
        for value, given in answers.items():
            if value == "ask":
                assert given is None        # "ask" files nothing: the seat is asked
                continue
            assert given is not None, (kind, value)
            action, rule = given
            assert action in legal and rule.startswith(f"{kind}:"), (kind, value, given)


def test_mr_president_declares_no_standing_orders_and_answers_none():
    assert engine.info("mrpresident").standing_policies == {}
    assert {kind for _, kind, *_ in _decisions("mrpresident", 1)} == {None}


def test_1960_declares_the_trigger_second_place_and_debate_side_policies_and_meets_them():
    """(The Z-Man edition's strategy_order: test_election_day_strategy_order.py.)"""
    assert engine.info("tmotp").standing_policies == {
        "trigger": ("never", "always", "helps_me", "ask"),
        "second_place": ("momentum", "endorsement", "ask"),
        "debate_side": ("mine", "ask"),
        "strategy_order": ("when_short", "given", "ask")}
    met = {(kind, asks["step"]) for seed in SEEDS
           for _, kind, _, _, asks in _decisions("tmotp", seed) if kind is not None}
    assert met == {("trigger", "trigger"), ("second_place", "award_choice"),
                   ("debate_side", "debate_side")}


@pytest.mark.parametrize("value, expected", [
    ("never", ("pass", "trigger:never")), ("always", ("trigger", "trigger:always"))])
def test_never_passes_and_always_triggers(value, expected):
    """GMT 2nd ed. p. 7, Triggering Events: the opponent may spend a momentum marker to trigger
    the event of a card played for campaign points, or not."""
    asks = {"step": "trigger", "card": 1, "icon": "nixon"}
    assert tmotp_standing.answer(asks, "kennedy", value) == expected


@pytest.mark.parametrize("icon, seat, expected", [
    ("kennedy", "kennedy", "trigger"), ("both", "kennedy", "trigger"),
    ("nixon", "kennedy", "pass"), ("nixon", "nixon", "trigger"), ("both", "nixon", "trigger"),
    ("kennedy", "nixon", "pass")])
def test_helps_me_means_the_seats_own_icon_or_both(icon, seat, expected):
    """The rulebook's tip (p. 7): a card with your candidate icon on it benefits you."""
    asks = {"step": "trigger", "card": 1, "icon": icon}
    assert tmotp_standing.answer(asks, seat, "helps_me") == (expected, "trigger:helps_me")
    assert tmotp_standing.answer(asks, seat, "ask") is None


def test_a_policy_answers_its_own_decision_only():
    trigger = {"step": "trigger", "card": 1, "icon": "both"}
    award = {"step": "award_choice"}
    assert tmotp_standing.answer({"step": "activity"}, "kennedy", "always") is None
    assert tmotp_standing.answer(None, "kennedy", "always") is None
    assert tmotp_standing.answer(award, "kennedy", "always") is None
    assert tmotp_standing.answer(trigger, "kennedy", "momentum") is None
    assert tmotp_standing.answer(award, "nixon", "endorsement") == (
        "endorsement", "second_place:endorsement")


def test_the_state_answers_a_trigger_decision_by_the_cards_icon():
    """Through the protocol: at every trigger decision of a random game, helps_me triggers
    exactly the cards bearing the seat's own icon."""
    triggers = [(seat, asks, answers) for seed in SEEDS
                for seat, kind, _, answers, asks in _decisions("tmotp", seed)
                if kind == "trigger"]
    assert triggers
    for seat, asks, answers in triggers:
        helps = asks["icon"] in (seat, "both")
        assert answers["helps_me"] == ("trigger" if helps else "pass", "trigger:helps_me")


@pytest.mark.parametrize("seat", ["kennedy", "nixon"])
def test_debate_side_mine_places_a_card_with_both_icons_on_the_seats_own_side(seat):
    """GMT 2nd ed. p. 12, "4. Debate!": a card showing both candidate icons may be placed on
    either side; ``mine`` is the seat's own, ``ask`` asks (the sacrifice stays a question)."""
    asks = {"step": "debate_side"}
    assert tmotp_standing.answer(asks, seat, "mine") == (f"side {seat}", "debate_side:mine")
    assert tmotp_standing.answer(asks, seat, "ask") is None
    assert tmotp_standing.answer({"step": "trigger", "card": 1, "icon": "both"}, seat,
                                 "mine") is None
    assert tmotp_standing.answer(asks, seat, "helps_me") is None


def test_the_state_places_both_icon_debate_cards_by_the_policy():
    """Through the protocol: at every debate_side decision of a random game the policy names
    the seat's own side, a legal action there."""
    sides = [(seat, legal, answers) for seed in SEEDS
             for seat, kind, legal, answers, _asks in _decisions("tmotp", seed)
             if kind == "debate_side"]
    assert sides
    for seat, legal, answers in sides:
        assert answers["mine"] == (f"side {seat}", "debate_side:mine")
        assert f"side {seat}" in legal


def test_the_suggested_values_are_declared_ones():
    """What a new game offers first (SUGGESTED) is a value of each declared policy."""
    assert set(tmotp_standing.SUGGESTED) == set(tmotp_standing.POLICIES)
    for kind, value in tmotp_standing.SUGGESTED.items():
        assert value in tmotp_standing.POLICIES[kind]
    assert tmotp_standing.SUGGESTED["trigger"] == "helps_me"
