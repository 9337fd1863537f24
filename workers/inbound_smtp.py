"""Inbound SMTP server (the Procfile's `mail` process): stores each message as a .eml file.

Issue 5 parses orders out of these files; for now the server only accepts and keeps them.
Run with `python -m workers.inbound_smtp`.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller

from server import config as server_config

log = logging.getLogger("whistlestop.mail")


class SaveMessage:
    """aiosmtpd handler: writes each message to <directory>/<uuid>.eml, then answers 250."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server, session, envelope) -> str:
        # The envelope recipient carries the reply token (r+TOKEN@...) even when the To:
        # header does not (Bcc, forwarding), so record it as an MTA's local delivery would.
        header = f"Return-Path: <{envelope.mail_from}>\r\n" + "".join(
            f"Delivered-To: {rcpt}\r\n" for rcpt in envelope.rcpt_tos
        )
        raw = header.encode("utf-8", "surrogateescape") + envelope.original_content
        name = f"{uuid.uuid4().hex}.eml"
        # Write then rename, so a reader never sees a half-written message.
        tmp = self.directory / f".{name}.tmp"
        tmp.write_bytes(raw)
        tmp.replace(self.directory / name)
        log.info("stored %s from %s to %s", name, envelope.mail_from, envelope.rcpt_tos)
        return "250 Message accepted for delivery"


def make_controller(directory: str | os.PathLike, host: str, port: int) -> Controller:
    """Return an (unstarted) SMTP server on host:port storing messages in directory."""
    return Controller(SaveMessage(directory), hostname=host, port=port)


def main() -> None:
    """Serve until SIGTERM or SIGINT."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    cfg = server_config.from_env()
    controller = make_controller(cfg["INBOUND_MAIL_DIR"], cfg["SMTP_HOST"], cfg["SMTP_PORT"])
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    controller.start()
    log.info(
        "inbound SMTP on %s:%s, storing in %s",
        cfg["SMTP_HOST"], cfg["SMTP_PORT"], cfg["INBOUND_MAIL_DIR"],
    )
    try:
        stop.wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
