"""The rule of display names, and the name others see (issue 23, items 6 and 9).

A display name is a name, not a sentence: nothing in it can read as a link or an address, break
a line of a mail, or turn the text around it (bidirectional overrides). ``check`` normalises a
name (NFC; white space around it dropped, every run of spaces inside made one space) and takes
it if it then has 1 to ``MAX_LENGTH`` characters, each a letter, a digit, a space, one of
``PUNCTUATION`` or an accent or other mark on a letter (at most ``MAX_MARKS`` on one); at least
one letter or digit; no "www."; and a full stop only at the end of a word ("J. Smith", "Jr."),
so that nothing like "evil.com" gets through. Pages and mails put a name that stands in a
sentence in quotation marks (the ``quoted`` filter, server/mail/render.py).

A name must not pass for another (issue 45): it is written in one script, or in Latin with
one other script that does not look like it (UTS #39 "moderately restrictive": Latin with
Japanese or Korean is fine, Latin with Cyrillic or Greek is not; the scripts and the look-alikes
are Unicode's data as confusable-homoglyphs ships it, the check django-registration uses), with
digits of one number system; and its UTS #39 skeleton (of the case-folded NFKC name: "P1ayer",
"PIayer" and "Player" have one) is none of the names the server itself shows: "Player <n>"
and "a deleted player" in every language of the server, the site's name, and its staff's words
("admin", "operator", "moderator"...).

Others never see a user by the local part of their address: ``shown`` gives the name the user
chose, else a neutral "Player <id>". A stored name equal to the address's local part is the
default accounts were given before (server/services/users.py), not a choice; a stored name that
breaks the rule (stored before it) is not shown to others either.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Callable

from confusable_homoglyphs import categories
from confusable_homoglyphs.utils import load

from server.catalogue import N_
from server.i18n import LOCALES, gettext
from server.services import visible_text

MAX_LENGTH = 40
MAX_MARKS = 3  # on one letter: Vietnamese stacks two; more draws over the lines around
PUNCTUATION = ".-'’_・"  # ・ (U+30FB) parts a name written in katakana: ジョン・スミス
NEUTRAL = N_("Player %(n)s")
# The name of an account erased at its owner's request (services/account_deletion.py).
DELETED = N_("a deleted player")
SITE_NAME = "Whistlestop"
# Words that speak for the site (its staff, its bots), in the server's languages: a name with
# one of them as a word is refused. Written without spaces (Japanese), anywhere in the name.
STAFF_WORDS = ("admin", "admins", "administrator", "administrators", "administrador",
               "administradora", "operator", "operators", "operador", "operadora",
               "moderator", "moderators", "moderador", "moderadora", "sysop", "staff",
               "official", "oficial", "support", "soporte", "bot", SITE_NAME)
STAFF_SUBSTRINGS = (SITE_NAME, "管理者", "管理人", "運営", "モデレーター", "公式", "ボット")
WORD_BREAKS = " .-'’_・"


class NameRefused(ValueError):
    """A display name the rule refuses: ``reason`` in English, made of ``template`` % ``values``
    (a page translates the template, server/translations)."""

    def __init__(self, template: str, **values):
        self.template, self.values = template, values
        self.reason = template % values if values else template
        super().__init__(self.reason)


def check(name: str) -> str:
    """The name normalised, if the rule takes it; else raises NameRefused saying why."""
    name = unicodedata.normalize("NFC", name).strip()
    # Controls (Cc: line breaks, tabs), formats (Cf: U+202E, U+200B, joiners too), Zl, Zp
    # (services/visible_text.py, the check of every text a player writes), and the code
    # points no character has yet (Cn) or that are private (Co).
    code = visible_text.hidden(name, lines=False, joiners=False) or next(
        (f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in ("Cn", "Co")), None)
    if code:
        raise NameRefused(N_("A display name is one line of visible characters: no line "
                             "breaks, tabs or invisible characters such as direction "
                             "marks (this one has %(code)s)."), code=code)
    name = " ".join(name.split())  # only spaces are left to split on
    if _looks_like_a_link(name):
        raise NameRefused(N_("A display name may not look like a link or an address: no “@”, "
                             "no “www.”, and a full stop only at the end of a word (“J. "
                             "Smith”, “Jr.”)."))
    if len(name) > MAX_LENGTH:
        raise NameRefused(N_("A display name has at most %(most)s characters; this one has "
                             "%(n)s."), most=MAX_LENGTH, n=len(name))
    _check_characters(name)
    _check_not_another(name)
    return name


# Scripts written together as one language (UTS #39's augmented script sets): Japanese is Han
# with hiragana and katakana, Korean Han with hangul, Chinese Han with bopomofo.
SCRIPT_SETS = {"HAN": "HAN", "HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE",
               "HANGUL": "KOREAN", "BOPOMOFO": "CHINESE"}
# Scripts that may not go with Latin in one name: their letters look like Latin ones (UTS #39,
# "moderately restrictive": Latin with any one other script but these).
LIKE_LATIN = frozenset({"CYRILLIC", "GREEK", "CHEROKEE", "COPTIC", "ARMENIAN"})
NOT_A_SCRIPT = frozenset({"COMMON", "INHERITED", "UNKNOWN"})


def _scripts(name: str) -> set[str]:
    """The scripts of ``name``'s letters, Japanese, Korean and Chinese each counted as one."""
    aliases = set(categories.unique_aliases(name)) - NOT_A_SCRIPT
    sets = {SCRIPT_SETS.get(a, a) for a in aliases}
    if "HAN" in sets and len(sets & {"JAPANESE", "KOREAN", "CHINESE"}) == 1:
        sets.discard("HAN")  # Han goes with the one language that writes it
    return sets


