"""Build the MIME message of a rendered mail: threading, identity and list headers.

- **Message-ID** is derived from the outbox row and the recipient's seat, so a mail sent again
  after a crash carries the same id and mail systems recognize it as the same message.
- **One thread per game and player**: every mail about a game to one seat names the same thread
  root in In-Reply-To and References and has the same subject.
- **Auto-Submitted: auto-generated** (RFC 3834), so well-behaved autoresponders do not answer,
  and X-Auto-Response-Suppress for Exchange; **List-Unsubscribe** (RFC 2369) with one-click
  (RFC 8058) leads to the notification preferences.
"""

from __future__ import annotations

import hashlib
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from server.mail.render import Rendered


def install_tag(secret_key: str) -> str:
    """A short tag of this installation, so two servers' ids never collide (not a secret)."""
    return hashlib.sha256(("message-id:" + secret_key).encode()).hexdigest()[:10]


def message_id(outbox_id: int, recipient: str, domain: str, tag: str) -> str:
    return f"<wso.{outbox_id}.{recipient}.{tag}@{domain}>"


def thread_id(game_id: int, seat: str, domain: str, tag: str) -> str:
    return f"<game.{game_id}.{seat}.{tag}@{domain}>"


def build(rendered: Rendered, *, to: str, sender: str, sender_name: str, msg_id: str,
          thread: str | None, reply_to: str | None, unsubscribe_url: str | None,
          unsubscribe_mailto: str | None, list_id: str, date) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = rendered.subject
    msg["From"] = Address(display_name=sender_name, addr_spec=sender)
    msg["To"] = to
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = msg_id
    if thread:
        msg["In-Reply-To"] = thread
        msg["References"] = thread
    if reply_to:
        msg["Reply-To"] = reply_to
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["List-Id"] = list_id
    links = [f"<{u}>" for u in (unsubscribe_mailto, unsubscribe_url) if u]
    if links:
        msg["List-Unsubscribe"] = ", ".join(links)
        if unsubscribe_url:
            msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(rendered.text)
    msg.add_alternative(rendered.html, subtype="html")
    return msg
