"""Orders by reply, handled end to end in one process (Celery eager, a real SMTP server for the
answers): each kind of inbound mail gets the right handling, and never a traceback."""

from __future__ import annotations

import html
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session, func, select

from server import db
from server.app import create_app
from server.mail import reply_address, replies
from server.mail.recipients import MailSettings
from server.models import Game, InboundMail, LogEntry, Order
from server.games import presenter
from server.services import games as svc
from server.services import users
from tests.players import proven_user
from tests.task_queue import queued


def said(order: str) -> str:
    """An order as the answer to a reply names it: in words (issue 47)."""
    return presenter("tmotp").order_words(order, "en")


@pytest.fixture
def app(tmp_path, smtp_catcher):
    from workers import tasks  # noqa: F401  (the tasks the outbox names, run inline)
    from workers.celery_app import celery

    url = f"sqlite:///{tmp_path / 'replies.db'}"
    db.migrate(url)
    app = create_app({"DATABASE_URL": url, "VAR_DIR": str(tmp_path / "var"),
                      "MAIL_SMTP_PORT": smtp_catcher.port, "BROKER_URL": "filesystem://",
                      "BROKER_DIR": str(tmp_path / "broker")})
    saved = celery.conf.task_always_eager
    celery.conf.task_always_eager = True
    with app.app_context():
        yield app
    celery.conf.task_always_eager = saved
    app.extensions["whistlestop.db"].dispose()


@pytest.fixture
def game(app, smtp_catcher):
    """A started game; its first mails sent. Returns what the tests need to write replies."""
    engine = db.get_engine()
    with Session(engine) as s:
        jack = proven_user(s, "jack@example.org", "Jack")
        dick = proven_user(s, "dick@example.org", "Dick")
        g = svc.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": dick.id},
                            seed="replies", created_by=jack.id)
        state = svc._load(g)
        seat = state.active()[0]
        info = {"id": g.id, "step": g.step, "seat": seat, "legal": state.legal_actions(seat),
                "email": {"kennedy": jack.email, "nixon": dick.email},
                "user": {"kennedy": jack.id, "nixon": dick.id}}
    info["mail"] = [m for m in smtp_catcher.to(info["email"][seat])
                    if "Reply to this mail with your order"
                    in m.get_body(("plain",)).get_content()][-1]
    info["address"] = reply_address.address(
        app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"], info["id"], seat,
        info["user"][seat])
    return info


def reply(game, body: str, *, to=None, sender=None, html_only=False, headers=None,
          in_reply_to=True) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender or game["email"][game["seat"]]
    msg["To"] = to or game["address"]
    msg["Subject"] = "Re: " + game["mail"]["Subject"]
    if in_reply_to:
        msg["In-Reply-To"] = game["mail"]["Message-ID"]
        msg["References"] = game["mail"]["Message-ID"]
    for name, value in (headers or {}).items():
        msg[name] = value
    quoted = "\n".join("> " + line for line in
                       game["mail"].get_body(("plain",)).get_content().splitlines())
    if html_only:
        msg.set_content(f"<div>{html.escape(body)}</div><blockquote>{html.escape(quoted)}"
                        "</blockquote>", subtype="html")
    else:
        msg.set_content(f"{body}\n\nOn Mon, 2 Nov 2026 at 10:00, Whistlestop wrote:\n{quoted}\n")
    return bytes(msg)


def handle(app, raw: bytes) -> str | None:
    return replies.handle(db.get_engine(), receive(app, raw, "smtp"), None,
                          MailSettings.from_config(app.config))


def receive(app, raw: bytes, source: str) -> int:
    """Keep the mail, its reply task left waiting (handled here, not by the eager task)."""
    with queued(Path(app.config["VAR_DIR"]) / "replies-queue"), \
            Session(db.get_engine()) as s:
        return replies.receive(s, raw, source)


def state_of(game) -> tuple:
    with Session(db.get_engine()) as s:
        return (s.get(Game, game["id"]).step,
                s.exec(select(func.count()).select_from(LogEntry)).one(),
                s.exec(select(func.count()).select_from(Order)).one())


def answers(smtp_catcher, game) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in
            smtp_catcher.to(game["email"][game["seat"]])
            if "your reply was read as" in m.get_body(("plain",)).get_content()]


def test_a_reply_with_quoted_history_and_a_signature_is_applied(app, game, smtp_catcher):
    order = game["legal"][-1]
    assert handle(app, reply(game, f"{order}\n\n-- \nJack\nSent from my phone")) == "order"
    assert state_of(game)[0] == game["step"] + 1
    (answer,) = answers(smtp_catcher, game)
    assert f"> {order}" in answer and f"Done: {said(order)}." in answer


def test_an_html_only_reply_is_applied(app, game, smtp_catcher):
    order = game["legal"][0]
    assert handle(app, reply(game, order, html_only=True)) == "order"
    assert state_of(game)[0] == game["step"] + 1
    assert f"Done: {said(order)}." in answers(smtp_catcher, game)[0]


@pytest.mark.parametrize("headers", [{"Auto-Submitted": "auto-replied"},
                                     {"Precedence": "bulk", "X-Autoreply": "yes"}])
def test_an_auto_reply_is_ignored_and_not_answered(app, game, smtp_catcher, headers):
    before, mails = state_of(game), len(smtp_catcher.received())
    assert handle(app, reply(game, game["legal"][0], headers=headers)) == "ignored"
    assert state_of(game) == before and len(smtp_catcher.received()) == mails


