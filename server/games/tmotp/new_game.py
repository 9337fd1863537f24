"""The lobby's form for a new game of 1960 (templates/games/tmotp/web/new_game.html; the
presenter's ``read_new_game``): the edition and the optional rules, the seat the reader plays,
and the opponent by address, by invitation code or as a bot. The engine judges the options."""

from __future__ import annotations

from server.web.accounts import is_email
from server.web.words import _


def read(form, user) -> tuple[dict, dict[str, str | None], dict[str, str]]:
    """(options, seat -> email or None, seat -> bot level) from the posted ``form`` of
    ``user``; ValueError saying what is wrong with it."""
    options = {"edition": form.get("edition", "gmt"),
               "vp_cards": form.get("vp_cards") == "on",
               "restricted_positioning": form.get("restricted_positioning") == "on"}
    emails, bots = _seats(form, user)
    if emails is None:
        raise ValueError(_("Give the opponent's email address, like name@example.org, or "
                           "leave it empty to invite with a code."))
    return options, emails, bots


def _seats(form, user) -> tuple[dict | None, dict]:
    """The reader's seat and the opponent's (None: not an email address), and the opponent's
    bot if one was chosen (``opponent_bot``: its level)."""
    my_seat = form.get("seat", "kennedy")
    other = "nixon" if my_seat == "kennedy" else "kennedy"
    bot = form.get("opponent_bot") or ""
    opponent = (form.get("opponent") or "").strip() or None
    if opponent is not None and not is_email(opponent):
        return None, {}
    if bot:
        return ({my_seat: user.email, other: opponent} if opponent else {my_seat: user.email},
                {other: bot})
    return {my_seat: user.email, other: opponent}, {}
