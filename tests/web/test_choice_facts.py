"""Issue 47, item 6: every 1960 decision shows what the rulebook says the player weighs, on the
game page's form and in the decision mail, in en/ja/es (server/games/tmotp/choice_facts.py):
a state offered with its electoral votes and who leads it with how many support cubes (Swing
State and every choice of states), an issue offered with its leader and cubes (the Issue
Shift), the issue the second-place award is for, the issue a Debate award is for, and the
Debate cards each side has left (the reader's by name, the opponent's only as a count).

The positions are the engine scenarios' (tests/engine/scenarios), rendered through the shared
decision form template and the decision mail."""

from __future__ import annotations

import html
import re
from functools import partial

import pytest
from flask import g as request_globals

from engine.games.tmotp.data import CARDS
from server.games.tmotp import cards as card_words
from server.games.tmotp import choice_facts
from server.games.tmotp.page_words import Words
from server.mail import contexts, render
from server.web import decision_form
from server.web.pages import environment
from tests.engine.cards import helpers as card_scenes
from tests.engine.scenarios.helpers import force, reach_debates, step
from tests.engine.scenarios.test_momentum_phase import to_momentum_phase
from tests.mail.test_templates import LINKS

FILL = {"kennedy": [60, 61, 62, 63, 64, 65], "nixon": [66, 67, 68, 69, 70, 73]}
LOCALES = ("en", "ja", "es")


def _text(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup)))


def _form_text(app, g, seat: str, loc: str) -> str:
    """The decision form of ``seat`` as the game page renders it, in ``loc``, as text."""
    view = g.view(seat)
    with app.test_request_context("/"):
        request_globals.page_locale = loc
        form = decision_form.build({"legal_actions": view["legal_actions"], "step": 7}, view,
                                   loc)
        markup = environment(loc).get_template("_decision_form.html").render(
            form=form, action_url="/games/1/order", step=7, preselect=None, submit_label=None,
            csrf_token=lambda: "token", part=lambda name: name, locale=loc)
    return _text(markup)


def _mail_text(g, seat: str, loc: str) -> str:
    view = g.view(seat)
    context = contexts.your_decision(1, seat, 7, view, "Ann", loc, LINKS,
                                     choice_url=lambda a: "https://x.example/" + a.replace(" ", "-"))
    return render.render("your_decision", context, loc).text


def _both(app, g, seat, loc) -> dict[str, str]:
    return {"form": _form_text(app, g, seat, loc), "mail": _mail_text(g, seat, loc)}


# --- states offered: Swing State -------------------------------------------------------------

SWING = {  # Kennedy plays Swing State: Nixon leads California by 1 and Ohio by 2
    "en": ["California (CA) · 32 electoral votes · Nixon leads with 1 support cube",
           "Ohio (OH) · 25 electoral votes · Nixon leads with 2 support cubes"],
    "ja": ["カリフォルニア州 (CA) · 選挙人票32 · ニクソンが支持キューブ1個でリード",
           "オハイオ州 (OH) · 選挙人票25 · ニクソンが支持キューブ2個でリード"],
    "es": ["California (CA) · 32 votos electorales · Nixon lidera con 1 cubo de apoyo",
           "Ohio (OH) · 25 votos electorales · Nixon lidera con 2 cubos de apoyo"],
}


@pytest.mark.parametrize("loc", LOCALES)
def test_swing_state_shows_each_states_electoral_votes_and_support(app, loc):
    g = card_scenes.event("kennedy", 10, "gmt", fill=FILL, clear_support=True,
                          support={"OH": -2, "PA": -4, "TX": 1, "CA": -1})
    assert g.legal_actions("kennedy") == ["choose CA", "choose OH"]
    for where, text in _both(app, g, "kennedy", loc).items():
        for line in SWING[loc]:
            assert line in text, (where, loc, text)


def test_every_state_or_issue_a_choice_offers_has_its_facts():
    """The label of any choice naming a state (an event's choice, removing support, a Recount)
    or an issue (an event's choice, Herb Klein's cubes) carries its facts; Positioning's planner
    keeps its own."""
    view = {"states": {"MS": {"leader": "kennedy", "support": 3}, "OH": {"leader": None,
                                                                         "support": 0}},
            "issues": {"economy": {"leader": "nixon", "cubes": 1}}}
    words = Words("en")
    assert choice_facts.label("remove MS", {"step": "remove_support"}, view, words) == \
        "Mississippi (MS) · 8 electoral votes · Kennedy leads with 3 support cubes"
    assert choice_facts.label("recount OH", {"step": "recount"}, view, words) == \
        "Ohio (OH) · 25 electoral votes · no support cubes"
    assert choice_facts.label("choose economy", {"step": "choose"}, view, words) == \
        "Economy (Nixon leads, 1 cube)"
    assert choice_facts.label("position economy", {"step": "issue_cubes"}, view, words) == \
        "Economy (Nixon leads, 1 cube)"
    assert choice_facts.label("position economy", {"step": "positioning"}, view, words) == \
        "Economy"
    assert choice_facts.label("pass", {"step": "choose"}, view, words) == "Pass"


# --- the Momentum Phase: the second-place award and the Issue Shift ---------------------------

