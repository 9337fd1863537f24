"""Real reply mails from other projects' fixture collections (corpus/, sources in
corpus/index.json and corpus/SOURCES.md), made into replies to a game of ours.

``reply_from(entry, ...)`` keeps the original mail byte for byte - its client's attribution,
quote style, footer, sign-off, charset and transfer encoding - but for two things:

- the person's own text (the index's ``written``: what the original says above the quote, or
  below it when bottom-posted) becomes an order of our game, encoded as the part was;
- the addressing: From (the seat's player), To (the seat's reply address), Message-ID,
  In-Reply-To and References (our decision mail). The headers of the original's delivery and
  of the list it went through (Received, Authentication-Results, DKIM, Precedence, List-*,
  Delivered-To, Return-Path) go too: the mail is replayed as its client sent it.

Fixtures that are a body only (.txt, .html) are put in a mail whose type, charset and transfer
encoding the index's ``wrap`` names (what the client in question sends).
"""

from __future__ import annotations

import base64
import html
import json
import quopri
import re
from email import message_from_bytes
from email.policy import compat32
from pathlib import Path

CORPUS = Path(__file__).with_name("corpus")

# Headers replaced by the addressing, or added by the original's delivery or list.
_DROPPED = re.compile(
    rb"(from|to|cc|bcc|message-id|in-reply-to|references|reply-to|sender|delivered-to"
    rb"|return-path|x-original-to|envelope-to|received|authentication-results|arc-[a-z-]+"
    rb"|dkim-signature|x-google-dkim-signature|domainkey-signature|precedence|list-[a-z-]+"
    rb"|x-mailing-list|auto-submitted|x-autoreply|x-auto-response-suppress|mailing-list)$",
    re.I)


def entries() -> list[dict]:
    """The corpus index: one entry per mail."""
    return json.loads((CORPUS / "index.json").read_text("utf-8"))["mails"]


def fullwidth(text: str) -> str:
    """The text in full-width forms (ASCII letters and digits, the ideographic space)."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c
                   for c in text)


def order_text(entry: dict, order: str) -> str:
    """What the person writes for ``order`` in this mail."""
    if entry.get("order") == "keep":
        return entry["written"]
    return fullwidth(order) if entry.get("order") == "fullwidth" else order


def reply_from(entry: dict, order: str, *, sender: str, to: str, message_id: str,
               in_reply_to: str, references: str = "", subject: str | None = None) -> bytes:
    """The corpus mail made a reply of ``sender`` to ``to`` ordering ``order``."""
    raw = (CORPUS / entry["file"]).read_bytes()
    text = order_text(entry, order)
    if entry.get("wrap"):
        raw = _wrapped(raw, entry, text, subject)
    else:
        raw = _substituted(raw, entry["written"], text)
    nl = b"\r\n" if b"\r\n" in raw[:raw.find(b"\n") + 1] else b"\n"
    head, sep, body = _split(raw)
    fields = [f for f in _fields(head) if not _DROPPED.match(_name(f))]
    ours = [f"From: {sender}", f"To: {to}", f"Message-ID: {message_id}",
            f"In-Reply-To: {in_reply_to}",
            f"References: {(references + ' ' + in_reply_to).strip()}"]
    return nl.join([line.encode() for line in ours] + fields) + sep + body


def _split(raw: bytes) -> tuple[bytes, bytes, bytes]:
    match = re.search(rb"\r?\n\r?\n", raw)
    if not match:
        return raw, b"\n\n", b""
    return raw[:match.start()], match.group(), raw[match.end():]


def _fields(head: bytes) -> list[bytes]:
    """The header fields, each with its continuation lines; an mbox "From " line is left out."""
    fields: list[bytes] = []
    for line in re.split(rb"\r?\n", head):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += (b"\r\n" if b"\r\n" in head else b"\n") + line
        elif line.startswith(b"From ") or not line.strip():
            continue
        else:
            fields.append(line)
    return fields


def _name(field: bytes) -> bytes:
    return field.split(b":", 1)[0].strip()


def _wrapped(raw: bytes, entry: dict, text: str, subject: str | None) -> bytes:
    """A body-only fixture in a mail as the index's ``wrap`` says its client sends it."""
    wrap = entry["wrap"]
    body = raw.decode(wrap.get("source_charset", "utf-8"))
    if wrap.get("source_cte") == "quoted-printable":  # a fixture kept as its encoded body
        encoded = _substitute_encoded(raw, entry["written"], text, "quoted-printable", "utf-8")
    else:
        written = entry["written"]
        if wrap["subtype"] == "html":
            text = html.escape(text)
        assert written in body, (entry["file"], written)
        body = body.replace(written, text, 1)
        encoded = _encode(body.encode(wrap["charset"]), wrap["cte"])
    headers = [f"Subject: {subject or 'Re: your move'}", "MIME-Version: 1.0",
               f"Content-Type: text/{wrap['subtype']}; charset={wrap['charset']}"
               + ("; format=flowed" if wrap.get("flowed") else ""),
               f"Content-Transfer-Encoding: {wrap['cte']}"]
    return "\n".join(headers).encode() + b"\n\n" + encoded


