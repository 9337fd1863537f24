"""A reply that takes the mover's last move back (issue 27): ``TAKE BACK``, the word the
answer to a move by mail offers while the move may still be taken back (templates/email/
order_received.*), in any of the server's languages (its translations: ``RETIRAR``,
``取り消し``), and a few English synonyms. Any case, NFKC-normalised (full-width letters count),
quotes and a closing full stop or exclamation mark ignored.

A reply whose first line is one of these takes the move back through the same service as the
page's button (services/retract.py) and does nothing else (server/mail/replies.py). None of
these is an action of any game (1960's "take" takes a card's number)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from server.catalogue import N_
from server.i18n import LOCALES, gettext

# The command as the mails write it (translated: the Spanish and Japanese mails name theirs).
WORD = N_("TAKE BACK")
SYNONYMS = ("take back", "takeback", "take-back", "retract", "undo")

_AROUND = "\"'“”‘’「」『』«»()[]. !！。.．"


def _normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().strip(_AROUND + "\t")
    return re.sub(r"\s+", " ", text)


@lru_cache(maxsize=1)
def words() -> frozenset[str]:
    """Every spelling of the command, normalised."""
    return frozenset({_normal(w) for w in SYNONYMS}
                     | {_normal(gettext(WORD, locale)) for locale in LOCALES})


def is_line(line: str) -> bool:
    """Whether a reply's line is the take-back command."""
    return _normal(line) in words()
