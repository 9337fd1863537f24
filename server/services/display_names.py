"""The rule of display names, and the name others see (issue 23, items 6 and 9).

A display name is a name, not a sentence: nothing in it can read as a link or an address, break
a line of a mail, or turn the text around it (bidirectional overrides). ``check`` normalises a
name (NFC; white space around it dropped, every run of spaces inside made one space) and takes
it if it then has 1 to ``MAX_LENGTH`` characters, each a letter, a digit, a space, one of
``PUNCTUATION`` or an accent or other mark on a letter (at most ``MAX_MARKS`` on one); at least
one letter or digit; no "www."; and a full stop only at the end of a word ("J. Smith", "Jr."),
so that nothing like "evil.com" gets through. Pages and mails put a name that stands in a
sentence in quotation marks (the ``quoted`` filter, server/mail/render.py).

Others never see a user by the local part of their address: ``shown`` gives the name the user
chose, else a neutral "Player <id>". A stored name equal to the address's local part is the
default accounts were given before (server/services/users.py), not a choice; a stored name that
breaks the rule (stored before it) is not shown to others either.
"""

from __future__ import annotations

import unicodedata
from typing import Callable

from server.catalogue import N_

MAX_LENGTH = 40
MAX_MARKS = 3  # on one letter: Vietnamese stacks two; more draws over the lines around
PUNCTUATION = ".-'’_・"  # ・ (U+30FB) parts a name written in katakana: ジョン・スミス
NEUTRAL = N_("Player %(n)s")
# The name of an account erased at its owner's request (services/account_deletion.py).
DELETED = N_("a deleted player")


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
    for c in name:  # controls (Cc: line breaks, tabs), formats (Cf: U+202E, U+200B), Zl, Zp
        if unicodedata.category(c)[0] in "CZ" and unicodedata.category(c) != "Zs":
            raise NameRefused(N_("A display name is one line of visible characters: no line "
                                 "breaks, tabs or invisible characters such as direction "
                                 "marks (this one has %(code)s)."), code=f"U+{ord(c):04X}")
    name = " ".join(name.split())  # only spaces are left to split on
    if _looks_like_a_link(name):
        raise NameRefused(N_("A display name may not look like a link or an address: no “@”, "
                             "no “www.”, and a full stop only at the end of a word (“J. "
                             "Smith”, “Jr.”)."))
    if len(name) > MAX_LENGTH:
        raise NameRefused(N_("A display name has at most %(most)s characters; this one has "
                             "%(n)s."), most=MAX_LENGTH, n=len(name))
    _check_characters(name)
    return name


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
