"""The web pages through Flask's test client: sign-in by a mailed link (GET changes nothing,
the link works once, expires, and a damaged one is refused), the lobby, creating, joining and
starting a game, the game page (board from the seat's view, a form for exactly the legal
actions), orders from the form, and illegal, stale and forged submissions answered with the
reason and the decision now, never a traceback."""

from __future__ import annotations

import random
import re

import pytest
from markupsafe import escape
from sqlmodel import Session, select

from server.games.tmotp.summary import card_name
from server.models import Game, UsedSignIn
from server.services import lobby
from tests.web.pages_helpers import (Reader, csrf, db_engine, hidden_part, new_game, path_of,
                                     pick_answer, sign_in_link)


def decision_form(page: str) -> tuple[int, list[str]]:
    step = re.search(r'name="step" value="(\d+)"', page)
    choices = re.findall(r'name="action" value="([^"]*)"', page)
    return (int(step.group(1)) if step else -1), [c.replace("&#39;", "'") for c in choices]


# --- sign-in -----------------------------------------------------------------------------------
def test_sign_in_by_the_mailed_link_once(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "ann@example.org")
    answer = reader.post_form("/sign-in", "/sign-in", {"email": "ann@example.org", "next": "/"})
    assert answer.status_code == 200 and b"ann@example.org" in answer.data
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("ann@example.org", 1)[-1]))
    # GET (a mail scanner) signs nobody in and uses nothing up.
    for _ in range(3):
        assert reader.get(link).status_code == 200
    assert b"Signed in as" not in reader.get("/").data
    with Session(db_engine(app)) as s:
        assert s.exec(select(UsedSignIn)).all() == []
    page = reader.get(link).data
    assert reader.client.post(link, data={"csrf_token": csrf(page)}).status_code == 303
    assert b"Signed in as ann@example.org" in reader.get("/").data
    # The same link again, from another browser: refused with the reason, signs nobody in.
    other = Reader(app, smtp_catcher, "ann@example.org")
    again = other.get(link)
    assert again.status_code == 409 and b"used already" in again.data
    assert b"Signed in as" not in other.get("/").data


