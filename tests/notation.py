"""Raw action notation in a text a player reads (issue 47, item 5: words, not notation).

``raw_notation(text, game_type)`` lists the pieces of ``text`` that are a game's orders as the
engine writes them (engine/games/<g>/NOTATION.md): a verb followed by the ids and codes it takes
("play 63 advertise", "campaign NY 2", "media east", "strategy 72", "position economy"), a bare
verb quoted as a command ("'done'", "「done」"), a mode of play in parentheses ("(campaign)",
"（advertise）"), a bare verb after a colon ("Your choice from the mail: trigger") or leading a
line before one ("- pass: your standing order ..."), and the
server's step counter ("step 36", "ステップ 36", "paso 36"). The caller leaves out what may show
notation: the notation help and a mail's reply instructions.

A prose word that happens to be a verb ("take 2 cards", "Nixon plays ...") is not notation: the
verbs are matched in the engine's lower case, as whole words, and an order ending in a number is
not one when a word goes on after it.
"""

from __future__ import annotations

import re

STATE = r"[A-Z]{2}"
ISSUE = r"(?:defense|economy|civil_rights)"
REGION = r"(?:west|midwest|south|east)"
SEAT_1960 = r"(?:kennedy|nixon)"
MODE = r"(?:event|campaign|advertise|position)"
# An order that ends in a number is prose when a word follows it ("resolve 1960 Civil Rights
# Act", "take 2 cards"), and no shorter piece of a longer order counts.
END = r"(?![ \t]+[A-Za-z0-9])(?![\w-])"

VERBS_1960 = [
    rf"\bstart {SEAT_1960}\b",
    rf"\bplay (?:\d+|candidate) {MODE}(?: preempt)?\b",
    rf"\bvp \d+{END}",
    rf"\bcampaign {STATE} \d+{END}",
    rf"\btravel {STATE}\b",
    rf"\bmedia {REGION}\b",
    rf"\bposition {ISSUE}\b",
    rf"\bsupport {STATE} \d+{END}",
    rf"\bremove (?:{STATE}|{ISSUE}|{REGION})\b",
    rf"\bchoose (?:yes|no|none|accept|redraw|{STATE}|\d+|{REGION}|{ISSUE}|{SEAT_1960}|{MODE})"
    rf"{END}",
    rf"\border {ISSUE} {ISSUE} {ISSUE}\b",
    rf"\bdiscard \d+(?: \d+)*{END}",
    rf"\btake \d+{END}",
    rf"\bswap {ISSUE} {ISSUE}\b",
    rf"\bendorse {REGION}\b",
    rf"\bstrategy \d+(?: \d+)?{END}",
    rf"\bdebate \d+{END}",
    rf"\bside {SEAT_1960}\b",
    rf"\bfirst {SEAT_1960}\b",
    rf"\bresolve \d+{END}",
    rf"\brecount {STATE}\b",
    rf"\bdraw {SEAT_1960}\b",
    rf"\bdeal {SEAT_1960} \d+\b",
    rf"[(（]{MODE}[)）]",
]
BARE_1960 = r"(?:done|pass|trigger|momentum|endorsement|preempt)"

VERBS_MRPRESIDENT = [
    rf"\bplay \d+(?: \d+)?{END}",
    rf"\b(?:second|upset|stop) (?:\d+|none){END}",
    rf"\bturn {STATE}\b",
    r"\blot p\d(?: p\d)*\b",
    r"\bparties p\d(?: p\d)*\b",
]
BARE_MRPRESIDENT = r"(?:none)"

STEP = [r"\b[Ss]tep \d+", r"ステップ\s*\d+", r"\b[Pp]aso \d+"]

QUOTES = [("'", "'"), ('"', '"'), ("‘", "’"), ("“", "”"), ("「", "」"), ("«", "»"), ("`", "`")]


def _patterns(game_type: str) -> list[re.Pattern]:
    verbs, bare = ((VERBS_MRPRESIDENT, BARE_MRPRESIDENT) if game_type == "mrpresident"
                   else (VERBS_1960, BARE_1960))
    quoted = [rf"{re.escape(a)}{bare}{re.escape(b)}" for a, b in QUOTES]
    after_colon = rf"[:：][ \t]*{bare}[ \t]*$"
    before_colon = rf"^[ \t]*(?:- )?{bare}(?:, {bare})*[:：]"
    return [re.compile(p, re.M) for p in (*verbs, *quoted, after_colon, before_colon, *STEP)]


def raw_notation(text: str, game_type: str) -> list[str]:
    """Every piece of ``text`` that is raw action notation of ``game_type`` (in order)."""
    found = []
    for pattern in _patterns(game_type):
        found.extend((m.start(), m.group(0).strip()) for m in pattern.finditer(text))
    return [piece for _, piece in sorted(found)]
