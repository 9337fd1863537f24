"""Header values of untrusted mail: decoded text and addresses, never an exception."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import collapse_rfc2231_value, getaddresses

_MSG_ID = re.compile(r"<[^<>\s]+>")


def texts(msg: EmailMessage, name: str) -> list[str]:
    """Every value of the header, decoded (RFC 2047) and stripped; [] when absent or unparsable."""
    try:
        return [str(value).strip() for value in msg.get_all(name) or ()]
    except Exception:  # the stdlib header parser has raised on hostile input
        return []


def text(msg: EmailMessage, name: str) -> str:
    """The first value of the header, or ''."""
    values = texts(msg, name)
    return values[0] if values else ""


def addresses(msg: EmailMessage, name: str) -> list[str]:
    """The addr-specs in every value of the header, in order."""
    try:
        pairs = getaddresses(texts(msg, name))
    except Exception:  # as above, for the address parser
        return []
    return [addr for _, addr in pairs if "@" in addr]


def message_ids(msg: EmailMessage, name: str) -> tuple[str, ...]:
    """The <msg-id>s of Message-ID, In-Reply-To or References (RFC 5322 §3.6.4), in order."""
    return tuple(_MSG_ID.findall(" ".join(texts(msg, name))))


def content_type(msg: EmailMessage) -> str:
    """The part's media type, lower case ("text/plain" when absent or unparsable, RFC 2045 §5.2)."""
    try:
        return msg.get_content_type()
    except Exception:  # as above
        return "text/plain"


def param(msg: EmailMessage, name: str) -> str:
    """A Content-Type parameter's value (RFC 2231 decoded), or ''."""
    try:
        return collapse_rfc2231_value(msg.get_param(name, "") or "")
    except Exception:  # as above
        return ""
