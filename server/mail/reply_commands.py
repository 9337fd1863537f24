"""The commands a reply may carry on its first line, besides an order (issue 46, item 3), in
the reader's language, as the answer to a reply whose first line is neither names them: TAKE
BACK (server/mail/retract_reply.py), the pause and extension lines
(server/mail/schedule_reply.py) and the time-zone setting (server/mail/reply_settings.py). Each
is read in any of the server's languages; the reader is shown their own."""

from __future__ import annotations

from server.i18n import gettext
from server.mail import reply_settings, retract_reply, schedule_reply

# A zone to show the setting with, by the reader's language (any zone name is taken).
_ZONE = {"ja": "Asia/Tokyo", "es": "Europe/Madrid"}


def commands(locale: str) -> list[str]:
    """Every command, as the reader writes it."""
    return [gettext(retract_reply.WORD, locale),
            *(gettext(command, locale) for command in schedule_reply.COMMANDS),
            f"{gettext(reply_settings.WORD, locale)} {_ZONE.get(locale, 'America/New_York')}"]
