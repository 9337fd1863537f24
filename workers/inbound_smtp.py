"""The Procfile's `mail` process: the inbound SMTP server, which keeps each mail in the database
for the reply task (server/mail/replies.py), and (embedded default, MAIL_CATCHER) the outbound
mail catcher, which keeps every mail the server sends as a .eml file for the local page /mail.

Run with `python -m workers.inbound_smtp`.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller

from server import config as server_config

log = logging.getLogger("whistlestop.mail")

# A reply address's token ("r+TOKEN@domain") is a seat's secret: the log names the address
# with the token as a fixed mark (server/access_log.py does so for the web's links).
_REPLY_TOKEN = re.compile(r"(?i)\b(r\+)[^@\s]+(?=@)")


def without_tokens(addresses) -> list[str]:
    """The envelope's recipients with their reply tokens as [redacted]."""
    return [_REPLY_TOKEN.sub(r"\1[redacted]", str(address)) for address in addresses]


class SaveMessage:
    """aiosmtpd handler: writes each message to <directory>/<uuid>.eml, then answers 250."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = with_delivery_headers(envelope)
        name = f"{uuid.uuid4().hex}.eml"
        # Write then rename, so a reader never sees a half-written message.
        tmp = self.directory / f".{name}.tmp"
        tmp.write_bytes(raw)
        tmp.replace(self.directory / name)
        log.info("stored %s from %s to %s", name, envelope.mail_from,
                 without_tokens(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


def with_delivery_headers(envelope) -> bytes:
    """The message as received, with the envelope's sender and recipients recorded as an MTA's
    local delivery would (the recipient carries the reply token even when To: does not)."""
    header = f"Return-Path: <{envelope.mail_from}>\r\n" + "".join(
        f"Delivered-To: {rcpt}\r\n" for rcpt in envelope.rcpt_tos)
    return header.encode("utf-8", "surrogateescape") + envelope.original_content


class ReceiveReplies:
    """aiosmtpd handler of the inbound server: keeps each mail in the database with an outbox
    row asking the reply task to handle it, and sends that row; answers 250 once it is kept
    (451, try later, when the database cannot take it: the sender's MTA retries)."""

    def __init__(self, database_url: str) -> None:
        from server import db

        self.engine = db.make_engine(database_url)

    async def handle_DATA(self, server, session, envelope) -> str:
        import asyncio

        raw = with_delivery_headers(envelope)
        try:
            inbound_id = await asyncio.get_running_loop().run_in_executor(None, self._keep, raw)
        except Exception:
            log.exception("could not keep a mail from %s", envelope.mail_from)
            return "451 4.3.0 Could not store the message; try again later"
        log.info("kept mail #%s from %s to %s", inbound_id, envelope.mail_from,
                 without_tokens(envelope.rcpt_tos))
        return "250 Message accepted for delivery"

    def _keep(self, raw: bytes) -> int:
        from sqlmodel import Session

        from server.mail import replies

        with Session(self.engine) as session:
            return replies.receive(session, raw, "smtp")


def make_controller(directory: str | os.PathLike, host: str, port: int) -> Controller:
    """Return an (unstarted) SMTP server on host:port storing messages in directory (the mail
    catcher)."""
    return Controller(SaveMessage(directory), hostname=host, port=port)


def make_inbound(database_url: str, host: str, port: int) -> Controller:
    """Return an (unstarted) SMTP server on host:port handing mail to the reply task."""
    return Controller(ReceiveReplies(database_url), hostname=host, port=port)


def main() -> None:
    """Serve until SIGTERM or SIGINT."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # aiosmtpd's own log says at INFO every connection's steps, its readiness checks' too
    # (issue 28): the lines above and below say what arrived; its warnings and errors stay.
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    cfg = server_config.from_env()
    controllers = [make_inbound(cfg["DATABASE_URL"], cfg["SMTP_HOST"], cfg["SMTP_PORT"])]
    log.info("inbound SMTP on %s:%s, replies to the reply task", cfg["SMTP_HOST"],
             cfg["SMTP_PORT"])
    if cfg["MAIL_CATCHER"]:
        controllers.append(make_controller(cfg["MAIL_CATCHER_DIR"], cfg["MAIL_SMTP_HOST"],
                                           cfg["MAIL_SMTP_PORT"]))
        log.info("mail catcher on %s:%s, keeping sent mail in %s (shown at %s/mail)",
                 cfg["MAIL_SMTP_HOST"], cfg["MAIL_SMTP_PORT"], cfg["MAIL_CATCHER_DIR"],
                 cfg["BASE_URL"])
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    for controller in controllers:
        controller.start()
    try:
        stop.wait()
    finally:
        for controller in controllers:
            controller.stop()


if __name__ == "__main__":
    main()
