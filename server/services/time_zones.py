"""A user's time zone (``User.time_zone``, an IANA name): taken from the browser when a sign-in
link is used while the account still has the default, then changed by the user on the
settings page (signed in: a mail's settings link may not change it), through the API
(``PATCH /api/v1/me``) or by a reply line ``timezone Asia/Tokyo``. Every way refuses a name
that is not a zone with the same words (a message of the ``game`` catalogue, like the order
service's reasons, so that the answer to a reply tells it in the reader's language)."""

from __future__ import annotations

from engine.core.messages import Message, data, plain, render
from sqlmodel import Session

from server import i18n
from server.i18n import times
from server.models import User


class ZoneRefused(ValueError):
    """A time zone not taken; ``message``: why, and what to write instead."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message


def check(text: str | None) -> str:
    """The zone ``text`` names, as the database spells it; raise ZoneRefused."""
    try:
        return times.zone_name(text)
    except times.UnknownZone as unknown:
        raise ZoneRefused(_refusal(unknown)) from None


def _refusal(unknown: times.UnknownZone) -> Message:
    examples = ", ".join(times.EXAMPLES)
    if not unknown.text:
        return plain("Name a time zone, like {examples}.", examples=examples)
    if unknown.candidates:
        return plain("{zone} could be any of {choices}: write the whole name of the one you "
                     "mean.", zone=unknown.text, choices=", ".join(unknown.candidates))
    return plain("{zone} is not a time zone. Write the name of one from the time zone "
                 "database, like {examples}.", zone=unknown.text, examples=examples)


def change(session: Session, user: User, text: str | None) -> str:
    """Set the user's zone to the one ``text`` names (the caller commits); return it, or raise
    ZoneRefused, changing nothing."""
    name = check(text)
    user.time_zone = name
    session.add(user)
    return name


def take_browsers(session: Session, user: User, text: str | None) -> bool:
    """At sign-in: the account takes the browser's zone (``text``, what the page's script
    read) if it still has the default and ``text`` is a zone as the database spells it.
    Anything else is ignored (a zone the user chose stays; a bad value is no error). The caller
    commits; True when the zone was taken."""
    if (user.time_zone or times.DEFAULT_ZONE) != times.DEFAULT_ZONE or not times.is_zone(text) \
            or times.is_utc(text):  # "Etc/UTC": the default under another name
        return False
    user.time_zone = text
    session.add(user)
    return True


def told(message: Message | list, locale: str | None) -> str:
    """A refusal in the reader's language (the ``game`` catalogue)."""
    template, args = data(message) if isinstance(message, str) else message
    return render(template, args, {}, i18n.translations(i18n.supported(locale), "game").gettext)
