"""Mr. President's pages through Flask's test client: the game page of a three-player game for
each seat (the electoral cards on the table, the scoreboard, "N of 3 have committed" without
naming who, the seat's own hand and never another's, no face-down card of another seat), orders
sealed, replaced and resolved from the page's form; new games from the lobby (three players,
the Nominee version by lot) and the options the engine refuses; the help page; a finished
game's result and replay."""

from __future__ import annotations

import html
import random
import re

from sqlmodel import Session, select

from engine.games.mrpresident.data import CARDS, STATES
from server.models import Game, LogEntry, Seat
from server.services import games
from tests.server.test_fairness import play
from tests.web.test_decision_form import _Controls
from tests.web.pages_helpers import Reader, db_engine, new_mrpresident_game

STEP = re.compile(r'name="step" value="(\d+)"')
HAND = re.compile(r'<table class="mp-hand">.*?</table>', re.S)
THIS_ROUND = re.compile(r'<ul class="this-round"[^>]*>(.*?)</ul>', re.S)


def text(page: bytes | str) -> str:
    return html.unescape(page.decode() if isinstance(page, bytes) else page)


def state_of(app, gid: int):
    with Session(db_engine(app)) as s:
        return games.whole_state(s, s.get(Game, gid))


def unlabelled(page: str) -> list:
    """The page's form controls without a name a screen reader can say."""
    controls = _Controls()
    controls.feed(page)
    return controls.unnamed()


def hand_on(page: str) -> list[str]:
    """The card names of the one hand table the page shows (the reader's own)."""
    tables = HAND.findall(page)
    assert len(tables) <= 1, "only the reader's own hand is shown"
    return re.findall(r"<tr><td>([^<]+)</td>", tables[0]) if tables else []


def test_each_seat_sees_the_table_the_scoreboard_and_how_many_have_committed(
        app, jack, dick, lyndon, smtp_catcher):
    gid = new_mrpresident_game(jack, [dick, lyndon], public="on")
    state = state_of(app, gid)
    on_table = state.s["table"]
    readers = {"p1": jack, "p2": dick, "p3": lyndon}
    stranger = Reader(app, smtp_catcher, "nobody@example.org")  # not signed in: a spectator
    for seat, reader in [*readers.items(), (None, stranger)]:
        page = text(reader.get(f"/games/{gid}").data)
        assert "On the table" in page and "Scoreboard" in page
        for code in on_table:
            assert f'data-state="{code}"' in page and STATES[code]["name"] in page
        assert "Popular votes by place" in page and "Close Vote Column" in page
        assert "0 of 3 have committed." in page
        assert hand_on(page) == ([CARDS[c]["name"] for c in range(1, 14)] if seat else [])
        assert "Traceback" not in page and not unlabelled(page)
        # issue 47: the round at stake in brief, under the decision's prompt, for a seat
        decision = page.split('id="decision-h"', 1)[1].split('<div class="ask">', 1)[0] \
            if seat else ""
        assert ("At stake" in decision and all(STATES[c]["name"] in decision
                                               for c in on_table)) == bool(seat)

    for language in ("es", "ja"):  # the pages' words not yet translated stay English
        other = stranger.get(f"/games/{gid}", headers={"Accept-Language": language})
        assert other.status_code == 200 and f'lang="{language}"' in text(other.data)
        assert stranger.get("/help/mrpresident",
                            headers={"Accept-Language": language}).status_code == 200

    # Jack seals two cards, then replaces them by one: nobody else learns what or who.
    step = int(STEP.search(jack.get(f"/games/{gid}").data.decode()).group(1))
    sealed = jack.post_form(f"/games/{gid}", f"/games/{gid}/order",
                            {"step": step, "action": "play 13", "second_card": "2"})
    assert sealed.status_code == 303 and "done=sealed" in sealed.headers["Location"]
    mine = text(jack.get(f"/games/{gid}").data)
    # the sealed choice in words, never its notation ("play 13 2"): issue 47, item 5
    assert ("Your choice is sealed: lays two cards: Full Party Backing · 130 points and "
            "Billboards · 20 points." in mine and "1 of 3 have committed." in mine)
    assert "Your choice is sealed: play" not in mine
    assert "hidden until everybody has chosen" in mine
    replaced = jack.post_form(f"/games/{gid}", f"/games/{gid}/order",
                              {"step": step, "action": "play 5", "second_card": ""})
    assert replaced.status_code == 303
    now = text(jack.get(f"/games/{gid}").data)
    assert re.search(r"Your choice is sealed: lays [^.<]+ · \d+ points\.", now), now
    assert "Your choice is sealed: play" not in now
    for reader in (dick, lyndon, stranger):
        page = text(reader.get(f"/games/{gid}").data)
        assert "1 of 3 have committed." in page
        assert "sealed: play" not in page and "play 13 2" not in page
        assert "Candidate 1 has" not in page and "No campaign card has been turned up" in page

    # The two others lay theirs from the form: the round is turned up and scored.
    for reader, fields in ((dick, {"action": "play 9"}),
                           (lyndon, {"action": "play 11", "second_card": ""})):
        answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                                  {"step": step, **fields})
        assert answer.status_code == 303, answer.data[:2000]
    # 50, 90 and 110 points, one card each: an upset is offered to the two below first.
    state = state_of(app, gid)
    assert state.top["step"] == "upset" and state.active() == ["p1", "p2"]
    upset = text(dick.get(f"/games/{gid}").data)
    assert 'value="upset none"' in upset and "your cards would total 220 points" in upset
    assert not unlabelled(upset)
    step = int(STEP.search(upset).group(1))
    for reader in (jack, dick):
        answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                                  {"step": step, "action": "upset none"})
        assert answer.status_code == 303, answer.data[:2000]
    page = text(jack.get(f"/games/{gid}").data)
    last = page.split('id="last-h"', 1)[1].split("</section>", 1)[0]
    assert "TV Debates" in last and "The Farm Vote" in last and "Labor Backing" in last
    assert "1st: Candidate 3" in last and "thousand votes" in last
    assert "Round 2" in page and hand_on(page) == [CARDS[c]["name"] for c in range(1, 14)
                                                   if c != 5]


