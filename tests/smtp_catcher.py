"""A real SMTP server for tests (aiosmtpd): keeps what it receives in memory, and can be told
to answer with a temporary or permanent failure, or be stopped and started again on its port."""

from __future__ import annotations

import email
import threading
import time
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller


class SmtpCatcher:
    def __init__(self, port: int):
        self.port = port
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.answer: str | None = None  # e.g. "451 4.3.0 try later": refuse every message
        self.answer_to: dict[str, str] = {}  # an address's own answer (refuse mail to it)
        self.sessions: list = []  # the SMTP sessions that sent a message, each once
        self._lock = threading.Lock()
        self._controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.answer:
            return self.answer
        refused = [self.answer_to[r] for r in envelope.rcpt_tos if r in self.answer_to]
        if refused:
            return refused[0]
        message = email.message_from_bytes(envelope.original_content, policy=policy.default)
        with self._lock:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            if not any(known is session for known in self.sessions):
                self.sessions.append(session)
        return "250 OK"

    def start(self) -> "SmtpCatcher":
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def received(self) -> list[EmailMessage]:
        with self._lock:
            return list(self.messages)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.received() if m["To"] == address]

    def wait_for(self, count: int, timeout: float = 30) -> list[EmailMessage]:
        """Wait until at least ``count`` messages arrived; return them all."""
        deadline = time.monotonic() + timeout
        while len(self.received()) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.received())} mail(s) arrived, not {count}")
            time.sleep(0.02)
        return self.received()

    def wait_for_to(self, address: str, count: int, timeout: float = 30) -> list[EmailMessage]:
        """Wait until at least ``count`` messages to ``address`` arrived; return them."""
        deadline = time.monotonic() + timeout
        while len(self.to(address)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.to(address))} mail(s) to {address}, "
                                     f"not {count}")
            time.sleep(0.02)
        return self.to(address)


@pytest.fixture
def smtp_catcher(free_port):
    catcher = SmtpCatcher(free_port).start()
    yield catcher
    catcher.stop()
