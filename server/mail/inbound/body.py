"""The text of a mail's body: its text/plain part, else its text/html one made text."""

from __future__ import annotations

import codecs
from email.message import EmailMessage

from server.mail.inbound import headers
from server.mail.inbound.html_text import html_to_text

# Only so much of a body is read, so that a huge mail cannot cost much: 64 KiB of text, and
# four times that of HTML, whose markup (Outlook's <style> head alone) comes before the text.
MAX_TEXT = 64 * 1024
MAX_HTML = 4 * MAX_TEXT
_MAX_BYTES = 4 * MAX_HTML  # enough bytes for MAX_HTML characters in any charset

# Python codecs that are no charset of mail, and slow or odd on hostile input (the punycode
# decoder takes quadratic time).
_NOT_CHARSETS = frozenset({"punycode", "idna", "unicode-escape", "raw-unicode-escape", "undefined"})


class Unreadable(ValueError):
    """The mail has no text we can read; the message says why."""


def body_text(msg: EmailMessage) -> str:
    """The body as plain text (at most MAX_TEXT characters); raises Unreadable."""
    part = _body_part(msg)
    if part is None:
        if msg.defects:
            names = ", ".join(sorted({type(d).__name__ for d in msg.defects}))
            raise Unreadable(f"no text part found; the MIME structure is broken ({names})")
        raise Unreadable("no text part found (only attachments, or an empty message)")
    text = _decode(part)
    if headers.content_type(part) == "text/html":
        text = html_to_text(text[:MAX_HTML])
    text = text[:MAX_TEXT].replace("\r\n", "\n").replace("\r", "\n")
    if headers.param(part, "format").lower() == "flowed":
        text = unflow(text, delsp=headers.param(part, "delsp").lower() == "yes")
    return text


def _body_part(msg: EmailMessage) -> EmailMessage | None:
    """The first text/plain part, else the first text/html one, depth first.

    Attachments and attached messages (message/rfc822: a DSN's returned original, a mail
    forwarded as attachment) are not looked into, so their text is never read as the reply's.
    """
    html = None
    parts = [msg]
    while parts:
        part = parts.pop()
        if headers.disposition(part) == "attachment":
            continue
        content_type = headers.content_type(part)
        if content_type.startswith("multipart/") and part.is_multipart():
            parts.extend(reversed(part.get_payload()))
        elif content_type == "text/plain":
            return part
        elif content_type == "text/html" and html is None:
            html = part
    return html


def _decode(part: EmailMessage) -> str:
    charset = headers.param(part, "charset").lower() or "us-ascii"  # RFC 2045 §5.2
    try:
        payload = (part.get_payload(decode=True) or b"")[:_MAX_BYTES]
    except Exception:  # the transfer decoders are not known to be safe on hostile input
        raise Unreadable("the body's transfer encoding could not be decoded") from None
    if charset in ("us-ascii", "ascii"):
        charset = "utf-8"  # a superset; many mail programs send UTF-8 and declare nothing
    codec = _codec(charset)
    if codec:
        try:
            return payload.decode(codec, errors="replace")
        except LookupError:  # a codec, but not of text (base64, rot13)
            pass
    try:
        return payload.decode("utf-8")  # an unknown label on UTF-8 (or ASCII) text
    except UnicodeDecodeError:
        raise Unreadable(f"the body is in an unknown character set {charset!r}") from None


def _codec(charset: str) -> str | None:
    try:
        name = codecs.lookup(charset).name
    except (LookupError, ValueError):  # unknown, or a malformed name ("utf-8\0")
        return None
    return None if name in _NOT_CHARSETS else name


def unflow(text: str, delsp: bool) -> str:
    """The text with RFC 3676 format=flowed soft line breaks joined (§4.2), quotes kept."""
    out: list[str] = []
    paragraph: list[str] = []
    depth = 0
    for raw in text.split("\n"):
        quotes = len(raw) - len(raw.lstrip(">"))
        line = raw[quotes:]
        if line.startswith(" "):  # §4.4 space-stuffing
            line = line[1:]
        if paragraph and quotes != depth:  # §4.5: a quote depth change ends a paragraph
            out.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
        depth = quotes
        flowed = line.endswith(" ") and line != "-- "  # §4.3: the signature line is fixed
        paragraph.append(line[:-1] if flowed and delsp else line)
        if not flowed:
            out.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
    if paragraph:
        out.append(_quoted(depth, "".join(paragraph)))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return ">" * depth + " " * bool(depth) + line