AWARD = {"en": "The second-place issue on the Issues Track: Economy (Nixon leads, 2 cubes).",
         "ja": "争点トラックの2番目の争点: 経済（ニクソンがリード、キューブ2個）。",
         "es": "El problema del segundo lugar en el Registro de problemas: Economía (Nixon "
               "lidera, 2 cubos)."}


@pytest.mark.parametrize("loc", LOCALES)
def test_the_second_place_award_names_its_issue(app, loc):
    g = to_momentum_phase("gmt", issues={"defense": 2, "economy": -2, "civil_rights": 2})
    assert step(g) == "award_choice" and g.active() == ["nixon"]
    for where, text in _both(app, g, "nixon", loc).items():
        assert AWARD[loc] in text, (where, text)


SHIFT = {
    "en": ["The Issues Track now: 1. Defense (Kennedy leads, 2 cubes) · 2. Economy (Nixon "
           "leads, 1 cube) · 3. Civil Rights (no cubes).",
           "Swap Defense (Kennedy leads, 2 cubes) and Economy (Nixon leads, 1 cube)",
           "Swap Economy (Nixon leads, 1 cube) and Civil Rights (no cubes)"],
    "ja": ["現在の争点トラック: 1. 国防（ケネディがリード、キューブ2個） · 2. 経済（ニクソンがリード、"
           "キューブ1個） · 3. 公民権（キューブなし）。"],
    "es": ["El Registro de problemas ahora: 1. Defensa (Kennedy lidera, 2 cubos) · 2. Economía "
           "(Nixon lidera, 1 cubo) · 3. Derechos civiles (sin cubos)."],
}


@pytest.mark.parametrize("loc", LOCALES)
def test_the_issue_shift_shows_each_issues_leader_and_cubes(app, loc):
    g = to_momentum_phase("gmt", media={"west": 1, "east": 1, "south": -1},
                          issues={"defense": 2, "economy": -1})
    assert step(g) == "issue_shift" and g.active() == ["kennedy"]
    for where, text in _both(app, g, "kennedy", loc).items():
        for line in SHIFT[loc]:
            assert line in text, (where, text)


# --- the Debates: the cards left, the award's issue -------------------------------------------

KENNEDY, NIXON = [20, 55, 24, 43, 41], [12, 27, 29, 45, 48]


def _names(cids, loc):
    return [card_words.name(c, loc) for c in cids]


@pytest.mark.parametrize("loc", LOCALES)
def test_the_debates_show_the_cards_each_side_has_left_and_no_hidden_card(app, loc):
    g = reach_debates(KENNEDY, NIXON)
    force(g, ("kennedy", "debate 20"), ("nixon", "debate 12"))
    assert step(g) == "debate_round"
    left = {"en": "Nixon has 4 Debate cards left, face down.",
            "ja": "ニクソンには裏向きの討論のカードが4枚残っています。",
            "es": "A Nixon le quedan 4 cartas de debate, boca abajo."}[loc]
    # Kennedy's own cards are the decision's choices: counted in the facts, each named once
    # (as a choice), never twice.
    mine = {"en": "You have 4 Debate cards left: the choices below.",
            "ja": "あなたには討論のカードが4枚残っています（下の選択肢）。",
            "es": "Te quedan 4 cartas de debate: las opciones de abajo."}[loc]
    for where, text in _both(app, g, "kennedy", loc).items():
        assert left in text and mine in text, (where, text)
        for name in _names([24, 41, 43, 55], loc):
            assert text.count(name) == 1, (where, name, text)
        # Nixon's cards are face down: none of them is named to Kennedy.
        for name in _names([27, 29, 45, 48], loc):
            assert name not in text, (where, name)


def test_the_debate_side_question_shows_the_cards_left(app):
    g = reach_debates(KENNEDY, [13, 27, 29, 45, 48])
    force(g, ("kennedy", "debate 20"), ("nixon", "debate 13"))
    assert step(g) == "debate_side" and g.active() == ["nixon"]
    for where, text in _both(app, g, "nixon", "en").items():
        assert "Kennedy has 4 Debate cards left, face down." in text, (where, text)
        assert card_words.name(27, "en") in text


@pytest.mark.parametrize("loc", LOCALES)
def test_a_debate_award_names_the_issue_it_is_for(app, loc):
    g = reach_debates([20, 55, 24, 43, 41], [12, 27, 29, 45, 48])
    force(g, ("kennedy", "debate 20"), ("nixon", "debate 12"))
    force(g, ("kennedy", "debate 55"), ("nixon", "debate 27"))
    assert step(g) == "debate_award"
    seat = g.active()[0]
    issue = g.top["issue"]
    totals = g.view(seat)["debate"]["totals"][issue]
    other = "nixon" if seat == "kennedy" else "kennedy"
    name = Words(loc).t["issues"][issue]
    expected = {"en": f"The award is for {name}, won {totals[seat]} CP to {totals[other]}.",
                "ja": f"{name}の特典です（{totals[seat]} CP対{totals[other]} CPで獲得）。",
                "es": f"La recompensa es por {name}, ganado por {totals[seat]} CP a "
                      f"{totals[other]}."}[loc]
    for where, text in _both(app, g, seat, loc).items():
        assert expected in text, (where, text)
