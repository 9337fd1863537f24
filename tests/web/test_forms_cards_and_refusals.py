"""The decision forms through the pages (Flask's client): a card is shown whole where it is
decided, with whom its event favours (1960's trigger question, Campaign Strategy, the Debates);
a refused form comes back as it was filled in, the refusal said in the page's words beside the
field it is about (marked aria-invalid, described by the message), and nothing changed in the
game, for 1960 and for Mr. President.

Games are created through the services (the lobby page is another part's), and played by random
orders through the order service up to the decision wanted."""

from __future__ import annotations

import html
import re

from sqlmodel import Session, select

import engine.core as game_engine
from engine.games.tmotp.data import CARDS, STATES
from server.games.tmotp import cards, forms
from server.models import Game, User
from server.services import games
from tests.web.pages_helpers import db_engine
from tests.web.test_decision_form import _at, _drive_to, _form

LINE_WORDING = re.compile(r"line \d+ of your order", re.I)


def _user_id(app, reader) -> int:
    with Session(db_engine(app)) as s:
        return s.exec(select(User).where(User.email == reader.email)).one().id


def _new_game(app, game_type: str, options: dict, readers: list, seed: str) -> int:
    seats = game_engine.info(game_type).seats(options)
    with Session(db_engine(app)) as s:
        game = games.create_game(s, game_type, options,
                                 {seat: _user_id(app, r) for seat, r in zip(seats, readers)},
                                 seed=seed)
        return game.id


def _state(app, gid: int):
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        return game.step, games.whole_state(s, game)


