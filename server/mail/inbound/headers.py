"""Header values of untrusted mail: decoded text and addresses, never an exception."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import collapse_rfc2231_value, getaddresses

_MSG_ID = re.compile(r"<[^<>\s]+>")

# Header values are cut to this length before they are read. Real ones are far shorter;
# Received, DKIM-Signature and ARC-* are long but never read.
MAX_HEADER = 8 * 1024
# Parameters of a Content-* header read at most; real ones have a handful.
_MAX_PARAMS = 16
_FOLD = re.compile(r"\r?\n(?=[ \t])")


class _Policy(EmailPolicy):
    """policy.default, but with every header but Subject fetched as its unfolded text.

    The stdlib's structured header parsers take quadratic time on hostile values (3.11: 10 KB
    of '"' in From costs a second, 200 KB eight minutes) and its unstructured one ~5 µs a
    character on every access, so a crafted mail of many MIME parts could cost minutes.
    Addresses are read with email.utils.getaddresses instead, parameters with
    Message.get_param (string-based; quadratic in the number of parameters, hence the cut).
    """

    def header_fetch_parse(self, name, value):
        if hasattr(value, "name"):  # a header object already
            return value
        value = value[:MAX_HEADER]
        if name.lower() == "subject":
            return super().header_fetch_parse(name, value)  # RFC 2047 decoded
        if name.lower().startswith("content-"):
            value = ";".join(value.split(";", _MAX_PARAMS)[:_MAX_PARAMS])
        if not value.isascii():  # bytes that are not ASCII come as surrogates: UTF-8 (RFC 6532)
            value = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return _FOLD.sub("", value)


POLICY = _Policy()


def texts(msg: EmailMessage, name: str) -> list[str]:
    """Every value of the header, unfolded and stripped; [] when absent or unparsable."""
    try:
        return [str(value).strip() for value in msg.get_all(name) or ()]
    except Exception:  # Subject's RFC 2047 decoder is not known to be safe on hostile input
        return []


def text(msg: EmailMessage, name: str) -> str:
    """The first value of the header, or ''."""
    values = texts(msg, name)
    return values[0] if values else ""


def addresses(msg: EmailMessage, name: str) -> list[str]:
    """The addr-specs in every value of the header, in order."""
    try:
        pairs = getaddresses(texts(msg, name))
    except Exception:  # nor is the address parser: read the header as empty
        return []
    return [addr for _, addr in pairs if "@" in addr]


def message_ids(msg: EmailMessage, name: str) -> tuple[str, ...]:
    """The <msg-id>s of Message-ID, In-Reply-To or References (RFC 5322 §3.6.4), in order."""
    return tuple(_MSG_ID.findall(" ".join(texts(msg, name))))


def content_type(msg: EmailMessage) -> str:
    """The part's media type, lower case ("text/plain" when absent or unparsable, RFC 2045 §5.2)."""
    return msg.get_content_type()


def param(msg: EmailMessage, name: str) -> str:
    """A Content-Type parameter's value (RFC 2231 decoded), or ''."""
    try:
        return collapse_rfc2231_value(msg.get_param(name, "") or "")
    except Exception:  # an RFC 2231 value in a malformed charset ("utf-8\\0") raises ValueError
        return ""


def disposition(msg: EmailMessage) -> str:
    """The part's Content-Disposition type, lower case ("inline", "attachment"), or ''."""
    return first_word(text(msg, "Content-Disposition"))


def first_word(value: str) -> str:
    """The value's first word before any ";" parameters, lower case (Auto-Submitted, Precedence)."""
    words = value.replace(";", " ").split()
    return words[0].lower() if words else ""
