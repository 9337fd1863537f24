"""Absent seats on the game page (issue 46, item 1; server/web/absence_section.py and
server/web/absences.py): the section above the decision, each choice's button with its line,
"I am sure" for claim and end, a refusal in the reader's words keeping what was typed, the
replacement's one-time link shown once and its page (GET changes nothing, POST takes the seat,
signing in first), the silent player's own words and "Take my seat back"; in en, ja and es."""

from __future__ import annotations

import html

import pytest
from sqlmodel import Session, select

from server.models import Game, User
from server.services import bots
from tests.server.api.absence_setup import absence, goes_silent, leaves, seat_user
from tests.web.pages_helpers import (Reader, csrf, db_engine, new_game, new_mrpresident_game,
                                     path_of)


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch):
    monkeypatch.setitem(bots.BUDGETS, "strong", {"iterations": 6})


def _id(app, email) -> int:
    with Session(db_engine(app)) as s:
        return s.exec(select(User.id).where(User.email == email)).one()


def _choose(reader, gid, absence_id, choice, **more):
    return reader.post_form(f"/games/{gid}", f"/games/{gid}/absences",
                            {"absence_id": str(absence_id), "choice": choice, **more})


def _game(app, gid) -> Game:
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        s.expunge(game)
        return game


def _locale(app, email, loc):
    with Session(db_engine(app)) as s:
        user = s.exec(select(User).where(User.email == email)).one()
        user.locale = loc
        s.add(user)
        s.commit()


def test_no_absence_no_section(app, jack, dick):
    gid = new_game(jack, dick)
    assert 'id="absence"' not in jack.game_page(gid)


def test_the_section_sits_above_the_decision_with_each_choice_and_its_line(app, jack, dick):
    gid = new_game(jack, dick)
    leaves(db_engine(app), _id(app, dick.email), dick.email)
    page = jack.game_page(gid)
    assert page.index('id="absence"') < page.index('id="decision-h"')
    assert "Nixon left the game" in page
    for value, label, line in (
            ("claim", "Claim the win", "you win by forfeit; it is rated"),
            ("end", "End the game", "unrated: nobody wins"),
            ("bot", "Hand the seat to a bot", "the game becomes unrated"),
            ("replace", "Invite a replacement", "one-time link")):
        assert f'name="choice" value="{value}">{label}</button>' in page
        assert line in page
    assert page.count('name="confirm" value="yes" required') == 2   # claim and end
    assert 'href="/help/absences"' in page


def test_claim_needs_i_am_sure_then_ends_the_game(app, jack, dick):
    gid = new_game(jack, dick)
    goes_silent(db_engine(app), gid, "nixon")
    page = jack.game_page(gid)
    assert "Nixon (dick) has missed 2 deadlines in a row" in page or \
        "has missed 2 deadlines in a row" in page
    a = absence(db_engine(app), gid, "nixon")
    unsure = _choose(jack, gid, a.id, "claim")
    assert unsure.status_code == 422 and "I am sure" in unsure.get_data(as_text=True)
    assert _game(app, gid).status == "active"
    done = _choose(jack, gid, a.id, "claim", confirm="yes")
    assert done.status_code == 303
    game = _game(app, gid)
    assert game.status == "finished" and game.result["winner"] == "kennedy"
    assert "claimed the win" in jack.game_page(gid)
    late = _choose(jack, gid, a.id, "end", confirm="yes")
    assert late.status_code == 410 and "settled already: the win was claimed" in \
        late.get_data(as_text=True)


def test_end_and_bot_from_the_page(app, jack, dick):
    gid = new_game(jack, dick)
    goes_silent(db_engine(app), gid, "nixon")
    a = absence(db_engine(app), gid, "nixon")
    r = _choose(jack, gid, a.id, "bot")
    assert r.status_code == 303 and "absence=bot" in r.headers["Location"]
    page = jack.get(path_of("http://x" + r.headers["Location"])).get_data(as_text=True)
    assert "A bot plays the seat from now on." in page
    assert "A bot plays the seat, as you chose." in page
    assert "so a bot plays your seat now" in dick.game_page(gid)
    assert 'value="claim"' not in page and 'value="bot"' not in page
    assert _game(app, gid).bots == {"nixon": "strong"}
    r = _choose(jack, gid, a.id, "end", confirm="yes")
    assert r.status_code == 303 and _game(app, gid).result["rated"] is False


def test_the_silent_player_is_told_and_takes_the_seat_back_from_the_bot(app, jack, dick):
    gid = new_game(jack, dick)
    goes_silent(db_engine(app), gid, "nixon")
    page = dick.game_page(gid)
    assert "You have missed 2 deadlines in a row: the other player may now claim the win" in page
    assert "Play your decision to come back." in page and 'id="come-back"' not in page
    assert 'name="choice"' not in page
    a = absence(db_engine(app), gid, "nixon")
    _choose(jack, gid, a.id, "bot")
    page = dick.game_page(gid)
    assert "so a bot plays your seat now" in page and 'id="come-back"' in page
    back = dick.post_form(f"/games/{gid}", f"/games/{gid}/come-back", {})
    assert back.status_code == 303
    assert _game(app, gid).bots == {}
    assert "Your seat is yours again" in dick.get(f"/games/{gid}?absence=returned") \
        .get_data(as_text=True)
    again = dick.post_form(f"/games/{gid}", f"/games/{gid}/come-back", {})
    assert again.status_code == 409 and "nothing to take back" in again.get_data(as_text=True)