def _text(page: str) -> str:
    """The page's visible words, tags dropped and entities read."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _decision(page: str) -> str:
    return page.split('id="decision-h"', 1)[1].split("</section>", 1)[0]


# --- the card where it is decided ----------------------------------------------------------

def test_the_trigger_question_shows_the_card_and_whom_its_event_favours(app, jack, dick):
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "cards/trigger")
    seat, step = _drive_to(app, gid, "trigger", seed=3)
    _step, state = _state(app, gid)
    cid = state.asks(seat)["card"]
    reader = jack if seat == "kennedy" else dick
    page = reader.game_page(gid)
    decision = _text(_decision(page))
    assert 'data-kind="card"' in page
    assert cards.event(cid, "en") in decision and cards.name(cid, "en") in decision
    assert f"{CARDS[cid]['cp']} CP" in decision
    icon = CARDS[cid]["icon"]
    expected = ("Its event favours you" if icon == seat else
                "Its event favours neither side" if icon == "both" else
                "Its event favours " + ("Nixon" if seat == "kennedy" else "Kennedy"))
    assert expected in decision, decision
    assert "favours-" not in page and 'class="favours ' in page
    # Both choices are still there, as the engine gives them.
    assert 'value="trigger"' in page and 'value="pass"' in page


def test_favours_reads_the_candidate_icon_for_the_reader(app):
    with app.test_request_context():
        kennedy_card = next(c for c, d in CARDS.items() if d["icon"] == "kennedy")
        both = next(c for c, d in CARDS.items() if d["icon"] == "both")
        assert forms.favours("kennedy", "kennedy", "en")["side"] == "you"
        assert forms.favours("kennedy", "nixon", "en")["side"] == "opponent"
        assert "Kennedy" in forms.favours("kennedy", "nixon", "en")["text"]
        assert forms.favours("both", "nixon", "en")["side"] == "neither"
        assert forms.face(kennedy_card, "nixon", "en")["favours"]["side"] == "opponent"
        assert forms.face(both, "kennedy", "en")["effect"] == cards.event(both, "en")


def test_campaign_strategy_and_the_debates_show_the_cards_with_issue_and_cp(app):
    with app.test_request_context():
        for step_name in ("campaign_strategy", "debate_round"):
            state, seat = _at(step_name, when=lambda legal: any(
                len(a.split()) == 2 and a.split()[1].isdigit() for a in legal))
            form = _form(state, seat)
            assert form["kind"] in ("picks", "cards"), (step_name, form["kind"])
            shown = ([o["card"] for g in form["groups"] for o in g["options"] if o["card"]]
                     if form["kind"] == "picks" else form["cards"])
            assert shown
            for c in shown:
                assert c["issue"] and c["cp"] == CARDS[c["id"]]["cp"] and c["effect"]
                assert c["favours"]["side"] in ("you", "opponent", "neither")


# --- refusals keep the input ------------------------------------------------------------------

def _posted_box(page: str, name: str) -> str:
    found = re.search(r'<input type="number" name="%s"[^>]*>' % re.escape(name), page)
    assert found, name
    return found.group(0)


def test_a_refused_plan_comes_back_as_typed_with_the_reason_at_its_state(app, jack, dick):
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "cards/plan")
    seat, step = _drive_to(app, gid, "campaigning", seed=5)
    reader = jack if seat == "kennedy" else dick
    _step, state = _state(app, gid)
    log_before = len(state.s["log"])
    legal = [str(a) for a in state.legal_actions(seat)]
    most = forms._most(legal, "campaign")
    # Over the card's CP: three states, each with all the CP it could take alone.
    over = {f"n.{st}": str(n) for st, n in list(most.items())[:3]}
    assert len(over) >= 2
    sent = {"step": step, **over, "stop": "1", "lines": "done"}
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", sent)
    assert refused.status_code == 422
    page = refused.data.decode()
    # Every field as it was filled in.
    for name, value in over.items():
        assert f'value="{value}"' in _posted_box(page, name), name
    assert re.search(r'name="stop" value="1" checked', page)
    assert re.search(r'<textarea id="lines" name="lines"[^>]*>done</textarea>', page)
    # The reason in the page's words, at the field: one box marked, described by the message.
    assert not LINE_WORDING.search(page)
    marked = re.findall(r'<input type="number" name="(n\.\w+)"[^>]*aria-invalid="true" '
                        r'aria-describedby="why"', page)
    assert len(marked) == 1 and marked[0] in over, marked
    why = re.search(r'<p class="why" id="why">([^<]*)</p>', page)
    assert why, page[-3000:]
    message = html.unescape(why.group(1))
    assert message.startswith(STATES[marked[0][2:]]["name"] + ", "), message
    assert "CP" in message
    assert page.count('id="why"') == 1
    # Nothing changed in the game.
    step_now, state_now = _state(app, gid)
    assert step_now == step and len(state_now.s["log"]) == log_before

    # A box outside what the form offers: refused before anything is sent, the box as typed.
    st, n = next(iter(most.items()))
    bad = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                           {"step": step, f"n.{st}": str(n + 5)})
    page = bad.data.decode()
    assert bad.status_code == 422
    assert f'value="{n + 5}"' in _posted_box(page, f"n.{st}")
    assert 'aria-invalid="true"' in _posted_box(page, f"n.{st}")
    assert f"{STATES[st]['name']}: write a whole number from 0 to {n}" in _text(page)
    assert _state(app, gid)[0] == step


def test_a_refused_written_line_keeps_the_plan_and_points_at_the_notation(app, jack, dick):
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "cards/lines")
    seat, step = _drive_to(app, gid, "campaigning", seed=9)
    reader = jack if seat == "kennedy" else dick
    _step, state = _state(app, gid)
    here = state.s["tokens"][seat]
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                               {"step": step, f"n.{here}": "1", "lines": "campaign XX 9"})
    page = refused.data.decode()
    assert refused.status_code == 422
    assert 'value="1"' in _posted_box(page, f"n.{here}")
    assert re.search(r'<textarea id="lines" name="lines"[^>]*aria-invalid="true"[^>]*>'
                     r'campaign XX 9</textarea>', page)
    assert "<details class=\"notation\" open>" in page
    assert "Your written order, at “campaign XX 9”: There is no state" in _text(page)
    assert not LINE_WORDING.search(page)
    assert _state(app, gid)[0] == step


def test_mr_president_refusal_keeps_both_cards_chosen(app, jack, dick):
    gid = _new_game(app, "mrpresident", {"edition": "chalkboard", "players": 2}, [jack, dick],
                    "cards/mrp")
    step, state = _state(app, gid)
    seat = next(s for s in state.active())
    reader = jack if seat == "p1" else dick
    page = reader.get(f"/games/{gid}").data.decode()
    assert 'name="second_card"' in page, "the chalkboard allows a second card here"
    card = re.search(r'name="action" value="play (\d+)"', page).group(1)
    log_before = len(state.s["log"])
    # The same card twice: the engine refuses the line ("two different cards").
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                               {"step": step, "action": f"play {card}", "second_card": card})
    page = refused.data.decode()
    assert refused.status_code == 422, page[-2000:]
    assert re.search(r'name="action" value="play %s" checked aria-invalid="true"' % card, page)
    assert re.search(r'name="second_card" value="%s" checked' % card, page)
    assert not re.search(r'name="second_card" value="" checked', page)
    why = re.search(r'<p class="why" id="why">([^<]*)</p>', page)
    assert why and why.group(1).strip()
    assert not LINE_WORDING.search(page)
    step_now, state_now = _state(app, gid)
    assert step_now == step and len(state_now.s["log"]) == log_before
