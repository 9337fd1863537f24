"""Issue 48, item 1: a members-only club (WHISTLESTOP_OPEN_SIGNUP=false). The sign-in page
makes no account for a stranger and answers a member and a stranger alike; an address invited
to a game, or holding a member's invitation link, may make its account; the API's sign-up is
closed; with the switch on, everything is as before."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from server import db
from server import models
from server.models import OutboxMessage, Seat, User
from tests.server.api.conftest import make_app
from tests.server.api.helpers import Client, is_problem
from tests.web.pages_helpers import Reader, csrf, path_of, sign_in_link

STRANGER = "kim@example.org"


def accounts(app) -> list[str]:
    with app.app_context(), Session(db.get_engine()) as s:
        return sorted(u.email for u in s.exec(select(User)).all())


def ask_sign_in(app, email: str, lang: str = "en"):
    browser = app.test_client()
    page = browser.get("/sign-in", headers={"Accept-Language": lang})
    return page, browser.post("/sign-in", data={"csrf_token": csrf(page.data), "email": email,
                                                "next": "/"},
                              headers={"Accept-Language": lang})


def visible(answer) -> str:
    text = answer.get_data(as_text=True)
    text = re.sub(r'<input type="hidden" name="csrf_token"[^>]*>', "", text)
    return re.sub(r'name="csrf-token" content="[^"]*"', "", text)


def test_a_closed_club_makes_no_account_for_a_stranger_and_answers_a_member_alike(
        app, jack, smtp_catcher):
    app.config["OPEN_SIGNUP"] = False
    before = accounts(app)
    page, stranger = ask_sign_in(app, STRANGER)
    assert page.status_code == 200 and "members-only" in page.get_data(as_text=True)
    assert "A new address starts a new account" not in page.get_data(as_text=True)
    mails = len(smtp_catcher.to(jack.email))
    _page, member = ask_sign_in(app, jack.email)
    assert stranger.status_code == member.status_code == 200
    # The same words for both, but for the address typed: no account oracle.
    assert visible(stranger).replace(STRANGER, "X") == visible(member).replace(jack.email, "X")
    assert "members-only" in visible(stranger) and "If kim@example.org belongs" in \
        visible(stranger)
    smtp_catcher.wait_for_to(jack.email, mails + 1)      # the member gets the link
    assert smtp_catcher.to(STRANGER) == [] and accounts(app) == before
    with app.app_context(), Session(db.get_engine()) as s:   # a row for each, alike
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "sign_in")
                      .order_by(OutboxMessage.id.desc())).all()[:2]
        assert [r.payload["user_id"] is None for r in rows] == [False, True]
        assert all(r.delivered_at is not None for r in rows)   # both done with, alike


@pytest.mark.parametrize("lang, words", [("ja", "会員制"), ("es", "solo para socios")])
def test_the_closed_club_says_so_in_the_readers_language(app, lang, words):
    app.config["OPEN_SIGNUP"] = False
    page, answer = ask_sign_in(app, STRANGER, lang)
    assert words in page.get_data(as_text=True) and words in answer.get_data(as_text=True)
    assert accounts(app) == []


def test_an_open_club_makes_the_account_as_before(app, smtp_catcher):
    _page, answer = ask_sign_in(app, STRANGER)
    assert answer.status_code == 200 and "members-only" not in answer.get_data(as_text=True)
    smtp_catcher.wait_for_to(STRANGER, 1)
    assert accounts(app) == [STRANGER]


def test_the_api_sign_up_is_closed_with_the_switch_and_open_without(tmp_path, api_db_url,
                                                                     smtp_catcher):
    app = make_app(tmp_path, api_db_url, OPEN_SIGNUP=False)
    client = Client(app.test_client())
    body = is_problem(client.post("/users", json={"email": STRANGER}), 403)
    assert body["type"].endswith("/problems/signup-closed") and "invit" in body["detail"]
    assert accounts(app) == []
    app.config["OPEN_SIGNUP"] = True
    assert client.post("/users", json={"email": STRANGER}).status_code == 202
    assert accounts(app) == [STRANGER]
    app.extensions["whistlestop.db"].dispose()


def test_an_address_invited_to_a_game_makes_its_account_and_takes_the_seat(
        app, jack, smtp_catcher):
    app.config["OPEN_SIGNUP"] = False
    made = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": STRANGER,
                                              "seat": "kennedy", "edition": "gmt"})
    assert made.status_code == 303, made.data[:500]
    gid = int(made.headers["Location"].rsplit("/", 1)[1])
    invitation = smtp_catcher.wait_for_to(STRANGER, 1)[-1]
    assert f"/games/{gid}/join" in invitation.get_body(("plain",)).get_content()
    kim = Reader(app, smtp_catcher, STRANGER)
    kim.sign_in(f"/games/{gid}")
    assert STRANGER in accounts(app)
    joined = kim.post_form(f"/games/{gid}", f"/games/{gid}/join", {})
    assert joined.status_code == 303, joined.data[:500]
    with app.app_context(), Session(db.get_engine()) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == gid, Seat.seat == "nixon")).one()
        assert seat.user_id == s.exec(select(User.id).where(User.email == STRANGER)).one()
    # Once the seat is taken (or the game gone) the invitation opens no account.
    _page, answer = ask_sign_in(app, "lee@example.org")
    assert answer.status_code == 200 and "lee@example.org" not in accounts(app)


def test_a_members_invitation_link_lets_one_person_in_once(app, jack, smtp_catcher):
    app.config["OPEN_SIGNUP"] = False
    settings = jack.get("/me/mail").get_data(as_text=True)
    assert 'id="club-invitation"' in settings
    made = jack.post_form("/me/mail", "/me/invitations", {})
    assert made.status_code == 201
    url = re.search(r'id="invitation-url" type="text" readonly value="([^"]+)"',
                    made.get_data(as_text=True))[1]
    token = url.rsplit("/", 1)[1]
    with app.app_context(), Session(db.get_engine()) as s:
        row = s.exec(select(models.ClubInvitation)).one()
        assert row.token_hash != token and token not in row.token_hash and row.used_at is None

    guest = app.test_client()
    form = guest.get(path_of(url))
    assert form.status_code == 200 and "Join the club" in form.get_data(as_text=True)
    # A bad address: said, nothing used.
    bad = guest.post(path_of(url), data={"csrf_token": csrf(form.data), "email": "nope"})
    assert bad.status_code == 422 and accounts(app) == [jack.email]
    joined = guest.post(path_of(url), data={"csrf_token": csrf(form.data), "email": STRANGER})
    assert joined.status_code == 200 and STRANGER in accounts(app)
    link = sign_in_link(smtp_catcher.wait_for_to(STRANGER, 1)[-1])
    assert link.startswith("http")
    # Used once: the next use is refused, in words, changing nothing.
    again = guest.post(path_of(url), data={"csrf_token": csrf(form.data),
                                            "email": "lee@example.org"})
    assert again.status_code == 409 and "used already" in again.get_data(as_text=True)
    assert guest.get(path_of(url)).status_code == 409
    tampered = guest.get(path_of(url)[:-3] + "xyz")
    assert tampered.status_code == 400 and "damaged" in tampered.get_data(as_text=True)
    assert "lee@example.org" not in accounts(app)


def test_an_open_club_offers_no_invitation_link(app, jack):
    assert 'id="club-invitation"' not in jack.get("/me/mail").get_data(as_text=True)
    made = jack.post_form("/me/mail", "/me/invitations", {})
    assert made.status_code == 303
    with app.app_context(), Session(db.get_engine()) as s:
        assert s.exec(select(models.ClubInvitation)).all() == []


def test_an_invitation_from_a_member_who_left_opens_nothing(app, jack):
    app.config["OPEN_SIGNUP"] = False
    made = jack.post_form("/me/mail", "/me/invitations", {})
    url = re.search(r'id="invitation-url" type="text" readonly value="([^"]+)"',
                    made.get_data(as_text=True))[1]
    with app.app_context(), Session(db.get_engine()) as s:
        from server.services import account_deletion
        user = s.exec(select(User).where(User.email == jack.email)).one()
        account_deletion.delete_account(s, user.id, jack.email)
    guest = app.test_client()
    form = guest.get(path_of(url))
    assert form.status_code == 410 and "has left the club" in form.get_data(as_text=True)
    answer = guest.post(path_of(url), data={"csrf_token": csrf(guest.get("/sign-in").data),
                                            "email": STRANGER})
    assert answer.status_code == 410 and STRANGER not in accounts(app)


def test_whoever_follows_a_games_invitation_code_may_make_an_account(app, jack, smtp_catcher):
    """An invitation code (the share link /games/<id>/join?code=...) is a member's invitation
    too: signing in to follow it makes the account, while the code still opens a seat."""
    from server.services import lobby

    app.config["OPEN_SIGNUP"] = False
    with app.app_context(), Session(db.get_engine()) as s:
        creator = s.exec(select(User).where(User.email == jack.email)).one()
        game, codes = lobby.open_game(s, creator, "tmotp", {}, {"kennedy": jack.email,
                                                                "nixon": None})
        gid, code = game.id, codes["nixon"]
    for next_path in (f"/games/{gid}/join?code=nope", f"/games/{gid + 1}/join?code={code}"):
        kim = Reader(app, smtp_catcher, STRANGER)
        answer = kim.post_form("/sign-in", "/sign-in", {"email": STRANGER, "next": next_path})
        assert answer.status_code == 200 and STRANGER not in accounts(app)
    kim.sign_in(f"/games/{gid}/join?code={code}")
    assert STRANGER in accounts(app)
    joined = kim.post_form(f"/games/{gid}/join?code={code}", f"/games/{gid}/join",
                           {"code": code})
    assert joined.status_code == 303, joined.data[:500]
    # Used up: the same link makes no further account.
    lee = Reader(app, smtp_catcher, "lee@example.org")
    answer = lee.post_form("/sign-in", "/sign-in", {"email": lee.email,
                                                    "next": f"/games/{gid}/join?code={code}"})
    assert answer.status_code == 200 and "lee@example.org" not in accounts(app)
