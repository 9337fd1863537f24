"""Mr. President's decision form (server/games/mrpresident/forms.py, through decision_form): over
random games of every edition and variant, the form offers exactly the engine's legal actions
(a card, a second card where allowed, the dial edition's second, upset and stop answers), no
more and no fewer, and every choice it offers composes to that legal action; a form that stands
for no order is refused before anything is sent."""

from __future__ import annotations

import random

import pytest
from werkzeug.datastructures import MultiDict

from engine.core import CHANCE, new_game
from engine.core.driver import sample_chance
from server.web import decision_form

VARIANTS = [
    {"edition": "dial", "players": 3},
    {"edition": "dial", "players": 2, "count": "electoral", "version": "short"},
    {"edition": "dial", "players": 4, "count": "electoral", "plurality": True},
    {"edition": "chalkboard", "players": 3, "version": "long", "plurality": True},
    {"edition": "chalkboard", "players": 4, "nominee": True, "parties": "lot"},
]


def offered(form: dict, state, seat) -> dict[str, dict]:
    """Every action the form lets a player send, as the engine reads it (the chalkboard's two
    cards in any order are one play) -> the form fields that send it."""
    out = {}
    for first in form["first"]:
        out[first["value"]] = {"action": first["value"]}
        for second in form["second"]:
            a, b = first["value"].split()[1], str(second["id"])
            if a == b:
                continue
            out[str(state.parse(seat, f"play {a} {b}"))] = {"action": first["value"],
                                                             "second_card": b}
    for group in form["groups"]:
        for option in group["options"]:
            out[option["value"]] = {"action": option["value"]}
    return out


def legal(state, seat) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def play(options: dict, seed: str, check) -> None:
    """A random game that lays one card four times in five (a uniform choice among the legal
    actions lays two nearly always, and so never meets an upset); ``check`` before each."""
    state, rng = new_game("mrpresident", seed=seed, options=options), random.Random(seed)
    while state.active():
        active = state.active()
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
            continue
        check(state)
        for seat in active:
            actions = legal(state, seat)
            singles = [a for a in actions if len(a.split()) == 2]
            state.apply(seat, rng.choice(singles if singles and rng.random() < 0.8
                                         else actions))
            if state.active() != active:
                break


def test_every_form_offers_exactly_the_legal_actions(app):
    steps, rng = set(), random.Random(3)

    def check(state):
        for seat in state.active():
            if seat == CHANCE:
                continue
            actions = legal(state, seat)
            form = decision_form.build({"legal_actions": actions}, state.view(seat), "en")
            assert form["kind"] == "campaign"
            steps.add(form["step_name"])
            fields = offered(form, state, seat)
            assert set(fields) == set(actions), (form["step_name"], set(fields) ^ set(actions))
            for option in [*form["first"], *form["second"],
                           *(o for g in form["groups"] for o in g["options"])]:
                assert option["label"] and "_" not in option["label"], option
            for action in rng.sample(sorted(fields), min(6, len(fields))):
                order = decision_form.compose(MultiDict(fields[action]), form)
                assert [str(state.parse(seat, line)) for line in order.lines] == [action]
                assert not order.atomic

    with app.test_request_context():
        for k, options in enumerate(VARIANTS):
            for seed in range(2):
                play(options, f"forms/{k}/{seed}", check)
    assert {"lead", "play", "answer", "upset", "stop"} <= steps, steps


def _play_form(options: dict):
    state = new_game("mrpresident", seed="form", options=options)
    while state.active() == [CHANCE]:
        state.apply(CHANCE, sample_chance(state))
    seat = state.active()[0]
    return decision_form.build({"legal_actions": legal(state, seat)}, state.view(seat), "en")


def test_the_dial_edition_turns_up_the_first_card_named(app):
    with app.test_request_context():
        dial = _play_form({"edition": "dial", "players": 3})
        assert dial["ordered"] and [c["id"] for c in dial["first"]] == list(range(1, 14))
        assert decision_form.compose(MultiDict({"action": "play 12", "second_card": "3"}),
                                     dial).lines == ["play 12 3"]
        chalk = _play_form({"edition": "chalkboard", "players": 3})
        assert not chalk["ordered"]
        # the chalkboard's two cards go as chosen: the engine reads them in any order
        assert decision_form.compose(MultiDict({"action": "play 12", "second_card": "3"}),
                                     chalk).lines == ["play 12 3"]
        # No second card: the radio's empty value; the card's name and its points in words.
        assert decision_form.compose(MultiDict({"action": "play 7", "second_card": ""}),
                                     chalk).lines == ["play 7"]
        assert dial["first"][6]["label"] == "Train Tours · 70 points"


def test_a_form_that_stands_for_no_order_is_refused(app):
    with app.test_request_context():
        form = _play_form({"edition": "dial", "players": 2})
        with pytest.raises(decision_form.Refused, match="first card"):
            decision_form.compose(MultiDict({"second_card": "5"}), form)
        assert decision_form.compose(MultiDict({}), form).lines == []
        # The notation field still goes through as written (the engine judges it).
        assert decision_form.compose(MultiDict({"lines": "play 13\n"}), form).lines == ["play 13"]
