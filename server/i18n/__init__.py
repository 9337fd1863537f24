"""The languages the server writes in, below the mails, the pages and the games' presenters:
which locale a reader gets, the Babel catalogues (``server/translations/<locale>/LC_MESSAGES``:
``messages``, the server's own words, and ``game``, the games' texts), compiled in memory when
first used so that no compiled .mo file can go stale, and how a chosen name is quoted."""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
LOCALES = ("en", "ja", "es")


def supported(locale: str | None) -> str:
    """The locale to write in: the user's if we have it ("es-MX" -> "es"), else English."""
    base = (locale or "en").replace("-", "_").split("_")[0].lower()
    return base if base in LOCALES else "en"


def catalogue_path(locale: str, domain: str = "messages") -> Path:
    """A locale's catalogue: ``messages`` (the mails' own words) or ``game`` (the game's texts,
    server/i18n/game_text.py)."""
    return TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=None)
def translations(locale: str, domain: str = "messages") -> NullTranslations:
    """The catalogue of a supported locale, its .po compiled in memory (fuzzy entries left out)."""
    if locale == "en":
        return NullTranslations()
    with catalogue_path(locale, domain).open("rb") as po:
        catalogue = read_po(po, locale=locale)
    mo = BytesIO()
    write_mo(mo, catalogue)
    mo.seek(0)
    return Translations(mo)


# Quotation marks around a name a player chose, where a mail or page puts it into a sentence
# ("“Ann” has taken the seat"): it reads as a name, never as the server's own words.
QUOTES = {"en": ("“", "”"), "ja": ("「", "」"), "es": ("«", "»")}


def quoted(name: str, locale: str | None) -> str:
    """``name`` in the locale's quotation marks (the templates' ``quoted`` filter); plain text,
    escaped where it is put like any other value."""
    opening, closing = QUOTES[supported(locale)]
    return f"{opening}{name}{closing}"


def gettext(message: str, locale: str | None) -> str:
    """A message of Python code (extracted like the templates' ones) in the locale's words."""
    return translations(supported(locale)).gettext(message)
