"""read_reply: what an inbound mail says, from its raw bytes alone."""

from __future__ import annotations

import re
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from typing import cast

from server.mail.inbound import automated, headers
from server.mail.inbound.body import Unreadable, body_text
from server.mail.inbound.new_text import read_new_text
from server.mail.inbound.reply import Kind, Reply

# Where the r+TOKEN recipient is found, most trusted first: the envelope recipient as the
# delivering MTA records it (Delivered-To: Postfix, Exim, our inbound server; X-Original-To:
# Postfix; Envelope-To: Exim), then the header recipients.
TOKEN_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")

# "r+<token>": the token is URL-safe base64 / itsdangerous-style. The "r" may have been
# upper-cased by mail software; the token is returned exactly as written, since its case may
# matter (RFC 5321 §2.4: local parts are case-sensitive).
_TOKEN_LOCAL_PART = re.compile(r"[rR]\+([A-Za-z0-9_.\-]+)")

# U+FFFD stands where decoding met bytes that are not characters of the charset; C0 controls
# (but tab) and DEL are never typed. Either in the new text means we cannot read it.
_GARBLED = re.compile("[\ufffd\x00-\x08\x0b-\x1f\x7f]")


def read_reply(raw: bytes, domain: str) -> Reply:
    """What the mail is and says; never raises on malformed input (kind "unreadable")."""
    try:
        msg = cast(EmailMessage, message_from_bytes(raw, policy=headers.POLICY))
    except Exception:  # the stdlib parser recurses per MIME level: RecursionError past ~1000
        return Reply(Kind.UNREADABLE, reason="the message could not be parsed")
    if not msg.keys():
        return Reply(Kind.UNREADABLE, reason="not a mail message (no headers)")
    senders = headers.addresses(msg, "From")
    subject = headers.text(msg, "Subject")
    ids = headers.message_ids(msg, "Message-ID")
    reply = Reply(
        kind=Kind.ORDER,
        token=reply_token(msg, domain),
        sender=senders[0] if senders else None,
        message_id=ids[0] if ids else None,
        in_reply_to=next(iter(headers.message_ids(msg, "In-Reply-To")), None),
        references=headers.message_ids(msg, "References"),
        subject=subject,
        auth_failed=authentication_failure(msg),
    )
    automatic = automated.classify(msg, subject, reply.sender)
    if automatic:
        kind, reason = automatic
        return replace(reply, kind=kind, reason=reason)
    try:
        reading = read_new_text(body_text(msg))
    except Unreadable as e:
        return replace(reply, kind=Kind.UNREADABLE, reason=str(e))
    if any(_GARBLED.search(line) for line in reading.lines + reading.closing):
        return replace(reply, kind=Kind.UNREADABLE, reason=(
            "the reply's text is garbled: bytes that are not characters of its character set,"
            " or control characters"))
    return replace(reply, lines=reading.lines, closing=reading.closing)


# A method's result in Authentication-Results (RFC 8601): "dkim=fail", "spf=fail (...)".
_AUTH_FAIL = re.compile(r"(?:^|[;\s])(dmarc|dkim|spf)\s*=\s*fail\b", re.IGNORECASE)


def authentication_failure(msg: EmailMessage) -> str | None:
    """"dmarc=fail" (or dkim, spf) when the topmost Authentication-Results header - the one the
    receiving server added last - reports it; None when it reports none or there is none. Only
    failures are read: a sender can write any header himself, but a forged failure only refuses
    his own mail, while a forged "pass" is never believed."""
    value = headers.text(msg, "Authentication-Results")
    found = _AUTH_FAIL.search(value or "")
    return f"{found[1].lower()}=fail" if found else None


def reply_token(msg: EmailMessage, domain: str) -> str | None:
    """The token of the first r+TOKEN@domain recipient in TOKEN_HEADERS, or None."""
    domain = domain.lower()
    for name in TOKEN_HEADERS:
        for address in headers.addresses(msg, name):
            local, _, at = address.rpartition("@")
            match = _TOKEN_LOCAL_PART.fullmatch(local)
            if match and at.lower() == domain:
                return match[1]
    return None