def test_a_card_laid_face_down_is_named_only_to_its_own_seat(app, jack, dick, lyndon):
    gid = new_mrpresident_game(jack, [dick, lyndon])
    with Session(db_engine(app)) as session:
        state = play(session, gid, random.Random(4),
                     until=lambda st: st.s["stack"] and st.top["step"] == "answer")
    readers = {"p1": jack, "p2": dick, "p3": lyndon}
    doubled = {x: p["cards"] for x, p in state.s["plays"].items() if len(p["cards"]) == 2}
    assert doubled
    for seat, reader in readers.items():
        page = text(reader.get(f"/games/{gid}").data)
        assert hand_on(page) == [CARDS[c]["name"] for c in sorted(state.s["hands"][seat])]
        this_round = THIS_ROUND.search(page).group(1)
        for x, (up, down) in doubled.items():
            assert CARDS[up]["name"] in this_round
            assert (CARDS[down]["name"] in this_round) == (x == seat), (seat, x)
        if seat in state.active():
            assert 'value="second none"' in page and "No second card" in page
        if len(state.active()) > 1:  # a sealed step: how many, never who
            assert f"0 of {len(state.active())} have committed." in page
        else:
            assert "have committed" not in page


def test_a_three_player_game_from_the_lobby(app, jack, dick, lyndon):
    lobby = text(jack.get("/").data)
    assert "New game of Mr. President" in lobby and 'href="/help/mrpresident"' in lobby
    plurality = re.search(r'<input type="checkbox" name="plurality"[^>]*>', lobby).group(0)
    assert "checked" in plurality and "without this rule an election without a majority" in lobby
    assert not unlabelled(lobby)
    gid = new_mrpresident_game(jack, [dick, lyndon], start=False, plurality="on",
                               version="short", count="electoral")
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.game_type == "mrpresident"
        assert game.options == {"edition": "dial", "players": 3, "plurality": True,
                                "version": "short", "count": "electoral"}
        seats = {r.seat: r.user_id is not None for r in s.exec(select(Seat).where(
            Seat.game_id == gid))}
    assert seats == {"p1": True, "p2": True, "p3": True}
    opened = text(jack.get(f"/games/{gid}").data)
    assert "Candidate 3" in opened and ("dial edition, electoral vote, short version, the most "
                                        "electoral votes win, 3 candidates") in opened
    listed = text(jack.get("/").data)
    row = listed.split(f'data-game="{gid}"', 1)[1].split("</li>", 1)[0]
    assert "<strong>Mr. President</strong>" in row and f"#{gid}" in row
    jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {})
    page = text(jack.get(f"/games/{gid}").data)
    assert "Round 1 of 12" in page and "4 electoral cards a round" in page
    assert "270 electoral votes" not in page  # a plurality wins


def test_a_nominee_game_by_lot_from_the_lobby(app, jack, dick, lyndon, hubert):
    gid = new_mrpresident_game(jack, [dick, lyndon, hubert], edition="chalkboard",
                               nominee="on", parties="lot")
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.options == {"edition": "chalkboard", "players": 4, "plurality": False,
                                "nominee": True, "parties": "lot"}
        parties = game.state["parties"]
    assert sorted(parties["republican"] + parties["democratic"]) == ["p1", "p2", "p3", "p4"]
    page = text(jack.get(f"/games/{gid}").data)
    assert "Party conventions" in page and "Parties and nominees" in page
    assert "The Republican Party convention" in page
    assert "The Democratic Party convention" in page
    assert "Nominee version, parties by lot" in page
    me = next(p for p, members in parties.items() if "p1" in members)
    assert f"Candidate 1 ({'Republican' if me == 'republican' else 'Democratic'} Party)" in page
    assert "0 of 4 have committed." in page