def _encode(data: bytes, cte: str) -> bytes:
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    return data


def _substituted(raw: bytes, written: str, text: str) -> bytes:
    """The mail with ``written`` made ``text`` in each of its text parts that holds it, each
    part encoded as before; the person's text must be in the first text part."""
    msg = message_from_bytes(raw, policy=compat32)
    done = 0
    for part in msg.walk():
        if part.get_content_maintype() != "text" or part.is_multipart():
            continue
        payload = part.get_payload()
        encoded = payload.encode("ascii", "surrogateescape")
        charset = part.get_content_charset() or "us-ascii"
        charset = "utf-8" if charset in ("us-ascii", "ascii") else charset
        cte = (part.get("Content-Transfer-Encoding") or "7bit").strip().lower()
        new_text = html.escape(text) if part.get_content_subtype() == "html" else text
        new = _substitute_encoded(encoded, written, new_text, cte, charset)
        if new is None:
            assert done, f"the person's text {written!r} is not in the first text part"
            continue
        assert raw.count(encoded) == 1
        raw = raw.replace(encoded, new)
        done += 1
    return raw


def _substitute_encoded(encoded: bytes, written: str, text: str, cte: str, charset: str
                        ) -> bytes | None:
    """A part's encoded body with ``written`` made ``text``: in place when the encoded body
    holds it as it is (7bit, 8bit, quoted-printable of plain words), else decoded, substituted
    and encoded again; None when the part does not hold it."""
    if cte in ("7bit", "8bit", "binary") or cte == "quoted-printable" and written.isascii() \
            and "=" not in written:
        old = written.encode(charset)
        new = text.encode(charset)
        if cte == "quoted-printable":
            new = quopri.encodestring(new).rstrip(b"\n").replace(b"=\n", b"")
        if cte == "quoted-printable" and b"\r\n" in encoded:
            old, new = old.replace(b"\n", b"\r\n"), new.replace(b"\n", b"\r\n")
        elif b"\r\n" in encoded:
            old, new = old.replace(b"\n", b"\r\n"), new.replace(b"\n", b"\r\n")
        if old in encoded:
            return encoded.replace(old, new, 1)
        if cte != "quoted-printable":
            return None
    decoded = (base64.decodebytes(encoded) if cte == "base64"
               else quopri.decodestring(encoded.replace(b"\r\n", b"\n")))
    body = decoded.decode(charset)
    crlf = "\r\n" in body
    plain = body.replace("\r\n", "\n")
    if written not in plain:
        return None
    plain = plain.replace(written, text, 1)
    data = (plain.replace("\n", "\r\n") if crlf else plain).encode(charset)
    out = _encode(data, cte)
    return out.replace(b"\n", b"\r\n") if b"\r\n" in encoded else out