def test_damaged_and_expired_sign_in_links_are_refused(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "bea@example.org")
    reader.post_form("/sign-in", "/sign-in", {"email": "bea@example.org", "next": "/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("bea@example.org", 1)[-1]))
    damaged = reader.get(link[:-3] + "xyz")
    assert damaged.status_code == 400 and b"damaged" in damaged.data
    app.config["SIGN_IN_MAX_AGE_SECONDS"] = -1
    expired = reader.get(link)
    assert expired.status_code == 410 and b"expired" in expired.data
    assert b"Traceback" not in damaged.data + expired.data


def test_a_form_without_its_csrf_token_changes_nothing(app, jack, dick):
    answer = jack.client.post("/games/new", data={"opponent": dick.email, "seat": "kennedy"})
    assert answer.status_code == 400 and b"reload the page" in answer.data
    with Session(db_engine(app)) as s:
        assert s.exec(select(Game)).all() == []


def test_the_sign_in_form_refuses_a_bad_address_and_the_next_page_stays_on_this_site(
        app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "x@example.org")
    bad = reader.post_form("/sign-in", "/sign-in", {"email": "not an address", "next": "/"})
    assert bad.status_code == 422 and b"name@example.org" in bad.data
    reader.post_form("/sign-in", "/sign-in", {"email": "x@example.org",
                                              "next": "//evil.example/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("x@example.org", 1)[-1]))
    entered = reader.client.post(link, data={"csrf_token": csrf(reader.get(link).data)})
    assert entered.headers["Location"] == "/"


# --- lobby and game page -----------------------------------------------------------------------
def test_create_join_start_and_the_lobby_puts_your_move_first(app, jack, dick):
    gid = new_game(jack, dick)
    lobby = jack.get("/").data.decode()
    assert f"/games/{gid}" in lobby
    pages = {r: r.get(f"/games/{gid}").data.decode() for r in (jack, dick)}
    asked = [r for r, p in pages.items() if 'name="action"' in p]
    assert asked, "somebody has a decision at the start"
    assert "Your move" in asked[0].get("/").data.decode()


def test_the_game_page_shows_the_seats_view_and_never_the_other_hand(app, jack, dick):
    gid = new_game(jack, dick)
    rng = random.Random(3)
    for _ in range(40):
        for reader, seat in ((jack, "kennedy"), (dick, "nixon")):
            page = reader.game_page(gid)
            # The board's own map, once: under the decision's prompt when the decision is
            # about states, else with the board (a planner's form draws a tappable copy).
            before_form = page.split('<div class="ask">', 1)[0]
            board = before_form + page.split('id="board-more"', 1)[1]
            assert "<svg" in board and board.count('<g class="state') == 50
            with Session(db_engine(app)) as s:
                state = s.get(Game, gid).state
            other = "nixon" if seat == "kennedy" else "kennedy"
            mine = set(state["hands"][seat])
            theirs = set(state["hands"][other]) - mine
            # The log tells cards played (public); the rest of the page never names a card
            # the other seat holds now, and the seat's own hand is all there.
            board = hidden_part(page)
            for card in theirs:
                assert str(escape(card_name(card))) not in board, (seat, card)
            for card in mine:
                assert str(escape(card_name(card))) in board, (seat, card)
            fields = pick_answer(page, rng)
            if fields:
                answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
                assert answer.status_code == 303, (fields, answer.data[-3000:])
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).step > 30  # the orders were played


def test_illegal_stale_and_empty_orders_show_the_reason_and_the_decision_now(app, jack, dick):
    gid = new_game(jack, dick)
    for reader in (jack, dick):
        page = reader.get(f"/games/{gid}").data.decode()
        step, choices = decision_form(page)
        if choices:
            break
    illegal = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                               {"step": step, "action": "campaign XX YY"})
    assert illegal.status_code == 422 and b"nothing was changed" in illegal.data
    assert decision_form(illegal.data.decode())[1] == choices
    stale = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                             {"step": step - 1, "action": choices[0]})
    assert stale.status_code == 409 and b"moved on" in stale.data
    empty = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", {"step": step})
    assert empty.status_code == 422
    for answer in (illegal, stale, empty):
        assert b"Traceback" not in answer.data
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).step == step


def test_lobby_refusals_say_why_and_change_nothing(app, jack, dick, smtp_catcher):
    bad = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                             "opponent": "dick at home", "seat": "kennedy"})
    assert bad.status_code == 422 and b"opponent&#39;s email address" in bad.data
    hours = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                               "opponent": dick.email, "decision_hours": "x"})
    assert hours.status_code == 422 and b"whole numbers" in hours.data
    # A game this server does not have is refused, never taken for another game.
    unknown = jack.post_form("/", "/games/new", {"game_type": "chess", "opponent": dick.email})
    assert unknown.status_code == 422
    assert "There is no game called “chess” on this server." in unknown.data.decode()
    nameless = jack.post_form("/", "/games/new", {"opponent": dick.email, "seat": "kennedy"})
    assert nameless.status_code == 422 and "Choose the game to create" in nameless.data.decode()
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                                "opponent": dick.email, "seat": "kennedy"})
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    early = jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {})
    assert early.status_code == 409 and b"Every seat needs a player" in early.data
    stranger = Reader(app, smtp_catcher, "eve@example.org")
    stranger.sign_in()
    token = csrf(stranger.get("/").data)
    # A private game: a wrong code does not even tell that the game exists.
    hidden = stranger.client.post(f"/games/{gid}/join", data={"csrf_token": token,
                                                              "code": "not-a-code"})
    assert hidden.status_code == 404 and b"opens no seat" not in hidden.data
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                                "seat": "kennedy", "public": "on"})
    public = int(answer.headers["Location"].rsplit("/", 1)[1])
    wrong = stranger.client.post(f"/games/{public}/join", data={"csrf_token": token,
                                                                "code": "not-a-code"})
    assert wrong.status_code == 403 and b"opens no seat" in wrong.data
    with Session(db_engine(app)) as s:
        assert len(s.exec(select(Game)).all()) == 2
        assert [r.user_id for r in lobby.seat_rows(s, public)].count(None) == 1


