"""Issue 48, item 2: rotating the secret key breaks nothing already mailed or signed in.

Three servers share one database, as one installation across two restarts: ``before`` signs
with the old key; ``after`` has the new key as current and the old one as fallback
(WHISTLESTOP_SECRET_KEY_FALLBACKS); ``dropped`` has the new key alone, as after the runbook's
last step (docs/operating.md, "Rotating the secret key"). What ``before`` signed still works
on ``after``, once as before; what ``after`` signs is signed with the new key (``before``
refuses it, ``dropped`` takes it); ``dropped`` refuses the old ones with a page, never a 5xx.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session, select

from server import db, secret_keys
from server.config import ConfigError, check, from_env
from server.mail import chat_address, replies, reply_address
from server.mail.recipients import MailSettings
from server.models import Game, Seat
from server.services import games as svc
from server.services import calendar_feed, links, members
from tests.players import proven_user
from tests.server.api.conftest import make_app
from tests.task_queue import queued
from tests.web.pages_helpers import Reader, csrf, path_of, sign_in_link

OLD = "old-key-" + "o" * 40
NEW = "new-key-" + "n" * 40
DECIDE = re.compile(r"https?://\S+?(/games/\d+/decide/[^\s>\"]+)")
SETTINGS = re.compile(r"https?://\S+?(/me/mail/[0-9.a-f]+)")


@contextmanager
def _server(monkeypatch, tmp_path: Path, url: str, name: str, key: str, fallbacks: str = ""):
    """A server configured as an operator does: by the environment."""
    monkeypatch.setenv("WHISTLESTOP_SECRET_KEY", key)
    monkeypatch.setenv("WHISTLESTOP_SECRET_KEY_FALLBACKS", fallbacks)
    app = make_app(tmp_path / name, url)
    try:
        yield app
    finally:
        app.extensions["whistlestop.db"].dispose()


@pytest.fixture
def before(monkeypatch, tmp_path, api_db_url):
    with _server(monkeypatch, tmp_path, api_db_url, "before", OLD) as app:
        yield app


@pytest.fixture
def after(monkeypatch, tmp_path, api_db_url):
    with _server(monkeypatch, tmp_path, api_db_url, "after", NEW, OLD) as app:
        yield app


@pytest.fixture
def dropped(monkeypatch, tmp_path, api_db_url):
    with _server(monkeypatch, tmp_path, api_db_url, "dropped", NEW) as app:
        yield app


# --- configuration -------------------------------------------------------------------------

def test_the_fallbacks_are_read_comma_or_space_separated():
    cfg = from_env({"WHISTLESTOP_SECRET_KEY": NEW,
                    "WHISTLESTOP_SECRET_KEY_FALLBACKS": f" {OLD}, second,\n third  "})
    assert cfg["SECRET_KEY_FALLBACKS"] == [OLD, "second", "third"]
    assert secret_keys.ring(cfg) == (OLD, "second", "third", NEW)
    assert from_env({})["SECRET_KEY_FALLBACKS"] == []


def test_a_weak_fallback_is_refused_on_a_public_server():
    public = {"SECRET_KEY": NEW, "BASE_URL": "https://games.example.org"}
    check({**public, "SECRET_KEY_FALLBACKS": [OLD]})
    with pytest.raises(ConfigError, match="WHISTLESTOP_SECRET_KEY_FALLBACKS"):
        check({**public, "SECRET_KEY_FALLBACKS": ["short"]})


# --- browser sessions and the forms of pages shown before ----------------------------------

def _signed_in_as(app, cookie: str, email: str) -> bool:
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    answer = client.get("/me/mail")
    assert answer.status_code == 200
    return email in answer.get_data(as_text=True)


def test_a_browser_stays_signed_in_across_the_rotation(before, after, dropped, smtp_catcher):
    jack = Reader(before, smtp_catcher, "jack@example.org")
    jack.sign_in()
    name = before.config["SESSION_COOKIE_NAME"]
    old_cookie = jack.client.get_cookie(name).value
    assert _signed_in_as(before, old_cookie, "jack@example.org")
    assert _signed_in_as(after, old_cookie, "jack@example.org")
    assert not _signed_in_as(dropped, old_cookie, "jack@example.org")
    # A browser signing in after the rotation gets a cookie signed with the new key.
    dick = Reader(after, smtp_catcher, "dick@example.org")
    dick.sign_in()
    new_cookie = dick.client.get_cookie(name).value
    assert _signed_in_as(dropped, new_cookie, "dick@example.org")
    assert not _signed_in_as(before, new_cookie, "dick@example.org")


def test_a_form_shown_before_the_rotation_still_posts(before, after, dropped):
    shown = before.test_client()
    token = csrf(shown.get("/sign-in").data)
    cookie = shown.get_cookie(before.config["SESSION_COOKIE_NAME"]).value
    for app, status in ((after, 200), (dropped, 400)):
        client = app.test_client()
        client.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
        answer = client.post("/sign-in", data={"csrf_token": token, "email": "ann@example.org",
                                               "next": "/"})
        assert answer.status_code == status


# --- sign-in links ---------------------------------------------------------------------------

def _ask_sign_in(app, smtp_catcher, email: str) -> str:
    """The path of the sign-in link ``app`` mails to ``email``."""
    before = len(smtp_catcher.to(email))
    Reader(app, smtp_catcher, email).post_form("/sign-in", "/sign-in",
                                               {"email": email, "next": "/"})
    return path_of(sign_in_link(smtp_catcher.wait_for_to(email, before + 1)[-1]))


def test_a_sign_in_link_mailed_before_the_rotation_works_once(before, after, dropped,
                                                              smtp_catcher):
    old_link = _ask_sign_in(before, smtp_catcher, "jack@example.org")
    refused = dropped.test_client().get(old_link)
    assert refused.status_code == 400 and "not made by this server" in refused.get_data(True)
    client = after.test_client()
    confirm = client.get(old_link)
    assert confirm.status_code == 200
    assert client.post(old_link, data={"csrf_token": csrf(confirm.data)}).status_code == 303
    assert client.get(old_link).status_code == 409  # each works once, as before
    new_link = _ask_sign_in(after, smtp_catcher, "dick@example.org")
    assert before.test_client().get(new_link).status_code == 400
    assert dropped.test_client().get(new_link).status_code == 200


# --- decision links, mail settings links and reply addresses --------------------------------

@pytest.fixture
def game(before, smtp_catcher):
    """A game started by the old server: its first decision mail signed with the old key."""
    with before.app_context(), Session(db.get_engine()) as s:
        jack = proven_user(s, "jack@example.org", "Jack")
        dick = proven_user(s, "dick@example.org", "Dick")
        g = svc.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": dick.id},
                            seed="rotation", created_by=jack.id)
        state = svc.whole_state(s, g)
        seat = state.active()[0]
        info = {"id": g.id, "step": g.step, "seat": seat,
                "email": {"kennedy": jack.email, "nixon": dick.email}[seat],
                "order": str(state.legal_actions(seat)[0])}
    info["mail"] = [m for m in smtp_catcher.to(info["email"])
                    if DECIDE.search(m.get_body(("plain",)).get_content())][-1]
    return info


def _decide_link(mail) -> str:
    return DECIDE.search(mail.get_body(("plain",)).get_content()).group(1)


def _step(app, game_id: int) -> int:
    with app.app_context(), Session(db.get_engine()) as s:
        return s.exec(select(Game.step).where(Game.id == game_id)).one()


def _seat_user(app, game_id: int, seat: str) -> int:
    with app.app_context(), Session(db.get_engine()) as s:
        return s.exec(select(Seat.user_id).where(Seat.game_id == game_id,
                                                 Seat.seat == seat)).one()


def test_a_decision_link_mailed_before_the_rotation_works_once(before, after, dropped, game):
    old_link = _decide_link(game["mail"])
    assert dropped.test_client().get(old_link).status_code == 400
    assert dropped.test_client().post(old_link).status_code == 400
    assert _step(after, game["id"]) == game["step"]
    client = after.test_client()
    assert client.get(old_link).status_code == 200
    assert client.post(old_link).status_code == 200
    assert _step(after, game["id"]) == game["step"] + 1
    assert client.post(old_link).status_code == 409  # once, as before
    # The next decision's link, as the rotated server mails it, is signed with the new key.
    with after.app_context(), Session(db.get_engine()) as s:
        g = s.get(Game, game["id"])
        state = svc.whole_state(s, g)
        seat, step = state.active()[0], g.step
        action, notes = str(state.legal_actions(seat)[0]), len(state.view(seat)["notes"])
    token = links.make(MailSettings.from_config(after.config).secret, game["id"], seat, step,
                       action, _seat_user(after, game["id"], seat), notes)
    new_link = f"/games/{game['id']}/decide/{token}"
    assert before.test_client().get(new_link).status_code == 400
    assert dropped.test_client().get(new_link).status_code == 200


def test_a_mail_settings_link_mailed_before_the_rotation_unsubscribes(before, after, dropped,
                                                                      game):
    old_link = SETTINGS.search(game["mail"].get_body(("plain",)).get_content()).group(1)
    assert old_link == SETTINGS.search(game["mail"]["List-Unsubscribe"]).group(1)
    one_click = {"List-Unsubscribe": "One-Click"}
    refused = dropped.test_client().post(old_link, data=one_click)
    assert refused.status_code == 404 and "not made by this server" in refused.get_data(True)
    assert after.test_client().get(old_link).status_code == 200
    assert after.test_client().post(old_link, data=one_click).status_code == 200
    # A link the rotated server makes is signed with the new key.
    user_id = int(old_link.rsplit("/", 1)[1].split(".")[0])
    token = links.preferences_token(MailSettings.from_config(after.config).secret, user_id, 1)
    assert dropped.test_client().get(f"/me/mail/{token}").status_code == 200
    assert before.test_client().get(f"/me/mail/{token}").status_code == 404


def _reply(game, to: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = game["email"], to
    msg["Subject"] = "Re: " + game["mail"]["Subject"]
    msg["In-Reply-To"] = msg["References"] = game["mail"]["Message-ID"]
    msg.set_content(f"{game['order']}\n")
    return bytes(msg)


def _handle(app, raw: bytes) -> str | None:
    """What the ``mail`` process of ``app`` makes of a reply."""
    with app.app_context():
        with queued(Path(app.config["VAR_DIR"]) / "replies-queue"), \
                Session(db.get_engine()) as s:
            inbound = replies.receive(s, raw, "smtp")
        return replies.handle(db.get_engine(), inbound, None,
                              MailSettings.from_config(app.config))


def test_a_reply_to_a_mail_sent_before_the_rotation_is_applied(before, after, dropped, game):
    old_address = game["mail"]["Reply-To"]
    assert _handle(dropped, _reply(game, old_address)) == "unknown"
    assert _step(after, game["id"]) == game["step"]
    assert _handle(after, _reply(game, old_address)) == "order"
    assert _step(after, game["id"]) == game["step"] + 1
    # The reply address the rotated server writes is signed with the new key.
    user_id = _seat_user(after, game["id"], game["seat"])
    new = reply_address.parse(reply_address.token(MailSettings.from_config(after.config).secret,
                                                  game["id"], game["seat"], user_id))
    assert reply_address.verify((NEW,), new, user_id)
    assert not reply_address.verify((OLD,), new, user_id)


# --- a member's club invitation link (issue 48, item 1) ------------------------------------

def test_a_club_invitation_made_before_the_rotation_still_opens(before, after, dropped):
    with before.app_context(), Session(db.get_engine()) as s:
        token = members.invite(s, proven_user(s, "jack@example.org", "Jack"),
                               secret_keys.ring(before.config))
    path = f"{members.PATH}{token}"
    refused = dropped.test_client().get(path)
    assert refused.status_code == 400 and "not made by this club" in refused.get_data(True)
    assert after.test_client().get(path).status_code == 200


# --- calendar feed addresses and table-talk reply addresses ---------------------------------

def test_a_calendar_feed_subscribed_before_the_rotation_still_answers(before, after, dropped):
    with before.app_context(), Session(db.get_engine()) as s:
        user_id = proven_user(s, "jack@example.org", "Jack").id
        calendar_feed.renew(s, user_id)
        s.commit()
        address = calendar_feed.url(s, user_id, secret_keys.ring(before.config), "")
    assert dropped.test_client().get(address).status_code == 404
    assert after.test_client().get(address).status_code == 200


def test_a_table_talk_address_of_before_the_rotation_is_still_ours():
    old = chat_address.parse(chat_address.token((OLD,), 7, "players", 3))
    assert chat_address.verify((OLD, NEW), old)
    assert not chat_address.verify((NEW,), old)
    new = chat_address.parse(chat_address.token((OLD, NEW), 7, "players", 3))
    assert chat_address.verify((NEW,), new) and not chat_address.verify((OLD,), new)
