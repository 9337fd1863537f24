"""The MIME message of a mail: every body comes back exactly as rendered, whatever its script
and lines, under the lightest valid transfer encoding; headers in RFC 2047 when not ASCII."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.mail import compose
from server.mail.render import Rendered

WHEN = datetime(2026, 11, 22, 9, 30, tzinfo=timezone.utc)


def build(rendered: Rendered, sender_name: str = "Whistlestop", eight_bit: bool = False):
    return compose.build(
        rendered, to="dick@example.org", sender="games@whistlestop.example",
        sender_name=sender_name, msg_id="<wso.1.nixon.t@whistlestop.example>",
        thread="<game.1.nixon.t@whistlestop.example>", reply_to="r+x@whistlestop.example",
        unsubscribe_url="https://whistlestop.example/me/mail/" + "u" * 120,
        unsubscribe_mailto=None, list_id="Whistlestop games <games.whistlestop.example>",
        date=WHEN, eight_bit=eight_bit)


def parsed(message, eight_bit: bool = False):
    """What a reader's mail program sees: the bytes smtplib sends, parsed. Lines of at most
    998 octets; bytes of 7 bits unless the server takes 8-bit MIME."""
    raw = message.as_bytes(policy=message.policy.clone(linesep="\r\n"))
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    assert raw.isascii() or eight_bit
    return email.message_from_bytes(raw, policy=email.policy.default), raw


def bodies(got):
    """Both parts' text, line ends as a reader's mail program gives them (the wire's CRLF of
    a 7bit part is a newline)."""
    return tuple(got.get_body((kind,)).get_content().replace("\r\n", "\n")
                 for kind in ("plain", "html"))


@pytest.mark.parametrize("text, encoding, eight_bit_encoding", [
    ("Your move in game #7.\nPlay a card.\n", "7bit", "7bit"),
    ("Es tu turno: elige una carta, «Nixon» o Kennedy.\n", "quoted-printable", "8bit"),
    ("あなたの番です。カードを一枚選んでください。\n" * 5, "base64", "8bit"),
    ("a line with trailing spaces   \n= sign\n.\n.dot first\nFrom here\n" + "x" * 1200 + "\n",
     "quoted-printable", "quoted-printable"),
    ("ケネディ" * 100 + "\n", "base64", "base64"),  # 1200 octets in one line: too long for 8bit
    ("Windows line ends\r\nand «quotes»\r\n", "quoted-printable", "8bit"),
])
@pytest.mark.parametrize("eight_bit", [False, True])
def test_each_body_comes_back_exactly_under_the_lightest_encoding(text, encoding,
                                                                  eight_bit_encoding, eight_bit):
    message = build(Rendered("Game #7", text, f"<p>{text}</p>"), eight_bit=eight_bit)
    got, _raw = parsed(message, eight_bit)
    text = text.replace("\r\n", "\n")
    assert bodies(got) == (text, f"<p>{text}</p>")
    assert got.get_body(("plain",))["Content-Transfer-Encoding"] == (
        eight_bit_encoding if eight_bit else encoding)
    assert got.get_content_type() == "multipart/alternative"


def test_headers_not_in_ascii_are_encoded_words_and_read_back():
    message = build(Rendered("1960 ゲーム #7 · あなたはニクソン", "x\n", "<p>x</p>"),
                    sender_name="Whistlestop — Señor")
    got, raw = parsed(message)
    assert b"=?utf-8?" in raw
    assert got["Subject"] == "1960 ゲーム #7 · あなたはニクソン"
    assert got["From"].addresses[0].display_name == "Whistlestop — Señor"
    assert got["From"].addresses[0].addr_spec == "games@whistlestop.example"
    # Folded before the long URL (RFC 5322 folding white space), never inside it.
    assert got["List-Unsubscribe"].strip() == "<https://whistlestop.example/me/mail/" + "u" * 120 + ">"
    assert got["Date"].datetime == WHEN


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
               max_size=400), st.booleans())
def test_any_text_comes_back_exactly(text, eight_bit):
    got, _raw = parsed(build(Rendered("s", text, text), eight_bit=eight_bit), eight_bit)
    plain, html = bodies(got)
    # A reader's parser ends a body with a newline; nothing else may change.
    assert plain.rstrip("\n") == text.rstrip("\n") and html.rstrip("\n") == text.rstrip("\n")
