"""POST /inbound/mail, the mail providers' hook: each body form is kept for the reply task and
published after the commit; a posted reply is really handled; a wrong secret, no mail, or a
mail too large is refused with the reason and keeps nothing; off (404) until a secret is set."""

from __future__ import annotations

import base64
import json
from email.message import EmailMessage

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from server.mail import replies, reply_address
from server.mail.recipients import MailSettings
from server.models import Game, InboundMail, LogEntry, OutboxMessage
from server.services import games as svc
from tests.task_queue import queued

SECRET = "hook-secret-123"
BEARER = {"Authorization": f"Bearer {SECRET}"}


@pytest.fixture
def hook_app(app):
    app.config["INBOUND_MAIL_SECRET"] = SECRET
    return app


@pytest.fixture
def published(hook_app, tmp_path):
    """The tasks the hook publishes, waiting in a broker of the test's instead of being run by
    the (eager) reply task, so that a test can handle the mail itself: (task, args) each."""
    with queued(tmp_path / "published") as waiting:
        yield waiting


@pytest.fixture
def game(app, store, players):
    """A started game and a reply to its first decision (not threaded: it answers the current
    step), as its player would send it."""
    with app.app_context(), Session(store.engine) as s:
        game = svc.create_game(s, "tmotp", {}, {seat: p.id for seat, p in players.items()},
                               seed="hook", created_by=players["kennedy"].id)
        state = svc._load(game)
        seat = state.active()[0]
        info = {"id": game.id, "step": game.step, "seat": seat,
                "legal": [str(a) for a in state.legal_actions(seat)],
                "player": players[seat]}
    info["address"] = reply_address.address(app.config["SECRET_KEY"],
                                            app.config["MAIL_DOMAIN"], info["id"], seat,
                                            info["player"].id)
    return info


def mail(game, body: str, to: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = game["player"].email
    msg["To"] = to or game["address"]
    msg["Subject"] = "Re: your decision"
    msg["Message-ID"] = "<reply-1@mail.example.org>"
    msg.set_content(f"{body}\n")
    return bytes(msg)


def kept(store) -> list[InboundMail]:
    with Session(store.engine) as s:
        return list(s.exec(select(InboundMail).order_by(InboundMail.id)).all())


def moves(store, game) -> int:
    with Session(store.engine) as s:
        return s.exec(select(func.count()).select_from(LogEntry)
                      .where(LogEntry.game_id == game["id"])).one()


def basic(user: str, password: str) -> dict:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.mark.parametrize("content_type", ["message/rfc822", "text/plain",
                                          "application/octet-stream"])
def test_a_raw_mail_is_kept_and_published(hook_app, store, game, published, content_type):
    raw = mail(game, game["legal"][0])
    r = hook_app.test_client().post("/inbound/mail", data=raw, headers=BEARER,
                                    content_type=content_type)
    assert r.status_code == 202, r.get_data(as_text=True)
    (row,) = kept(store)
    assert r.get_json() == {"id": row.id}
    assert row.raw == raw and row.source == "http" and row.handled_at is None
    ((task, (inbound_id, message_id)),) = published()
    assert task == "whistlestop.handle_reply" and inbound_id == row.id
    with Session(store.engine) as s:
        message = s.get(OutboxMessage, message_id)
        assert (message.kind, message.payload) == ("reply", {"inbound_id": row.id})


def test_sendgrid_raw_form_with_its_envelope(hook_app, store, game, published):
    raw = mail(game, game["legal"][0], to="Undisclosed recipients:;")
    envelope = json.dumps({"to": [game["address"]], "from": game["player"].email})
    r = hook_app.test_client().post("/inbound/mail", headers=basic("sendgrid", SECRET), data={
        "email": raw.decode(), "envelope": envelope, "to": "x", "from": "y", "subject": "Re"},
        content_type="multipart/form-data")
    assert r.status_code == 202, r.get_data(as_text=True)
    (row,) = kept(store)
    # The envelope's recipient carries the reply token when To: does not, as with SMTP.
    assert row.raw.startswith(f"Return-Path: <{game['player'].email}>\r\n"
                              f"Delivered-To: {game['address']}\r\n".encode())
    assert row.raw.endswith(raw)
    assert len(published()) == 1


def test_mailgun_mime_form(hook_app, store, game, published):
    raw = mail(game, game["legal"][0])
    r = hook_app.test_client().post("/inbound/mail", headers=basic("api", SECRET), data={
        "body-mime": raw.decode(), "recipient": game["address"],
        "sender": game["player"].email, "timestamp": "1", "signature": "x"},
        content_type="multipart/form-data")
    assert r.status_code == 202, r.get_data(as_text=True)
    (row,) = kept(store)
    assert f"Delivered-To: {game['address']}".encode() in row.raw and row.raw.endswith(raw)


def test_a_mail_sent_as_a_file_field_is_taken(hook_app, store, game, published):
    import io

    raw = mail(game, game["legal"][0])
    r = hook_app.test_client().post("/inbound/mail", headers=BEARER, data={
        "body-mime": (io.BytesIO(raw), "message.eml", "message/rfc822")})
    assert r.status_code == 202, r.get_data(as_text=True)
    assert kept(store)[0].raw.endswith(raw)


def test_a_posted_reply_is_handled_and_its_order_applied(hook_app, store, game, published):
    order = game["legal"][-1]
    r = hook_app.test_client().post("/inbound/mail", data=mail(game, order), headers=BEARER,
                                    content_type="message/rfc822")
    assert r.status_code == 202
    inbound_id = r.get_json()["id"]
    before = moves(store, game)
    ((_task, (_inbound_id, message_id)),) = published()
    with hook_app.app_context():
        assert replies.handle(store.engine, inbound_id, message_id,
                              MailSettings.from_config(hook_app.config)) == "order"
    with Session(store.engine) as s:
        assert s.get(Game, game["id"]).step == game["step"] + 1
        last = s.exec(select(LogEntry).where(LogEntry.game_id == game["id"],
                                             LogEntry.seat == game["seat"])
                      .order_by(LogEntry.seq.desc())).first()
        assert last.action == order
        assert s.get(InboundMail, inbound_id).outcome == {"kind": "order", "status": "applied"}
        assert s.get(OutboxMessage, message_id).delivered_at is not None
    assert moves(store, game) > before


def test_a_posted_reply_is_handled_by_the_reply_task_and_answered(hook_app, store, game,
                                                                  mail_server):
    """Without the stand-in: the hook publishes, the (eager) task handles and answers."""
    order = game["legal"][0]
    r = hook_app.test_client().post("/inbound/mail", data=mail(game, order), headers=BEARER,
                                    content_type="message/rfc822")
    assert r.status_code == 202
    (row,) = kept(store)
    assert row.handled_at is not None
    assert row.outcome == {"kind": "order", "status": "applied"}
    with Session(store.engine) as s:
        assert s.get(Game, game["id"]).step == game["step"] + 1
    # Answered: the game's first mails were left unsent, so every mail to the player is new.
    answers = mail_server.to(game["player"].email)
    assert answers and any(order in m.get_body(("plain",)).get_content() for m in answers)


@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": "Bearer wrong"},
    {"Authorization": f"Bearer {SECRET}x"},
    {"Authorization": f"Token {SECRET}"},
    basic("api", "wrong"),
    {"Authorization": "Basic !!!not-base64"},
    {"Authorization": "Basic " + base64.b64encode(SECRET.encode()).decode()},  # no colon
])
def test_a_wrong_or_missing_secret_is_refused(hook_app, store, game, published, headers):
    r = hook_app.test_client().post("/inbound/mail", data=mail(game, "pass"), headers=headers,
                                    content_type="message/rfc822")
    assert r.status_code == 401
    assert "Bearer" in r.headers["WWW-Authenticate"] and "Basic" in r.headers["WWW-Authenticate"]
    assert "INBOUND_MAIL_SECRET" in r.get_json()["detail"]
    assert kept(store) == [] and published() == []


