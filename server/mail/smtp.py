"""Send one message over SMTP, telling a failure worth retrying from one that is not.

Temporary: the server cannot be reached, drops the connection, or answers 4xx (RFC 5321 4.2.1:
"the same request may succeed later"). Permanent: 5xx for the message or every recipient.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage


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


def send(message: EmailMessage, settings: SmtpSettings) -> None:
    """Deliver to the SMTP server or raise TemporaryFailure / PermanentFailure."""
    with Connection(settings) as connection:
        connection.send(message)


class Connection:
    """One SMTP session for several messages, opened at the first send (a run with nothing to
    send opens none); after a failure the next send opens a new one."""

    def __init__(self, settings: SmtpSettings):
        self.settings = settings
        self._smtp: smtplib.SMTP | None = None

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
            self._smtp = smtp
        return self._smtp

    def send(self, message: EmailMessage) -> None:
        """Deliver one message or raise TemporaryFailure / PermanentFailure."""
        try:
            refused = self._open().send_message(message)
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
