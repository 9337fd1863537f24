"""What an inbound mail is to the turn server: its kind, reply token, threading ids and lines."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    ORDER = "order"  # a person's reply: act on its lines (there may be none)
    AUTO_REPLY = "auto_reply"  # RFC 3834 autoresponder: out-of-office, vacation, read receipt
    BOUNCE = "bounce"  # delivery status notification / non-delivery report
    UNREADABLE = "unreadable"  # no text part we can read


@dataclass(frozen=True)
class Reply:
    kind: Kind
    token: str | None = None  # from the r+TOKEN@domain recipient, exactly as written
    sender: str | None = None  # addr-spec of From
    message_id: str | None = None  # "<id@host>", for In-Reply-To of our answer
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()  # "<id@host>" each, oldest first
    subject: str = ""
    lines: tuple[str, ...] = ()  # the reply's own new text, one stripped non-blank line each
    # a lone name or initial that closed the new text ("Alice", "-J."): the writer's name, or
    # an order written capitalised ("Pass"), which only the game can tell
    closing: tuple[str, ...] = ()
    reason: str | None = None  # why it is not an order, in words for a log or an answer
    # "dkim=fail", "spf=fail" or "dmarc=fail" when the receiving server's Authentication-Results
    # (the topmost one: the latest hop's) says the sender's domain did not vouch for the mail
    auth_failed: str | None = None