def test_the_hook_is_off_by_default(app, store, game):
    assert app.config["INBOUND_MAIL_SECRET"] == ""
    for headers in ({}, {"Authorization": "Bearer "}, basic("x", "")):
        r = app.test_client().post("/inbound/mail", data=mail(game, "pass"), headers=headers,
                                   content_type="message/rfc822")
        assert r.status_code == 404
        assert "off" in r.get_json()["detail"]
    assert kept(store) == []


def test_a_mail_too_large_is_refused(hook_app, store, game, published):
    hook_app.config["INBOUND_MAIL_MAX_BYTES"] = 4000
    big = mail(game, "pass\n" + "x" * 5000)
    client = hook_app.test_client()
    r = client.post("/inbound/mail", data=big, headers=BEARER, content_type="message/rfc822")
    assert r.status_code == 413 and "4000 bytes" in r.get_json()["detail"]
    for form_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
        r = client.post("/inbound/mail", headers=BEARER, data={"email": big.decode()},
                        content_type=form_type)
        assert r.status_code == 413
    assert kept(store) == [] and published() == []
    # Just under the limit is taken.
    r = client.post("/inbound/mail", data=mail(game, "pass"), headers=BEARER,
                    content_type="message/rfc822")
    assert r.status_code == 202


@pytest.mark.parametrize("data, content_type, words", [
    (b"", "message/rfc822", "empty"),
    (b"  \r\n", "text/plain", "empty"),
    (b"hello, this is not a mail", "text/plain", "not a mail message"),
    (b"Subject: no sender or recipient\r\n\r\nbody", "message/rfc822", "no From header"),
    (b'{"to": "x"}', "application/json", "Content-Type application/json is not taken"),
    ({"text": "no raw mail here"}, None, "the field 'email'"),
])
def test_no_mail_in_the_request_is_refused(hook_app, store, published, data, content_type,
                                           words):
    kwargs = {"content_type": content_type} if content_type else {}
    r = hook_app.test_client().post("/inbound/mail", data=data, headers=BEARER, **kwargs)
    assert r.status_code == 400
    assert r.mimetype == "application/problem+json"
    assert words in r.get_json()["detail"]
    assert kept(store) == [] and published() == []


def test_a_database_that_cannot_take_the_mail_asks_the_provider_to_retry(
        hook_app, store, game, published, monkeypatch):
    from sqlalchemy.exc import OperationalError

    def fail(*_args):
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr("server.web.inbound.replies.receive", fail)
    r = hook_app.test_client().post("/inbound/mail", data=mail(game, "pass"), headers=BEARER,
                                    content_type="message/rfc822")
    assert r.status_code == 503 and r.headers["Retry-After"] == "60"
    assert "try again later" in r.get_json()["detail"]
    assert kept(store) == [] and published() == []
