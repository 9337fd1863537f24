"""Composing and sending a mail to a real SMTP server (aiosmtpd): headers, both parts, and how
each kind of failure is told apart (retry later, or never)."""

from __future__ import annotations

import email
import email.policy
import socket
from datetime import datetime, timezone

import pytest
from aiosmtpd.controller import Controller

from server.mail import compose, contexts, render, smtp

LINKS = contexts.Links("https://whistlestop.example")


class Answer:
    """An aiosmtpd handler that keeps what it accepts, or answers DATA with a fixed reply."""

    def __init__(self, reply: str = "250 OK"):
        self.reply, self.received = reply, []

    async def handle_DATA(self, server, session, envelope):
        if self.reply.startswith("250"):
            self.received.append((envelope.rcpt_tos, envelope.original_content))
            self.mail_options = list(envelope.mail_options)
        return self.reply


@pytest.fixture
def smtp_server(free_port):
    """Start the test's SMTP server (once) with the given answer to DATA."""
    started = []

    def start(reply: str = "250 OK") -> tuple[Answer, smtp.SmtpSettings]:
        assert not started, "one SMTP server per test"
        handler = Answer(reply)
        controller = Controller(handler, hostname="127.0.0.1", port=free_port)
        controller.start()
        started.append(controller)
        return handler, smtp.SmtpSettings("127.0.0.1", free_port, timeout=10)

    yield start
    for controller in started:
        controller.stop()


def _message(to: str = "jack@example.org"):
    rendered = render.render("seat_joined", contexts.seat_joined(
        7, "kennedy", "Jack", "Dick", "nixon", True, "en", LINKS, game_type="tmotp"))
    tag = compose.install_tag("test-secret")
    return compose.build(
        rendered, to=to, sender="game@whistlestop.example", sender_name="Whistlestop",
        msg_id=compose.message_id(41, "kennedy", "whistlestop.example", tag),
        thread=compose.thread_id(7, "kennedy", "whistlestop.example", tag),
        reply_to="r+abc@whistlestop.example",
        unsubscribe_url="https://whistlestop.example/me/mail/unsubscribe?t=x",
        unsubscribe_mailto="mailto:unsubscribe@whistlestop.example",
        list_id="<games.whistlestop.example>",
        date=datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc))


def test_a_mail_arrives_with_its_headers_and_both_parts(smtp_server):
    handler, settings = smtp_server()
    smtp.send(_message(), settings)
    [(rcpts, raw)] = handler.received
    assert rcpts == ["jack@example.org"]
    got = email.message_from_bytes(raw, policy=email.policy.default)
    tag = compose.install_tag("test-secret")
    assert got["Message-ID"] == f"<wso.41.kennedy.{tag}@whistlestop.example>"
    assert got["In-Reply-To"] == got["References"] == f"<game.7.kennedy.{tag}@whistlestop.example>"
    assert got["Subject"] == "1960 game #7 · you play Kennedy"
    assert got["Auto-Submitted"] == "auto-generated"
    assert got["Reply-To"] == "r+abc@whistlestop.example"
    assert got["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "<mailto:unsubscribe@whistlestop.example>" in got["List-Unsubscribe"]
    assert got.get_content_type() == "multipart/alternative"
    text = got.get_body(("plain",)).get_content()
    html = got.get_body(("html",)).get_content()
    assert "“Dick” has taken the seat of Nixon in your game #7." in text
    assert "“Dick” has taken the seat of Nixon" in html and 'style="' in html


def test_a_server_taking_8bit_mime_gets_the_body_as_it_is(smtp_server):
    """aiosmtpd says 8BITMIME: a Japanese body goes unencoded, declared BODY=8BITMIME."""
    handler, settings = smtp_server()
    rendered = render.Rendered("ゲーム #7", "あなたの番です。\n", "<p>あなたの番です。</p>\n")
    with smtp.Connection(settings) as connection:
        assert connection.eight_bit()
        tag = compose.install_tag("test-secret")
        connection.send(compose.build(
            rendered, to="jack@example.org", sender="game@whistlestop.example",
            sender_name="Whistlestop", msg_id=compose.message_id(1, "nixon", "w.example", tag),
            thread=None, reply_to=None, unsubscribe_url=None, unsubscribe_mailto=None,
            list_id="<games.w.example>", date=datetime(2026, 11, 22, tzinfo=timezone.utc),
            eight_bit=True), eight_bit=True)
    [(_rcpts, raw)] = handler.received
    assert "BODY=8BITMIME" in handler.mail_options
    assert "あなたの番です。".encode() in raw
    got = email.message_from_bytes(raw, policy=email.policy.default)
    assert got.get_body(("plain",)).get_content().strip() == "あなたの番です。"
    assert got.get_body(("plain",))["Content-Transfer-Encoding"] == "8bit"


def test_the_same_row_gives_the_same_message_id():
    assert _message()["Message-ID"] == _message()["Message-ID"]
    other = compose.message_id(41, "nixon", "whistlestop.example",
                               compose.install_tag("test-secret"))
    assert other != _message()["Message-ID"]


@pytest.mark.parametrize("reply, failure", [
    ("451 4.3.0 Try again later", smtp.TemporaryFailure),
    ("452 4.2.2 Mailbox full", smtp.TemporaryFailure),
    ("550 5.1.1 No such user", smtp.PermanentFailure),
    ("554 5.7.1 Rejected", smtp.PermanentFailure),
])
def test_refusals_are_temporary_or_permanent_by_their_code(smtp_server, reply, failure):
    _, settings = smtp_server(reply)
    with pytest.raises(failure, match=reply.split()[0]):
        smtp.send(_message(), settings)


def test_no_server_is_a_temporary_failure(free_port):
    with socket.socket() as probe:  # nothing listens on free_port
        assert probe.connect_ex(("127.0.0.1", free_port)) != 0
    with pytest.raises(smtp.TemporaryFailure):
        smtp.send(_message(), smtp.SmtpSettings("127.0.0.1", free_port, timeout=5))
