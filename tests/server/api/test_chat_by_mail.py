"""Table talk by mail over real SMTP (issue 27, item 1): a reply to a table-talk mail, sent to
the `mail` process's inbound SMTP server, is posted to the chat - an order-looking one too,
never applied; an empty one is answered "nothing was posted"; a reply to a decision mail is
read as orders only, never posted to the chat."""

from __future__ import annotations

import re
import smtplib
import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlmodel import select

from server.models import ChatMessage, ChatRead, Game, InboundMail, LogEntry
from tests.services import free_port
from tests.server.api.test_chat import _due_now, _game, _post, _send_due
from workers.inbound_smtp import make_inbound


@pytest.fixture
def inbound(app, api_db_url, monkeypatch):
    """The inbound SMTP server on the test's database; the reply task it publishes runs inline
    in the test's app."""
    from workers import app_context
    monkeypatch.setattr(app_context, "_flask_app", app)
    port = free_port()  # another than the catcher's (the free_port fixture)
    controller = make_inbound(api_db_url, "127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()


def _reply(mail, text: str, sender: str) -> EmailMessage:
    """What a mail program sends for Reply: the text on top, the mail quoted below."""
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = mail["Reply-To"]
    reply["Subject"] = "Re: " + mail["Subject"]
    reply["In-Reply-To"] = mail["Message-ID"]
    reply["References"] = mail["Message-ID"]
    reply["Message-ID"] = make_msgid(domain="example.org")
    quoted = "\n".join("> " + line for line in mail.get_body(("plain",)).get_content()
                       .splitlines()[:30])
    reply.set_content(f"{text}\n\nOn Mon, 2 Nov 2026, Whistlestop wrote:\n{quoted}\n")
    return reply


def _send(port: int, message: EmailMessage, store, handled: int) -> InboundMail:
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.send_message(message)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with store.session() as s:
            done = s.exec(select(InboundMail).where(InboundMail.handled_at.is_not(None))
                          .order_by(InboundMail.id)).all()
            if len(done) > handled:
                return done[-1]
        time.sleep(0.05)
    raise AssertionError("the reply was not handled")


def _lines(store, gid):
    with store.session() as s:
        return [(m.user_id, m.body) for m in s.exec(select(ChatMessage).where(
            ChatMessage.game_id == gid).order_by(ChatMessage.id))]


def _moves(store, gid):
    with store.session() as s:
        game = s.get(Game, gid)
        return game.step, len(s.exec(select(LogEntry).where(LogEntry.game_id == gid)).all())


def test_a_chat_reply_by_smtp_is_posted_and_never_applied(client, store, players, app,
                                                          mail_server, inbound):
    gid = _game(client, store, players)
    ann, bob = players["kennedy"], players["nixon"]
    _post(client, ann, gid, "Will you go to Ohio?")
    _due_now(store)
    _send_due(store, app)
    talk = [m for m in mail_server.to(bob.email) if "Will you go to Ohio?" in
            m.get_body(("plain",)).get_content()]
    assert len(talk) == 1 and str(talk[0]["Reply-To"]).startswith("r+c")
    before = _moves(store, gid)
    # An order-looking line written to the chat's address is talk: posted, not applied.
    done = _send(inbound, _reply(talk[0], "pass\nNo, Texas first.\n-- \nBob", bob.email),
                 store, 0)
    assert done.outcome == {"kind": "chat", "status": "posted"}
    assert _lines(store, gid)[-1] == (bob.id, "pass\nNo, Texas first.")
    assert _moves(store, gid) == before
    with store.session() as s:  # replying read the chat: the next line may be mailed again
        marker = s.exec(select(ChatRead).where(ChatRead.user_id == bob.id)).one()
        assert marker.mail_outbox_id is None
    # An empty reply (only the quote) posts nothing and is answered saying so.
    count = len(mail_server.to(bob.email))
    done = _send(inbound, _reply(talk[0], "", bob.email), store, 1)
    assert done.outcome["status"] == "refused"
    answer = mail_server.wait_for_to(bob.email, count + 1)[-1]
    assert "not posted" in answer.get_body(("plain",)).get_content()
    assert answer["In-Reply-To"]
    assert len(_lines(store, gid)) == 2
    # A reply from another address is neither posted nor answered.
    _send(inbound, _reply(talk[0], "forged words", "mallory@example.org"), store, 2)
    assert all(body != "forged words" for _u, body in _lines(store, gid))


def test_a_reply_to_a_decision_mail_is_never_posted_to_the_chat(client, store, players, app,
                                                                mail_server, inbound):
    gid = _game(client, store, players)
    decision = [m for m in mail_server.received()
                if re.match(rf"r\+{gid}-[a-z]+-[0-9a-f]+@", str(m["Reply-To"] or ""))]
    assert decision, "a decision mail with the seat's reply address"
    mail = decision[-1]
    sender = str(mail["To"])
    done = _send(inbound, _reply(mail, "Hello there, good game!", sender), store, 0)
    assert done.outcome["kind"] == "order"  # read as an order (and refused), not as chat
    assert _lines(store, gid) == []