def test_a_private_game_is_not_found_by_others_and_a_spectator_sees_no_hand(app, jack, dick,
                                                                          smtp_catcher):
    gid = new_game(jack, dick)
    stranger = Reader(app, smtp_catcher, "eve@example.org")
    assert stranger.get(f"/games/{gid}").status_code == 404
    stranger.sign_in()
    assert stranger.get(f"/games/{gid}").status_code == 404
    public = new_game(jack, dick, public="on")
    page = stranger.get(f"/games/{public}").data.decode()
    assert "Spectator" in page and 'id="hand-h"' not in page and 'name="action"' not in page


def test_the_sign_in_mail_reaches_a_user_who_takes_no_mail_and_no_webhook(app, smtp_catcher):
    """A user who turned game mail off still gets the link they asked for; a sign-in link is
    a credential, so it is never posted to the user's webhooks."""
    from sqlalchemy import update

    from server.mail import recipients, webhooks
    from server.mail.recipients import MailSettings
    from server.models import OutboxMessage, User, Webhook

    reader = Reader(app, smtp_catcher, "zoe@example.org")
    reader.sign_in()
    engine = db_engine(app)
    with Session(engine) as s:
        s.execute(update(User).values(mail_mode="none"))
        user = s.exec(select(User)).one()
        s.add(Webhook(user_id=user.id, url="https://hooks.example/x"))
        s.commit()
    reader.client.post("/sign-out", data={"csrf_token": csrf(reader.get("/").data)})
    reader.sign_in()  # the second link arrived although mail_mode is "none"
    with Session(engine) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "sign_in")).all()
        found = recipients.envelopes(s, rows[-1], MailSettings.from_config(app.config))
        assert [e.mail for e in found] == [True]
        assert webhooks.posts(s, found) == []


@pytest.mark.parametrize("language, words", [("ja", ["サインイン", "あなたのゲーム"]),
                                             ("es", ["Entrar", "Tus partidas"])])
def test_pages_speak_the_readers_language(app, smtp_catcher, language, words):
    """A reader not signed in is answered in their browser's language; a new account takes
    it, and the game page then speaks it too (names in the rulebook's words)."""
    reader = Reader(app, smtp_catcher, f"{language}@example.org")
    headers = {"Accept-Language": f"{language},en;q=0.5"}
    lobby = reader.get("/", headers=headers).data.decode()
    for word in words:
        assert word in lobby, word
    token = csrf(reader.get("/sign-in", headers=headers).data)
    reader.client.post("/sign-in", headers=headers, data={
        "csrf_token": token, "email": reader.email, "next": "/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to(reader.email, 1)[-1]))
    reader.client.post(link, data={"csrf_token": csrf(reader.get(link).data)})
    signed_in = reader.get("/").data.decode()  # no header now: the account's language
    assert words[1] in signed_in


def test_events_in_force_are_named_once_by_their_cards():
    from server.games.tmotp.board import persistent

    view = {"persistent": {"debate": [18], "election_day": [], "prevention": [18]},
            "effects": [31]}
    assert persistent(view, "en") == [card_name(18), card_name(31)]


def test_the_version_answer_tells_the_step_and_changes_nothing(app, jack, dick, smtp_catcher):
    gid = new_game(jack, dick)
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        step, status = game.step, game.status
    for _ in range(3):
        answer = jack.get(f"/games/{gid}/version")
        assert answer.status_code == 200 and answer.json == {"step": step, "status": status}
    stranger = Reader(app, smtp_catcher, "eve@example.org")
    private = new_game(jack, dick)
    assert stranger.get(f"/games/{private}/version").status_code == 404
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).step == step
