"""The lines a person wrote in a reply: above the quoted mail and the signature, not quoted.

A reply is read top to bottom and ends at the first of: an attribution line ("On ... wrote:"),
a quoted-mail header or separator (Outlook), a forward marker, a signature delimiter or a
mobile footer. Lines quoted with ">" are dropped wherever they stand. Deliberately, text below
the attribution (bottom-posting, inline answers) is not read: it cannot be told from quoted
history that is not marked with ">", such as Outlook's, which may hold earlier orders.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Attribution lines that open the quoted mail: (how the first line starts, the whole line).
# Gmail wraps a long one over two or three lines, so the whole is matched on up to three lines
# joined when the first line starts like one. Patterns after quotequail's REPLY_PATTERNS and
# mail-parser-reply's per-language "wrote_header" (both MIT).
_ATTRIBUTIONS = [
    (r"On\s", r"On\s.+\swrote:"),  # Gmail, Apple Mail, Thunderbird, Yahoo, Outlook mobile
    (r"El\s", r"El\s.+\sescribió:"),  # Spanish Gmail and Apple Mail
    (r"\d{4}年", r"\d{4}年\d{1,2}月\d{1,2}日[^:：]*\d{1,2}:\d{2}.*[:：]"),  # Japanese Gmail
    (r"\d{4}/\d{1,2}/\d{1,2}", r"\d{4}/\d{1,2}/\d{1,2}.*のメール[:：]"),  # Japanese Apple Mail
    (r"Am\s", r"Am\s.+\sschrieb\s.*:"),  # German
    (r"Le\s", r"Le\s.+\sa\sécrit\s?:"),  # French
    (r"Em\s", r"Em\s.+\sescreveu:"),  # Portuguese
]
_ATTRIBUTION_STARTS = [(re.compile(start), re.compile(whole)) for start, whole in _ATTRIBUTIONS]
_WRAPPED_LINES = 3

# No attribution, separator, header or footer is longer; longer lines are text, and the
# patterns' cost stays linear however long a line a sender makes.
_LONGEST = 400

# One-line attributions that name no date: Thunderbird in Japanese ("2026/11/03 10:00 に
# Whistlestop さんは書きました:"), and its older English "Whistlestop wrote:". The bare
# "... wrote:" counts only when quoted lines (or nothing) follow, since a person may write it.
_NAMED_ATTRIBUTION = re.compile(r".+さんは書きました\s?[:：]")
_BARE_ATTRIBUTION = re.compile(r".+\swrote:")

# Separators before quoted or forwarded mail: Outlook's "-----Original Message-----" (and its
# Spanish, German and Japanese forms) and 32 underscores, Gmail's "---------- Forwarded message
# ---------", Apple Mail's "Begin forwarded message:" (after quotequail's FORWARD_PATTERNS).
_SEPARATOR = re.compile(
    r"-{2,}\s*(Original Message|Mensaje original|Ursprüngliche Nachricht|元のメッセージ"
    r"|Forwarded message|Mensaje reenviado)\s*-{2,}"
    r"|_{20,}"
    r"|(Begin forwarded message|Inicio del mensaje reenviado):", re.I)

# Outlook's plain header block of the quoted mail ("From: ...", then "Sent: ..."), also with
# Gmail's "*From:*" bold and in Spanish, German and Japanese Outlook. Two lines are required
# so that an order starting "From" is not taken for one (mail-parser-reply: "from_header").
_HEADER_FROM = re.compile(r"\*?(From|De|Von|差出人)\*?\s?[:：]")
_HEADER_DATE = re.compile(r"\*?(Sent|Date|Enviado|Fecha|Gesendet|Datum|送信日時|日付)\*?\s?[:：]")
_HEADER_LINES = 4

# Signatures: RFC 3676 §4.3 "-- " (and "--" once mail software has trimmed the space), and
# mobile footers: Apple Mail on iOS in English, Spanish, Japanese, German and French, Outlook
# mobile, Gmail, Yahoo and Samsung apps.
_SIGNATURE = re.compile(
    r"--"
    r"|Sent from my .{1,40}|Sent from (Outlook|Mail|Gmail|Yahoo Mail|Proton Mail)\b.{0,40}"
    r"|Sent (from|via) (the )?Samsung .{1,40}|Get Outlook for (iOS|Android)"
    r"|Enviado desde mi .{1,40}|Enviado desde (Outlook|Gmail|Yahoo Mail)\b.{0,40}"
    r"|.{1,30}から送信|Von meinem .{1,30} gesendet|Envoyé de mon .{1,30}")

# Whitespace to strip from each line: str.strip()'s, and the zero-width space and BOM it keeps;
# no-break spaces (&nbsp; in HTML mail, U+202F in French) become plain ones.
_INVISIBLE = "\u200b\ufeff"
_NO_BREAK_SPACES = str.maketrans("\u00a0\u202f\u2007", "   ")


def new_lines(text: str) -> tuple[str, ...]:
    """The reply's own non-blank lines, stripped, up to the quoted mail or signature."""
    lines = [_strip(line) for line in text.split("\n")]
    kept = []
    for i, line in enumerate(lines):
        if _is_quoted(line):
            continue
        if _ends_new_text(lines, i):
            break
        if line:
            kept.append(line)
    return tuple(kept)


def _strip(line: str) -> str:
    return line.translate(_NO_BREAK_SPACES).strip().strip(_INVISIBLE).strip()


def _is_quoted(line: str) -> bool:
    return line.startswith(">")


def _ends_new_text(lines: Sequence[str], i: int) -> bool:
    line = lines[i]
    if not line or len(line) > _LONGEST:
        return False
    return bool(_SIGNATURE.fullmatch(line) or _SEPARATOR.fullmatch(line)
                or _is_attribution(lines, i) or _is_header_block(lines, i))


def _is_attribution(lines: Sequence[str], i: int) -> bool:
    line = lines[i]
    if _NAMED_ATTRIBUTION.fullmatch(line):
        return True
    if _BARE_ATTRIBUTION.fullmatch(line) and _only_quotes_follow(lines, i):
        return True
    for start, whole in _ATTRIBUTION_STARTS:
        if start.match(line):
            for n in range(1, _WRAPPED_LINES + 1):
                joined = " ".join(lines[i:i + n])
                if len(joined) <= _LONGEST and whole.fullmatch(joined):
                    return True
    return False


def _only_quotes_follow(lines: Sequence[str], i: int) -> bool:
    i += 1
    while i < len(lines) and not lines[i]:
        i += 1
    return i == len(lines) or _is_quoted(lines[i])


def _is_header_block(lines: Sequence[str], i: int) -> bool:
    if not _HEADER_FROM.match(lines[i]):
        return False
    return any(_HEADER_DATE.match(line) for line in lines[i + 1:i + _HEADER_LINES])
