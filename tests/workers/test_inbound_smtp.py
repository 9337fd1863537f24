"""The `mail` process's servers: the inbound one keeps each mail in the database with an outbox
row for the reply task; the catcher keeps each sent mail as a .eml file."""

from __future__ import annotations

import email
import smtplib
from email.message import EmailMessage

from sqlmodel import Session, select

from server import db
from server.models import InboundMail, OutboxMessage
from workers.inbound_smtp import make_controller, make_inbound


def _mail() -> EmailMessage:
    message = EmailMessage()
    message["From"] = "kennedy@example.org"
    message["To"] = "game@whistlestop.test"
    message["Subject"] = "Re: your move"
    message.set_content("campaign TX 3\n")
    return message


def test_inbound_mail_is_kept_with_its_envelope_and_handed_to_the_reply_task(
        tmp_path, free_port, caplog):
    url = f"sqlite:///{tmp_path / 'ws.db'}"
    db.migrate(url)
    engine = db.make_engine(url)
    controller = make_inbound(url, "127.0.0.1", free_port)
    controller.start()
    try:
        with caplog.at_level("INFO", logger="whistlestop.mail"), \
                smtplib.SMTP("127.0.0.1", free_port, timeout=10) as smtp:
            refused = smtp.send_message(_mail(), to_addrs=["r+token123@whistlestop.test"])
        assert refused == {}
    finally:
        controller.stop()
    # The log names the address, not the seat's reply token (issue 48).
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "r+[redacted]@whistlestop.test" in logged and "token123" not in logged
    with Session(engine) as session:
        kept = session.exec(select(InboundMail)).one()
        rows = session.exec(select(OutboxMessage)).all()
    parsed = email.message_from_bytes(kept.raw)
    assert parsed["Subject"] == "Re: your move"
    assert parsed["Delivered-To"] == "r+token123@whistlestop.test"
    assert parsed["Return-Path"] == "<kennedy@example.org>"
    assert parsed.get_payload().strip() == "campaign TX 3"
    assert [(r.kind, r.payload) for r in rows] == [("reply", {"inbound_id": kept.id})]
    engine.dispose()


def test_a_database_that_cannot_keep_the_mail_makes_the_sender_retry(tmp_path, free_port):
    controller = make_inbound(f"sqlite:///{tmp_path / 'missing' / 'ws.db'}", "127.0.0.1",
                              free_port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", free_port, timeout=10) as smtp:
            try:
                smtp.send_message(_mail(), to_addrs=["r+x@whistlestop.test"])
                raise AssertionError("the server accepted a mail it could not keep")
            except smtplib.SMTPDataError as exc:
                assert exc.smtp_code == 451
    finally:
        controller.stop()


def test_the_catcher_keeps_sent_mail_as_eml(tmp_path, free_port):
    folder = tmp_path / "outbound"
    controller = make_controller(folder, "127.0.0.1", free_port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", free_port, timeout=10) as smtp:
            smtp.send_message(_mail(), to_addrs=["kennedy@example.org"])
    finally:
        controller.stop()
    stored = list(folder.glob("*.eml"))
    assert len(stored) == 1 and not list(folder.glob(".*.tmp"))
    assert email.message_from_bytes(stored[0].read_bytes())["Subject"] == "Re: your move"
