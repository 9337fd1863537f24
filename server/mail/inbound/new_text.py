"""The lines a person wrote in a reply: above the quoted mail (or below it, when nothing stands
above it), without quotes, the signature, the client's footer or the sign-off.

The text is NFKC-normalised first, so that full-width letters, digits and the ideographic space
("ｐｌａｙ　３") read as the notation's ("play 3") and the patterns need one form of each colon.

A reply is read top to bottom and ends at the first of: an attribution line ("On ... wrote:"),
a quoted-mail header or separator (Outlook), a forward marker, a signature delimiter or a client
footer (the patterns: server/mail/inbound/reply_markers.py). Lines quoted with ">" are dropped
wherever they stand. Then a sign-off ("Thanks," and the name under it) is dropped, and a lone
name or initial on the last line is kept apart (``Reading.closing``: it may be an order written
capitalised, which only the game can tell).

When nothing but blank lines stands above the quoted mail (bottom-posting), the text below the
quote is read - only when the quote is marked with ">" (or was an HTML quote): text below an
unmarked quote, such as Outlook's, cannot be told from quoted history that may hold old orders.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from server.mail.inbound import reply_markers as markers

_ATTRIBUTION_STARTS = [(re.compile(start), re.compile(whole))
                       for start, whole in markers.ATTRIBUTIONS]
_WRAPPED_LINES = 3

# No attribution, separator, header or footer is longer; longer lines are text, and the
# patterns' cost stays bounded however long a line a sender makes.
_LONGEST = 400

# Whitespace to strip from each line: str.strip()'s, and the zero-width space and BOM it keeps
# (NFKC has made no-break spaces plain ones).
_INVISIBLE = "\u200b\ufeff"


@dataclass(frozen=True)
class Reading:
    lines: tuple[str, ...]  # the reply's own non-blank lines, stripped
    closing: tuple[str, ...] = ()  # a lone name or initial that ended it (maybe an order)


def new_lines(text: str) -> tuple[str, ...]:
    """The reply's own non-blank lines, stripped, up to the quoted mail, signature or sign-off
    (a lone name at the end is left out: see ``read_new_text``)."""
    return read_new_text(text).lines


def read_new_text(text: str) -> Reading:
    """The reply's own lines, and the lone name or initial closing them, if any."""
    lines = [_strip(line) for line in unicodedata.normalize("NFKC", text).split("\n")]
    kept, end = _scan(lines, 0)
    if not kept and end is not None:
        below = _below_quote(lines, end)
        if below is not None:
            kept, _ = _scan(lines, below)
    kept = _without_sign_off(kept)
    if len(kept) > 1 and len(kept[-1]) <= _LONGEST and markers.LONE_NAME.fullmatch(kept[-1]):
        return Reading(tuple(kept[:-1]), (kept[-1],))
    return Reading(tuple(kept))


def _strip(line: str) -> str:
    return line.strip().strip(_INVISIBLE).strip()


def _is_quoted(line: str) -> bool:
    return line.startswith(">")


def _scan(lines: Sequence[str], start: int) -> tuple[list[str], int | None]:
    """The unquoted non-blank lines from ``start`` to the first end of the new text, and where
    that end is (None: the text's end). An attribution wrapped over several lines ends the text
    at its first line."""
    kept: list[str] = []
    for i in range(start, len(lines)):
        line = lines[i]
        if _is_quoted(line):
            continue
        head = _end_of_new_text(lines, i)
        if head is not None:
            return kept[:len(kept) - (i - head)] if head < i else kept, head
        if line:
            kept.append(line)
    return kept, None


def _end_of_new_text(lines: Sequence[str], i: int) -> int | None:
    """Where the quoted mail, signature or footer that line ``i`` belongs to starts (``i``, or
    an earlier line of a wrapped attribution), or None if line ``i`` is the person's text."""
    line = lines[i]
    if not line or len(line) > _LONGEST:
        return None
    if markers.SIGNATURE.fullmatch(line) or markers.SEPARATOR.fullmatch(line) \
            or _is_header_block(lines, i) or _starts_attribution(lines, i) \
            or _dated_introduction(lines, i):
        return i
    return _verb_attribution(lines, i)


def _starts_attribution(lines: Sequence[str], i: int) -> bool:
    line = lines[i]
    for start, whole in _ATTRIBUTION_STARTS:
        if start.match(line):
            for n in range(1, _WRAPPED_LINES + 1):
                joined = " ".join(lines[i:i + n])
                if len(joined) <= _LONGEST and whole.fullmatch(joined):
                    return True
    return False


