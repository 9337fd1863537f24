"""The inbound SMTP server stores each message it accepts as a .eml file."""

from __future__ import annotations

import email
import smtplib
from email.message import EmailMessage

from workers.inbound_smtp import make_controller


def test_message_is_stored_as_eml(tmp_path, free_port):
    inbox = tmp_path / "inbound"
    controller = make_controller(inbox, "127.0.0.1", free_port)
    controller.start()
    try:
        message = EmailMessage()
        message["From"] = "kennedy@example.org"
        message["To"] = "game@whistlestop.test"
        message["Subject"] = "Re: your move"
        message.set_content("campaign TX 3\n")
        with smtplib.SMTP("127.0.0.1", free_port, timeout=10) as smtp:
            refused = smtp.send_message(message, to_addrs=["r+token123@whistlestop.test"])
        assert refused == {}
    finally:
        controller.stop()

    stored = list(inbox.glob("*.eml"))
    assert len(stored) == 1
    parsed = email.message_from_bytes(stored[0].read_bytes())
    assert parsed["Subject"] == "Re: your move"
    assert parsed["Delivered-To"] == "r+token123@whistlestop.test"
    assert parsed.get_payload().strip() == "campaign TX 3"
    assert not list(inbox.glob(".*.tmp"))