def test_replace_shows_the_link_once_and_a_refusal_keeps_the_address(app, jack, dick,
                                                                     smtp_catcher):
    gid = new_game(jack, dick)
    leaves(db_engine(app), _id(app, dick.email), dick.email)
    a = absence(db_engine(app), gid, "nixon")
    refused = _choose(jack, gid, a.id, "surrender", invite_email="cy@example.org")
    text = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 400 and "There is no choice 'surrender'" in text
    assert "Claim the win, End the game, Hand the seat to a bot, Invite a replacement" in text
    assert 'value="cy@example.org"' in text                       # kept
    bad = _choose(jack, gid, a.id, "replace", invite_email="cy at example")
    text = html.unescape(bad.get_data(as_text=True))
    assert bad.status_code == 422 and "“cy at example” is not a mail address" in text
    assert 'value="cy at example"' in text and absence(db_engine(app), gid, "nixon").invited_by \
        is None
    r = _choose(jack, gid, a.id, "replace", invite_email="cy@example.org")
    text = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="absence-code"' in text
    link = text.split('id="absence-link"', 1)[1].split(">", 1)[1].split("<", 1)[0]
    assert f"/games/{gid}/take-seat/" in link and "shown only this once" in text
    assert link not in jack.game_page(gid)                          # never again
    assert "You invited a replacement;" in jack.game_page(gid)

    cy = Reader(app, smtp_catcher, "cy@example.org")
    shown = cy.get(path_of(link))                                   # signed out
    body = shown.get_data(as_text=True)
    assert shown.status_code == 200 and "Nixon" in body and "Sign in" in body
    assert f"/sign-in?next=/games/{gid}/take-seat/" in body
    assert cy.client.post(path_of(link), data={}).status_code == 303   # to sign in first
    cy.sign_in(path_of(link))
    shown = cy.get(path_of(link))
    assert shown.status_code == 200 and 'id="take-seat"' in shown.get_data(as_text=True)
    assert seat_user(db_engine(app), gid, "nixon") is None           # GET changed nothing
    taken = cy.client.post(path_of(link), data={"csrf_token": csrf(shown.data)})
    assert taken.status_code == 303
    assert seat_user(db_engine(app), gid, "nixon") == _id(app, "cy@example.org")
    assert "The seat is yours now" in cy.get(taken.headers["Location"]).get_data(as_text=True)
    late = cy.get(path_of(link))
    assert late.status_code == 410 and "no longer" in late.get_data(as_text=True)
    wrong = cy.get(f"/games/{gid}/take-seat/nonsense")
    assert wrong.status_code == 404 and "not one of this game" in wrong.get_data(as_text=True)


def test_mr_president_three_seats_a_bot_at_once_and_who_asked_to_end(app, jack, dick, lyndon):
    gid = new_mrpresident_game(jack, [dick, lyndon])
    leaves(db_engine(app), _id(app, lyndon.email), lyndon.email)
    page = jack.game_page(gid)
    assert "left the game" in page and "A bot plays the seat meanwhile." in page
    assert 'value="claim"' not in page and 'value="bot"' not in page
    assert "once every present player has asked it" in page
    a = absence(db_engine(app), gid, "p3")
    assert _choose(jack, gid, a.id, "end", confirm="yes").status_code == 303
    assert "You asked to end the game." in jack.game_page(gid)
    theirs = dick.game_page(gid)
    assert "Asked to end the game:" in theirs and 'value="end"' in theirs
    assert _game(app, gid).status == "active"
    assert _choose(dick, gid, a.id, "end", confirm="yes").status_code == 303
    assert _game(app, gid).status == "finished"


@pytest.mark.parametrize("loc, words", [
    ("ja", "ゲームを去りました"), ("es", "dejó la partida")])
def test_the_section_in_japanese_and_spanish(app, jack, dick, loc, words):
    gid = new_game(jack, dick)
    _locale(app, jack.email, loc)
    leaves(db_engine(app), _id(app, dick.email), dick.email)
    page = jack.game_page(gid)
    assert words in page and "Claim the win" not in page


def test_a_spectator_sees_the_section_without_buttons(app, jack, dick, smtp_catcher):
    gid = new_game(jack, dick)
    with Session(db_engine(app)) as s:
        s.get(Game, gid).public = True
        s.commit()
    goes_silent(db_engine(app), gid, "nixon")
    wendy = Reader(app, smtp_catcher, "wendy@example.org")
    wendy.sign_in()
    page = wendy.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="absence"' in page and "has missed 2 deadlines in a row" in page
    assert 'name="choice"' not in page and "Choose what happens" not in page
    anonymous = app.test_client().get(f"/games/{gid}").get_data(as_text=True)
    assert "has missed 2 deadlines in a row" in anonymous and 'name="choice"' not in anonymous
    a = absence(db_engine(app), gid, "nixon")
    r = wendy.post_form("/", f"/games/{gid}/absences", {"absence_id": str(a.id),
                                                        "choice": "claim", "confirm": "yes"})
    assert r.status_code in (403, 404) and _game(app, gid).status == "active"


def test_the_help_page_states_the_rulings(app, monkeypatch):
    app.config["SILENT_GAME_DAYS"] = 45
    client = app.test_client()
    page = html.unescape(client.get("/help/absences").get_data(as_text=True))
    for words in ("misses the game's number of deadlines in a row (2 unless",
                  "two-player games only", "rated as a forfeit",
                  "with three or four, once every player still there has asked it",
                  "a bot takes the seat at once", "for 45 days ends, unrated",
                  "A claimed win is rated as a win by forfeit.",
                  "went to a bot or to a replacement, or that was ended, is unrated",
                  "Take my seat back"):
        assert words in page, words
    assert 'href="/help/absences"' in client.get("/help/notation").get_data(as_text=True)
    japanese = client.get("/help/absences", headers={"Accept-Language": "ja"})
    assert "プレイヤーが去ったり応答しなくなったりしたとき" in japanese.get_data(as_text=True)
