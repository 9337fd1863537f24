"""Z-Man's choice of the next Campaign Strategy card on Election Day (engine step
``election_day_strategy_order``) in words: the decision form shows the seat's revealed cards
with the state each card's three support checks go to, the decision mail lists every card under
its own heading (not the Election Day events' one) in en, ja and es, and a mail after a standing
order answered it says which order it followed."""

from __future__ import annotations

from engine.core import CHANCE
from server.mail import contexts, render
from server.web import decision_form
from tests.engine.scenarios.helpers import draws, reach_election_day
from tests.engine.scenarios.test_election_day import K_CARDS, N_CARDS, quiet
from tests.mail.test_templates import LINKS

HEADING = {"en": "Campaign Strategy card to resolve next (three support checks in its state)",
           "ja": "次に解決する選挙運動戦略カード（その州で支持チェック3回）",
           "es": "Carta de Estrategia de Campaña que se resuelve ahora (tres comprobaciones de "
                 "apoyo en su estado)"}
PROMPT = {"en": "Campaign Strategy on Election Day: choose which of your Campaign Strategy cards",
          "ja": "次に解決する選挙運動戦略カードを選んでください",
          "es": "elige cuál de tus cartas de Estrategia de Campaña se resuelve ahora"}


def _asked():
    """Z-Man, Election Day: Kennedy, with the initiative, chooses his first card (Wisconsin,
    Ohio and two for New York; Nixon leads New York by 3)."""
    g = reach_election_day(K_CARDS, N_CARDS, "zman", before_strategy=quiet(support={"NY": -3}))
    draws(g, "kennedy", "kennedy")
    assert g.active() == ["kennedy"] and g.top["step"] == "election_day_strategy_order"
    return g


def _signed(action: str) -> str:
    return "https://whistlestop.example/games/1/decide/signed-" + action.replace(" ", "-")


def test_the_form_shows_each_card_with_the_state_its_checks_go_to(app):
    g = _asked()
    view = g.view("kennedy")
    legal = g.legal_actions("kennedy")
    with app.test_request_context():
        form = decision_form.build({"legal_actions": legal}, view, "en")
    assert form["kind"] == "picks"
    [group] = form["groups"]
    assert group["legend"] == HEADING["en"]
    assert sorted(o["value"] for o in group["options"]) == sorted(legal)
    by_card = {o["card"]["id"]: o["card"] for o in group["options"]}
    assert sorted(by_card) == sorted(K_CARDS)
    assert by_card[19]["favours"]["text"] == (
        "Three support checks in New York (NY) (45 electoral votes, now Nixon 3).")
    assert "Ohio (OH)" in by_card[61]["favours"]["text"]


def test_the_decision_mail_lists_every_card_under_its_heading_in_each_language():
    g = _asked()
    view = g.view("kennedy")
    for loc in ("en", "ja", "es"):
        context = contexts.your_decision(1, "kennedy", 7, view, "Ann", loc, LINKS,
                                         choice_url=_signed)
        groups = context["choices"]["groups"]
        assert [gr["heading"] for gr in groups] == [HEADING[loc]], loc
        assert sorted(o["action"] for o in groups[0]["options"]) == g.legal_actions("kennedy")
        mail = render.render("your_decision", context, loc)
        assert HEADING[loc] in mail.text and PROMPT[loc] in mail.text, loc
        for option in groups[0]["options"]:
            assert option["label"] in mail.text and option["url"] in mail.html


def test_the_other_player_waits_and_sees_every_revealed_card():
    g = _asked()
    view = g.view("nixon")
    assert view["legal_actions"] == [] and view["active"] == ["kennedy"]
    assert view["election_strategy"] == {"kennedy": K_CARDS, "nixon": N_CARDS}
    assert CHANCE not in view["active"]


def test_a_mail_after_the_standing_order_answered_names_it():
    for rule, words in (("strategy_order:given", "in the order you placed them"),
                        ("strategy_order:when_short", "while the bag holds a cube for every")):
        [row] = contexts.described([{"actions": ["resolve 62"], "source": "standing",
                                     "rule": rule}], "en", "tmotp")
        assert "Campaign Strategy cards on Election Day" in row["text"] and words in row["text"]
        [ja] = contexts.described([{"actions": ["resolve 62"], "source": "standing",
                                    "rule": rule}], "ja", "tmotp")
        assert "選挙運動戦略カード" in ja["text"]