def test_a_bounce_is_ignored_and_not_answered(app, game, smtp_catcher):
    bounce = EmailMessage()
    bounce["From"] = "MAILER-DAEMON@mx.example.org"
    bounce["To"] = game["address"]
    bounce["Subject"] = "Undelivered Mail Returned to Sender"
    bounce.set_content("This is the mail system at host mx.example.org.\n\n"
                       f"{game['legal'][0]}\n")
    bounce.add_attachment("Reporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; "
                          "x@example.org\nAction: failed\nStatus: 5.1.1\n",
                          subtype="delivery-status")
    bounce.replace_header("Content-Type", bounce["Content-Type"].replace(
        "multipart/mixed", "multipart/report; report-type=delivery-status"))
    before, mails = state_of(game), len(smtp_catcher.received())
    assert handle(app, bytes(bounce)) == "ignored"
    assert state_of(game) == before and len(smtp_catcher.received()) == mails


def test_an_unknown_or_forged_token_changes_nothing(app, game, smtp_catcher):
    before, mails = state_of(game), len(smtp_catcher.received())
    forged = game["address"].replace(game["address"].split("-")[-1].split("@")[0], "0" * 24)
    # From a user: told that the address is not one of their seats.
    assert handle(app, reply(game, game["legal"][0], to=forged)) == "unknown"
    told = smtp_catcher.received()[mails:]
    assert len(told) == 1 and "was not read as an order" in told[0]["Subject"]
    # From a stranger, or with no token at all: silence (no backscatter).
    assert handle(app, reply(game, game["legal"][0], to=forged,
                             sender="someone@elsewhere.example")) == "unknown"
    assert handle(app, reply(game, game["legal"][0], to="games@whistlestop.localhost",
                             sender="someone@elsewhere.example")) == "unknown"
    assert len(smtp_catcher.received()) == mails + 1
    assert state_of(game) == before


def test_a_reply_to_a_decision_already_taken_is_refused_as_stale(app, game, smtp_catcher):
    with Session(db.get_engine()) as s:  # answered on the web meanwhile
        svc.submit_order(s, game["id"], game["seat"], game["step"], [game["legal"][0]])
    before = state_of(game)
    assert handle(app, reply(game, game["legal"][-1])) == "order"
    assert state_of(game) == before
    assert "already behind us" in answers(smtp_catcher, game)[0]


@pytest.mark.parametrize("text, words", [("campaign ??? 2", "not a word of the action notation"),
                                         ("fly-to-the-moon", "Your decision now:")])
def test_a_malformed_or_illegal_order_is_refused_with_the_legal_orders(
        app, game, smtp_catcher, text, words):
    before = state_of(game)
    assert handle(app, reply(game, text)) == "order"
    assert state_of(game) == before
    (answer,) = answers(smtp_catcher, game)
    assert "Nothing was changed" in answer and words in answer
    assert all(action in answer for action in game["legal"][:5])


def test_an_empty_reply_is_answered(app, game, smtp_catcher):
    before = state_of(game)
    assert handle(app, reply(game, "")) == "order"
    assert state_of(game) == before
    assert "no order" in answers(smtp_catcher, game)[0]


def test_a_mail_is_handled_once(app, game, smtp_catcher):
    engine = db.get_engine()
    inbound_id = receive(app, reply(game, game["legal"][0]), "http")
    settings = MailSettings.from_config(app.config)
    assert replies.handle(engine, inbound_id, None, settings) == "order"
    assert replies.handle(engine, inbound_id, None, settings) == "duplicate"
    assert len(answers(smtp_catcher, game)) == 1
    with Session(engine) as s:
        assert s.get(InboundMail, inbound_id).outcome == {"kind": "order", "status": "applied"}
    assert replies.handle(engine, inbound_id + 99, None, settings) is None


def _standing(game):
    from server.services import standing
    with Session(db.get_engine()) as s:
        return standing.of_game(s, game["id"]).get(game["seat"], {})


def test_standing_orders_by_reply_alone_are_filed_and_answered(app, game, smtp_catcher):
    before = state_of(game)
    text = "standing trigger helps_me\nStanding second_place momentum\nstanding default pass"
    assert handle(app, reply(game, text)) == "order"
    assert state_of(game) == before  # no order: the decision is still asked
    assert _standing(game) == {"trigger": "helps_me", "second_place": "momentum",
                               "deadline_default": ["pass"]}
    (answer,) = answers(smtp_catcher, game)
    assert "standing trigger helps_me" in answer and "standing default pass" in answer
    assert all(action in answer for action in game["legal"][:5])  # still asked


def test_standing_orders_with_an_order_are_filed_with_it(app, game, smtp_catcher):
    order = game["legal"][0]
    assert handle(app, reply(game, f"standing trigger never\n{order}")) == "order"
    assert state_of(game)[0] == game["step"] + 1
    assert _standing(game) == {"trigger": "never"}
    (answer,) = answers(smtp_catcher, game)
    assert f"Done: {said(order)}." in answer and "standing trigger never" in answer


@pytest.mark.parametrize("text, words", [
    ("standing trigger sometimes", "never, always, helps_me, ask"),
    ("standing mood calm", "is not a standing order"),
    ("standing default frobnicate 2", "not an action of this game"),
    ("standing trigger never\nfly-to-the-moon", "standing orders are not filed either"),
])
def test_a_bad_standing_order_by_reply_changes_nothing(app, game, smtp_catcher, text, words):
    before = state_of(game)
    assert handle(app, reply(game, text)) == "order"
    assert state_of(game) == before and _standing(game) == {}
    (answer,) = answers(smtp_catcher, game)
    assert "Nothing was changed" in answer and words in answer