def test_options_the_engine_refuses_are_shown_and_create_nothing(app, jack, dick, lyndon):
    for fields, reason in (
            ({"edition": "dial", "nominee": "on"}, "The Nominee version is the chalkboard"),
            ({"edition": "chalkboard", "count": "popular"}, "counts electoral votes only"),
            ({"email_p2": "not an address"}, "Candidate 2: give an email address")):
        answer = jack.post_form("/", "/games/new", {
            "game_type": "mrpresident", "players": "3", "email_p1": jack.email,
            "email_p2": dick.email, "email_p3": lyndon.email, **fields})
        assert answer.status_code == 422 and reason in text(answer.data), fields
        assert 'value="not an address"' in text(answer.data) or "email_p2" not in fields
    with Session(db_engine(app)) as s:
        assert s.exec(select(Game)).all() == []


def test_the_help_page_has_the_notation_the_house_values_and_the_rulings(app, jack, dick):
    page = text(app.test_client().get("/help/mrpresident").data)
    assert "<code>play 3 12</code>" in page and "<code>upset 5</code>" in page
    assert "house values" in page.lower()
    for cid, card in CARDS.items():
        assert f"<td>{card['name']}</td><td class=\"num\">{card['value']}</td>" in page
    assert page.count('<span class="band band-') >= 51 + 4
    assert "California (CA)</th><td class=\"num\">40</td>" in page
    for n in (2, 3, 4):
        assert f'id="chart-{n}"' in page
    assert "Close Vote Column" in page and "35/33/32" in page
    assert "Replayed elections" in page and "The scorer leads" in page  # RULINGS.md
    assert "Every game ends: the third election is the last." in page   # issue 22
    notation = text(app.test_client().get("/help/notation/mrpresident").data)
    assert 'href="/help/mrpresident"' in notation
    gid = new_mrpresident_game(jack, [dick])
    assert 'href="/help/mrpresident"' in text(jack.get(f"/games/{gid}").data)
    assert 'href="/help/mrpresident#notation"' in text(jack.get(f"/games/{gid}").data)


def test_a_finished_games_result_and_replay(app, jack, dick, lyndon):
    gid = new_mrpresident_game(jack, [dick, lyndon], version="short", count="electoral",
                               plurality="on")
    with Session(db_engine(app)) as session:
        state = play(session, gid, random.Random(8))
        game = session.get(Game, gid)
        assert game.status == "finished"
        total = len(session.exec(select(LogEntry).where(LogEntry.game_id == gid)).all())
    result = state.s["result"]
    page = text(jack.get(f"/games/{gid}").data)
    assert "Game over" in page and "The result, ready to print" in page
    printed = text(jack.get(f"/games/{gid}/result").data)
    if result:
        winner = f"Candidate {result['winner'][1:]}"
        assert f"{winner} wins" in printed
        row = re.search(r'data-contest="national">(.*?)</table>', printed, re.S).group(1)
        for side, votes in result["tally"].items():
            assert re.search(rf"Candidate {side[1:]}.*?<td class=\"num\">{votes}</td>", row,
                             re.S), (side, votes)
    assert "Scoreboard" in printed and "Traceback" not in printed
    for at in (0, 1, total // 2, total):
        replay = jack.get(f"/games/{gid}/replay?at={at}")
        assert replay.status_code == 200, replay.data[-2000:]
        body = text(replay.data)
        assert "Every hand (shown now that the game is over)" in body
        assert f"Position {at} of {total}" in body
    middle = text(jack.get(f"/games/{gid}/replay?at={total // 2}").data)
    assert re.search(r"Round \d+ →", middle) or re.search(r"← Round \d+", middle)


def test_a_mailed_choice_link_opens_the_same_form_with_its_cards_ticked(app, jack, dick,
                                                                       lyndon):
    from server.models import Order
    from server.services import links
    gid = new_mrpresident_game(jack, [dick, lyndon])
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        user = s.exec(select(Seat.user_id).where(Seat.game_id == gid, Seat.seat == "p2")).one()
        notes = len(games.whole_state(s, game).view("p2")["notes"])
        token = links.make(app.config["SECRET_KEY"], gid, "p2", game.step, "play 12 3", user,
                           notes)
    path = f"/games/{gid}/decide/{token}"
    page = text(dick.get(path).data)
    # the two cards in words (issue 47), not the notation "play 12 3"
    assert "Your choice from the mail:" in page and "play 12 3" not in page
    assert ("Business Backing (12) · 120 points, then Newspaper Ads (3) · 30 points face down"
            in page)
    assert re.search(r'name="action" value="play 12" checked', page)
    assert re.search(r'name="second_card" value="3" checked', page)
    assert "The candidates choose at the same time" in page
    # "Send this instead": one card, no second.
    answer = dick.post_form(path, path, {"step": game.step, "action": "play 4",
                                         "second_card": ""})
    assert answer.status_code == 200, answer.data[-2000:]
    assert "hidden until everybody has chosen" in text(answer.data)
    with Session(db_engine(app)) as s:
        order = s.exec(select(Order).where(Order.game_id == gid, Order.seat == "p2")).one()
        assert order.actions == ["play 4"] and order.status == "pending"
