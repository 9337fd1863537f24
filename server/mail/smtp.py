"""Send one message over SMTP, telling a failure worth retrying from one that is not.

Temporary: the server cannot be reached, drops the connection, or answers 4xx (RFC 5321 4.2.1:
"the same request may succeed later"). Permanent: 5xx for the message or every recipient.
"""

from __future__ import annotations

import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import Message


class TemporaryFailure(Exception):
    """Try again later (the task retries with backoff)."""


class PermanentFailure(Exception):
    """Will never succeed as it is: recorded, not retried."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    username: str = ""
    password: str = ""
    starttls: bool = False
    timeout: float = 30.0

    @classmethod
    def from_config(cls, cfg) -> "SmtpSettings":
        return cls(host=cfg["MAIL_SMTP_HOST"], port=int(cfg["MAIL_SMTP_PORT"]),
                   username=cfg["MAIL_SMTP_USERNAME"], password=cfg["MAIL_SMTP_PASSWORD"],
                   starttls=bool(cfg["MAIL_SMTP_STARTTLS"]),
                   timeout=float(cfg["MAIL_SMTP_TIMEOUT"]))


def _classify(code: int, text) -> Exception:
    detail = text.decode(errors="replace") if isinstance(text, bytes) else str(text)
    error = f"SMTP {code}: {detail}"
    return TemporaryFailure(error) if 400 <= code < 500 else PermanentFailure(error)


def send(message: Message, settings: SmtpSettings) -> None:
    """Deliver to the SMTP server or raise TemporaryFailure / PermanentFailure."""
    with Connection(settings) as connection:
        connection.send(message)


class Connection:
    """One SMTP session for several messages, opened at the first send (a run with nothing to
    send opens none); after a failure the next send opens a new one.

    A worker process keeps one open across its tasks (workers/tasks.py): a session costs three
    round trips (greeting, EHLO, QUIT) that a mail need not pay. A session idle for longer than
    ``check_after`` seconds is asked NOOP before it is used again, and one idle for longer than
    ``max_idle`` is closed and opened anew: servers hang up on idle clients (RFC 5321 4.5.3.2
    lets them after 5 minutes), and a session the server has dropped must not cost a mail a
    retry.
    """

    def __init__(self, settings: SmtpSettings, check_after: float = 5.0,
                 max_idle: float = 240.0):
        self.settings = settings
        self.check_after, self.max_idle = check_after, max_idle
        self._smtp: smtplib.SMTP | None = None
        self._used = 0.0  # time.monotonic() of the last exchange

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                self._smtp.close()
            self._smtp = None

    def _open(self) -> smtplib.SMTP:
        if self._smtp is not None:
            idle = time.monotonic() - self._used
            if idle > self.max_idle:
                self.close()
            elif idle > self.check_after and not self._alive():
                self._drop()
        if self._smtp is None:
            s = self.settings
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
            try:
                if s.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if s.username:
                    smtp.login(s.username, s.password)
            except BaseException:
                smtp.close()
                raise
            self._smtp, self._used = smtp, time.monotonic()
        return self._smtp

    def _alive(self) -> bool:
        try:
            return self._smtp.noop()[0] == 250
        except (smtplib.SMTPException, OSError):
            return False

    def eight_bit(self) -> bool:
        """Whether the server takes 8-bit MIME bodies (RFC 6152), the session opened if need
        be; raise TemporaryFailure if it cannot be."""
        try:
            smtp = self._open()
            smtp.ehlo_or_helo_if_needed()
            return smtp.has_extn("8bitmime")
        except (smtplib.SMTPException, OSError) as exc:
            self._drop()
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from None

    def send(self, message: Message, eight_bit: bool = False) -> None:
        """Deliver one message (with 8-bit MIME parts if ``eight_bit``: ask ``eight_bit()``
        first) or raise TemporaryFailure / PermanentFailure."""
        try:
            refused = self._open().send_message(
                message, mail_options=("BODY=8BITMIME",) if eight_bit else ())
            self._used = time.monotonic()
        except smtplib.SMTPRecipientsRefused as exc:  # every recipient refused
            self._reset()
            code, text = next(iter(exc.recipients.values()))
            raise _classify(code, text) from None
        except smtplib.SMTPResponseException as exc:
            self._reset()
            raise _classify(exc.smtp_code, exc.smtp_error) from None
        except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, OSError) as exc:
            self._drop()
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from None
        if refused:  # some recipients refused (we send to one, so this is rare)
            code, text = next(iter(refused.values()))
            raise _classify(code, text)

    def _reset(self) -> None:
        """After a refusal the session may go on (RSET), unless it is gone."""
        try:
            if self._smtp is not None:
                self._smtp.rset()
        except (smtplib.SMTPException, OSError):
            self._drop()

    def _drop(self) -> None:
        if self._smtp is not None:
            self._smtp.close()
            self._smtp = None
