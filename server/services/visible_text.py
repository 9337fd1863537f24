"""The one check of every text a player writes (issue 45, L8): chat lines (the page, the API
and replies by mail), private notes, a report's reason, display names, the operator's note.

Refused: characters a reader does not see that change what the text around them says or
hide what it holds: controls (Cc; tab and line ends allowed in a text of several lines),
format characters (Cf: the bidirectional embeddings, overrides and isolates U+202A-U+202E and
U+2066-U+2069, the direction marks, zero-width spaces, the byte-order mark, tag characters),
line and paragraph separators (Zl, Zp) and lone surrogates (Cs, which no database stores).
Kept where a text may have them: the zero-width joiner and non-joiner (U+200D, U+200C), which
only shape what is drawn (an emoji family, a Persian or Indic word) and move nothing.
"""

from __future__ import annotations

import unicodedata

JOINERS = frozenset("\u200c\u200d")
LINE_CONTROLS = frozenset("\n\r\t")


def hidden(text: str, *, lines: bool = True, joiners: bool = True) -> str | None:
    """The first character of ``text`` a reader would not see, as "U+202E"; None when every
    character shows. ``lines``: tab and line ends are allowed (a text of several lines);
    ``joiners``: the zero-width joiner and non-joiner are allowed."""
    for c in text:
        kind = unicodedata.category(c)
        if kind in ("Cf", "Cc", "Cs", "Zl", "Zp"):
            if lines and c in LINE_CONTROLS:
                continue
            if joiners and c in JOINERS:
                continue
            return f"U+{ord(c):04X}"
    return None