def _mixes_scripts(name: str) -> bool:
    """Whether ``name`` mixes scripts beyond what UTS #39 calls moderately restrictive (one
    script; or Latin with one other script that does not look like it), or digits of two
    number systems (their zeros differ)."""
    scripts = _scripts(name)
    zeros = {ord(c) - unicodedata.digit(c) for c in name if unicodedata.category(c) == "Nd"}
    if len(zeros) > 1:
        return True
    if len(scripts) <= 1:
        return False
    return len(scripts) > 2 or "LATIN" not in scripts or bool(scripts & LIKE_LATIN)


@lru_cache(maxsize=1)
def _prototypes() -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """From Unicode's confusables (the data of confusable-homoglyphs): each character's
    prototype, the least of every text it may be taken for (the relation closed, so that "I",
    "l" and "1" have one), and the sequences of several characters ("rn") with theirs."""
    data = load("confusables.json")
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for text, glyphs in data.items():
        for glyph in glyphs:
            a, b = root(text), root(glyph["c"].strip("\u200e\u200f"))
            if a != b:
                parent[max(a, b)] = min(a, b)
    one = {x: root(x) for x in parent if len(x) == 1}
    several = tuple(sorted(((x, root(x)) for x in parent if len(x) > 1),
                           key=lambda pair: -len(pair[0])))
    return one, several


def skeleton(text: str) -> str:
    """``text`` with each character (and each sequence such as "rn") replaced by its prototype:
    UTS #39's skeleton, on the closed relation. Two texts with one skeleton look alike."""
    one, several = _prototypes()
    text = unicodedata.normalize("NFD", text)
    for sequence, prototype in several:
        if sequence in text:
            text = text.replace(sequence, prototype)
    return unicodedata.normalize("NFD", "".join(one.get(c, c) for c in text))


def skeletons(text: str) -> frozenset[str]:
    """The UTS #39 skeletons of ``text``, case-folded: of its case-folded NFKC form (the
    recommended one: "ADMIN" reads as "admin"), and of its NFKC form as written (where a
    capital I reads as an l, "WhistIestop"). Two texts with a skeleton in common look alike."""
    nfkc = unicodedata.normalize("NFKC", text)
    return frozenset(skeleton(form).casefold() for form in (nfkc.casefold(), nfkc))


def looks_alike(one: str, other: str) -> bool:
    """Whether the two texts may be taken for one another (a skeleton in common)."""
    return bool(skeletons(one) & skeletons(other))


def _bare(text: str) -> frozenset[str]:
    """The skeletons of ``text`` without its spaces."""
    return skeletons("".join(text.split()))


