"""Build the MIME message of a rendered mail: threading, identity and list headers.

- **Message-ID** is derived from the outbox row and the recipient's seat, so a mail sent again
  after a crash carries the same id and mail systems recognize it as the same message.
- **One thread per game and player**: every mail about a game to one seat names the same thread
  root in In-Reply-To and References and has the same subject; the answer to an order by
  reply names the player's own mail instead in In-Reply-To (and after the root in References),
  so that mail programs show it under that reply.
- **Auto-Submitted: auto-generated** (RFC 3834), so well-behaved autoresponders do not answer,
  and X-Auto-Response-Suppress for Exchange; **List-Unsubscribe** (RFC 2369) with one-click
  (RFC 8058) leads to the notification preferences.

The message is built with the standard library's ``email.mime`` classes under the compat32
policy. A body goes as it is when the SMTP server takes 8-bit MIME (RFC 6152; ``eight_bit``,
told by the session) and no line is longer than 998 octets, or as 7bit when it is ASCII with
such lines; else encoded by the C codecs of ``binascii``, whichever of quoted-printable and
base64 is shorter, as the modern policy's content manager chooses. An 8-bit body is a third
shorter than base64 for Japanese, and a few long lines rather than hundreds of short ones:
the SMTP server reads a message line by line. The modern ``EmailMessage`` API parses every
header into objects and encodes in pure Python: ten times the cost (bench/mail_throughput.py),
for headers that are ours and known good.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from email.header import Header
from email.message import Message
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.policy import Compat32
from email.utils import format_datetime, formataddr

from server.mail.render import Rendered

MAX_LINE = 998  # octets in a line of a 7bit body (RFC 5322 2.1.1)
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # a msg-id's printable ASCII, but "<" and ">"


class _Policy(Compat32):
    """compat32, but a header that is ASCII and fits in one line of 78 is written as it is:
    compat32 folds every header through an ``email.header.Header``, which was two thirds of
    the time to serialize a mail. Longer or encoded headers are folded as compat32 does."""

    def fold(self, name, value):
        return self._one_line(name, value) or super().fold(name, value)

    def fold_binary(self, name, value):
        line = self._one_line(name, value)
        return line.encode("ascii") if line else super().fold_binary(name, value)

    def _one_line(self, name, value) -> str | None:
        if isinstance(value, str) and value.isascii() and "\n" not in value and \
                "\r" not in value and len(name) + 2 + len(value) <= 78:
            return f"{name}: {value}{self.linesep}"
        return None


POLICY = _Policy()


def install_tag(secret_key: str) -> str:
    """A short tag of this installation, so two servers' ids never collide (not a secret)."""
    return hashlib.sha256(("message-id:" + secret_key).encode()).hexdigest()[:10]


def message_id(outbox_id: int, recipient: str, domain: str, tag: str) -> str:
    return f"<wso.{outbox_id}.{recipient}.{tag}@{domain}>"


def thread_id(game_id: int, seat: str, domain: str, tag: str) -> str:
    return f"<game.{game_id}.{seat}.{tag}@{domain}>"


def build(rendered: Rendered, *, to: str, sender: str, sender_name: str, msg_id: str,
          thread: str | None, reply_to: str | None, unsubscribe_url: str | None,
          unsubscribe_mailto: str | None, list_id: str, date, eight_bit: bool = False,
          answers: str | None = None) -> Message:
    """``thread``: the root of the game's thread for the seat; ``answers``: the Message-ID of the
    player's own mail this one answers (an order by reply), which it threads under."""
    msg = MIMEMultipart("alternative", policy=POLICY)
    msg["Subject"] = _header(rendered.subject)
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = to
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = msg_id
    if answers and not _MESSAGE_ID.fullmatch(answers):
        answers = None  # read from a sender's header: only a well-formed, short id is echoed
    if thread or answers:
        msg["In-Reply-To"] = answers or thread
        msg["References"] = " ".join(filter(None, (thread, answers)))
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
    msg.attach(text_part(rendered.text, "plain", eight_bit))
    msg.attach(text_part(rendered.html, "html", eight_bit))
    return msg


def _header(value: str) -> str | Header:
    """A header value as it is, when ASCII; else RFC 2047 encoded words."""
    return value if value.isascii() else Header(value, "utf-8")


def text_part(body: str, subtype: str, eight_bit: bool = False) -> MIMENonMultipart:
    """A text/<subtype> part in UTF-8 with the lightest transfer encoding that is valid (8bit
    only if ``eight_bit``: the server takes it)."""
    part = MIMENonMultipart("text", subtype, policy=POLICY, charset="utf-8")
    raw = body.replace("\r\n", "\n").encode("utf-8")
    short = b"\r" not in raw and max(map(len, raw.split(b"\n"))) <= MAX_LINE
    if short and body.isascii():
        encoding, payload = "7bit", body.replace("\r\n", "\n")
    elif short and eight_bit:
        # As the parser keeps 8-bit bytes: the generator writes them back as they are.
        encoding, payload = "8bit", raw.decode("ascii", "surrogateescape")
    else:
        qp = binascii.b2a_qp(raw, istext=True)
        b64 = -(-len(raw) // 3) * 4 + -(-len(raw) // 57)  # base64 in lines of 76, with newlines
        if len(qp) <= b64:
            encoding, payload = "quoted-printable", qp.decode("ascii")
        else:
            encoding, payload = "base64", _base64_lines(raw)
    part["Content-Transfer-Encoding"] = encoding
    part.set_payload(payload)
    return part


def _base64_lines(raw: bytes) -> str:
    return "".join(binascii.b2a_base64(raw[i:i + 57]).decode("ascii")
                   for i in range(0, len(raw), 57))
