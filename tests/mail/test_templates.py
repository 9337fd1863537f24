"""Every mail template, rendered with fixed inputs from a fixed game in every locale, compared
with checked-in output (tests/mail/expected/<kind>.<locale>.txt|html). After a deliberate change,
regenerate with WHISTLESTOP_UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import os
import random
from pathlib import Path

import engine.core as engine
import pytest

from server.mail import contexts, render
from server.mail.summary_tmotp import card_name
from server.services.games import _advance

EXPECTED = Path(__file__).with_name("expected")
LINKS = contexts.Links("https://whistlestop.example")
UPDATE = os.environ.get("WHISTLESTOP_UPDATE_GOLDEN") == "1"


def _game(until_simultaneous: bool):
    """A fixed game: seed and choices fixed, played to its 25th decision or first simultaneous
    step."""
    state = engine.new_game("tmotp", seed="golden")
    _advance(state)
    rng = random.Random(5)
    for _ in range(200 if until_simultaneous else 25):
        active = state.active()
        if len(active) != 1:
            break
        state.apply(active[0], rng.choice(state.legal_actions(active[0])))
        _advance(state)
    return state


def _finished():
    state = engine.new_game("tmotp", seed="golden-end")
    _advance(state)
    rng = random.Random(6)
    while state.active():
        for seat in state.active():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        _advance(state)
    return state


def contexts_by_kind(locale: str) -> dict[str, dict]:
    sequential = _game(until_simultaneous=False)
    seat = sequential.active()[0]
    simultaneous = _game(until_simultaneous=True)
    over = _finished()
    return {
        "your_decision": contexts.your_decision(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, notes_seen=20,
            choice_url=lambda action: f"{LINKS.base_url}/games/12/decide/signed-"
                                      + action.replace(" ", "-")),
        "your_decision-simultaneous": contexts.your_decision(
            12, "nixon", 61, simultaneous.view("nixon"), "Dick", locale, LINKS, notes_seen=0),
        "game_started": contexts.game_started(12, "kennedy", "Jack", "ab12" * 16, locale,
                                              LINKS),
        "game_over": contexts.game_over(12, "nixon", over.view("nixon"),
                                        over.outcome().to_dict(), "golden-end", "cd34" * 16,
                                        "Dick", locale, LINKS),
        "seat_joined": contexts.seat_joined(12, "kennedy", "Jack", "Dick", "nixon", True,
                                            locale, LINKS),
        "invitation": contexts.invitation(12, "nixon", "Jack", locale, LINKS),
        "order_answer-applied": contexts.order_answer(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["campaign NY 2"], "status": "applied", "applied": ["campaign NY 2"],
             "answered_step": 24}, 25, notes_seen=20),
        "order_answer-sealed": contexts.order_answer(
            12, "nixon", {**simultaneous.view("nixon"), "legal_actions": []}, "Dick", locale,
            LINKS, {"lines": ["debate 1"], "status": "sealed", "applied": ["debate 1"],
                    "answered_step": 61}, 61, notes_seen=0),
        "order_answer-illegal": contexts.order_answer(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["campaign ZZ 9"], "status": "illegal", "answered_step": 25,
             "reason": "ZZ is not a state.", "legal": sequential.view(seat)["legal_actions"]},
            25, notes_seen=20),
        "order_answer-stale": contexts.order_answer(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["pass"], "status": "stale", "answered_step": 22}, 25, notes_seen=20),
        "reply_unknown": contexts.reply_unknown("Jack", "r+7-nixon-00@whistlestop.example",
                                                locale, LINKS),
    }


@pytest.mark.parametrize("locale", render.LOCALES)
def test_every_template_matches_its_expected_output(locale):
    mismatched = []
    for name, context in contexts_by_kind(locale).items():
        kind = name.split("-")[0]
        rendered = render.render(kind, context, locale)
        for suffix, body in (("txt", f"Subject: {rendered.subject}\n\n{rendered.text}"),
                             ("html", rendered.html)):
            path = EXPECTED / f"{name}.{locale}.{suffix}"
            if UPDATE:
                path.write_text(body, encoding="utf-8")
            elif not path.exists() or path.read_text(encoding="utf-8") != body:
                mismatched.append(path.name)
    assert not mismatched, f"differs from the expected output: {mismatched}"


def test_every_kind_has_both_templates_with_a_subject():
    for kind in render.KINDS:
        for suffix in ("txt", "html"):
            source = (render.TEMPLATES / f"{kind}.{suffix}").read_text(encoding="utf-8")
            assert "{% block subject %}" in source or "{% block title %}" in source, kind


def test_html_has_no_style_block_left_and_text_no_markup():
    context = contexts_by_kind("en")["your_decision"]
    rendered = render.render("your_decision", context)
    assert "<style" not in rendered.html and 'style="' in rendered.html
    assert "<" not in rendered.text.replace("<-", "")


def test_html_escapes_what_players_write():
    context = contexts.seat_joined(3, "kennedy", "Jack", "<script>x</script>", "nixon", False,
                                   "en", LINKS)
    rendered = render.render("seat_joined", context)
    assert "<script>" not in rendered.html and "&lt;script&gt;" in rendered.html
    assert "<script>x</script>" in rendered.text  # plain text is not HTML


def test_unknown_locale_falls_back_to_english():
    assert render.supported("fr-CA") == "en"
    assert render.supported("es-MX") == "es" and render.supported("ja_JP") == "ja"
    assert render.supported(None) == "en"


def test_a_view_never_leaks_the_other_hand_into_the_mail():
    state = _game(until_simultaneous=False)
    for seat in ("kennedy", "nixon"):
        other = "nixon" if seat == "kennedy" else "kennedy"
        hidden = [card for card in state.s["hands"][other] if card not in state.s["hands"][seat]]
        assert hidden, "the test needs cards only the other seat holds"
        context = contexts.your_decision(1, seat, 1, state.view(seat), "P", "en", LINKS)
        rendered = render.render("your_decision", context)
        for card in hidden:
            assert card_name(card) not in rendered.text + rendered.html
        mine = state.s["hands"][seat]
        assert all(card_name(card) in rendered.text for card in mine)  # the check can see cards