def _verb_attribution(lines: Sequence[str], i: int) -> int | None:
    """An attribution known by the verb ending it ("... написал:", "... 写道："): where it
    starts, when it names a date or time (on it or on the one or two unquoted lines it wraps
    from), or when only quoted lines follow it. A person may write "This is what I wrote:"."""
    if not markers.ATTRIBUTION_VERB.fullmatch(lines[i]):
        return None
    head = i
    while not markers.DATED.search(lines[head]) and head > i - (_WRAPPED_LINES - 1) \
            and head > 0 and lines[head - 1] and not _is_quoted(lines[head - 1]) \
            and len(lines[head - 1]) <= _LONGEST:
        head -= 1
    if markers.DATED.search(lines[head]):
        return head
    return i if _only_quotes_follow(lines, i) else None


def _dated_introduction(lines: Sequence[str], i: int) -> bool:
    """A line with a date or time ending in ":" right above quoted lines: an attribution in a
    form the table does not know."""
    return lines[i].endswith(":") and _quote_follows(lines, i) \
        and markers.DATED.search(lines[i]) is not None


def _quote_follows(lines: Sequence[str], i: int) -> bool:
    i += 1
    while i < len(lines) and not lines[i]:
        i += 1
    return i < len(lines) and _is_quoted(lines[i])


def _is_attribution_at(lines: Sequence[str], i: int) -> bool:
    """Whether an attribution starts at line ``i`` (one known by its verb may end a line or two
    below, when it is wrapped)."""
    return _starts_attribution(lines, i) or _dated_introduction(lines, i) or any(
        _verb_attribution(lines, j) == i for j in range(i, min(i + _WRAPPED_LINES, len(lines)))
        if len(lines[j]) <= _LONGEST)


def _only_quotes_follow(lines: Sequence[str], i: int) -> bool:
    i += 1
    while i < len(lines) and not lines[i]:
        i += 1
    return i == len(lines) or _is_quoted(lines[i])


def _is_header_block(lines: Sequence[str], i: int) -> bool:
    if not (markers.HEADER_FROM.match(lines[i]) or markers.HEADER_NEXT.match(lines[i])):
        return False
    return any(markers.HEADER_NEXT.match(line) or markers.HEADER_FROM.match(line)
               for line in lines[i + 1:i + markers.HEADER_LINES])


def _below_quote(lines: Sequence[str], end: int) -> int | None:
    """Where a reply written below the quote starts, when the text starts with the quote (an
    attribution, or quoted lines, at ``end``): the first unquoted line after the quote's ">"
    lines. None when the quote is not marked with ">" (Outlook's header block and separator, a
    signature) or nothing stands below it."""
    i = end
    if not _is_quoted(lines[i]):
        if not _is_attribution_at(lines, i):
            return None
        i += 1
        while i < len(lines) and not _is_quoted(lines[i]):  # the attribution's wrapped lines
            if not lines[i] or i - end >= _WRAPPED_LINES:
                break
            i += 1
        while i < len(lines) and not lines[i]:
            i += 1
        if i == len(lines) or not _is_quoted(lines[i]):
            return None  # history not marked with ">": never read as the reply
    while i < len(lines) and (_is_quoted(lines[i]) or not lines[i]):
        i += 1
    return i if i < len(lines) else None


def _without_sign_off(kept: list[str]) -> list[str]:
    """The lines without a sign-off closing them: a closing word's line, with no more than a
    few short lines under it that are no order (see ``_signature_line``)."""
    first = max(0, len(kept) - markers.SIGN_OFF_TAIL_LINES - 1)
    for k in range(first, len(kept)):
        line = kept[k]
        if len(line) <= _LONGEST and markers.SIGN_OFF.fullmatch(line) \
                and all(map(_signature_line, kept[k + 1:])):
            return kept[:k]
    return kept


def _signature_line(line: str) -> bool:
    """Whether a line under a sign-off may be part of the signature: short, and not starting
    with a lowercase letter (the notation's words are lowercase) unless it is an address."""
    return len(line) <= markers.SIGN_OFF_TAIL_LENGTH and (
        not line[:1].islower() or markers.SIGNATURE_ADDRESS.search(line) is not None)