@lru_cache(maxsize=1)
def _reserved() -> tuple:
    """The skeletons of the names the server shows: "Player <n>" as (prefix, suffix) per
    language, the deleted player's name (and its words without the article), the staff's
    words, the substrings."""
    digits = frozenset("".join(s for d in "0123456789" for s in skeletons(d)))
    neutral, deleted = set(), set()
    for locale in LOCALES:
        prefix, _, suffix = gettext(NEUTRAL, locale).partition("%(n)s")
        neutral |= {(p, s) for p in _bare(prefix) for s in _bare(suffix)}
        words = gettext(DELETED, locale).split()
        deleted |= _bare(" ".join(words))
        if len(words) > 1:
            deleted |= _bare(" ".join(words[1:]))    # "deleted player": no article
    staff = frozenset(s for w in STAFF_WORDS for s in skeletons(w))
    inside = frozenset(s for w in STAFF_SUBSTRINGS for s in skeletons(w))
    return digits, frozenset(neutral), frozenset(deleted), staff, inside


def _check_not_another(name: str) -> None:
    """NameRefused when ``name`` mixes scripts that look alike, or looks like a name the
    server itself shows."""
    if _mixes_scripts(name):
        raise NameRefused(N_("This display name mixes scripts that look alike (Latin letters "
                             "with Cyrillic or Greek ones, say) or digits of two number "
                             "systems, so it could pass for another name: write it in one "
                             "script."))
    digits, neutral, deleted, staff, inside = _reserved()
    words = "".join(" " if c in WORD_BREAKS else c for c in name).split()
    if any(any(bare.startswith(p) and bare.endswith(s) and len(bare) > len(p) + len(s)
               and set(bare[len(p):len(bare) - len(s)]) <= digits for p, s in neutral)
           or any(d in bare for d in deleted) or any(w in bare for w in inside)
           for bare in _bare(name)) \
            or any(skeletons(w) & staff for w in words):
        raise NameRefused(N_("“%(name)s” is, or looks like, one of the names the server itself "
                             "uses (for an account without a name, a deleted account, the site "
                             "or its staff): choose another."), name=name)


def _looks_like_a_link(name: str) -> bool:
    """Whether the name has an "@", a "://", a word that starts "www." or a full stop that is
    not at the end of a word (mail clients make "evil.com" a link)."""
    return ("@" in name or "://" in name
            or any(word.casefold().startswith("www.") for word in name.split(" "))
            or any(c == "." and name[i + 1:i + 2] not in ("", " ") for i, c in enumerate(name)))


def _check_characters(name: str) -> None:
    marks, base = 0, False  # marks on the current letter; whether a mark may go on it
    for c in name:
        kind = unicodedata.category(c)
        if kind in ("Mn", "Mc"):
            marks += 1
            if not base or marks > MAX_MARKS:
                raise NameRefused(N_("An accent or other mark goes on a letter, at most "
                                     "%(most)s on one."), most=MAX_MARKS)
            continue
        marks, base = 0, kind[0] == "L" or kind == "Nd"
        if not (base or c == " " or c in PUNCTUATION):
            raise NameRefused(N_("A display name is made of letters, digits, spaces and the "
                                 "marks . - ' ’ _ ・; “%(char)s” is not one of them."), char=c)
    if not any(unicodedata.category(c)[0] == "L" or unicodedata.category(c) == "Nd"
               for c in name):
        raise NameRefused(N_("A display name needs at least one letter or digit."))


def chosen(user) -> str | None:
    """The name ``user`` (a User, or a row with its display_name and email) chose, normalised;
    None when they chose none, or their stored name is their address's local part or breaks
    the rule."""
    name = getattr(user, "display_name", None) or ""
    if not name or name == (user.email or "").split("@")[0]:
        return None
    try:
        return check(name)
    except NameRefused:
        return None


def shown(user, translate: Callable[[str], str] = str) -> str:
    """The name others see of ``user``: the name they chose, else "Player <id>" (the words
    in ``translate``'s language), never their address."""
    if (getattr(user, "email", "") or "").endswith("@deleted.invalid"):
        return translate(DELETED)
    return chosen(user) or translate(NEUTRAL) % {"n": user.id}
