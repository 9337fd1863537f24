"""The lobby's form for a new game of Mr. President (templates/games/mrpresident/web/
new_game.html; the presenter's ``read_new_game``): the options and the seats' addresses it was
sent with. The engine judges the options (engine/games/mrpresident/state.check_options); the
lobby shows its refusal in its words."""

from __future__ import annotations

import server.games.mrpresident.page_words as words
from server.parsing import whole
from server.web.accounts import is_email
from server.web.words import _, locale

SEATS = words.SEATS


def read(form) -> tuple[dict, dict[str, str | None], dict[str, str]]:
    """(options, seat -> email or None, seat -> bot level) from the posted ``form``: a seat
    whose ``bot_<seat>`` names a level is its bot's. Raises ValueError saying what is wrong
    with it (the options themselves are the engine's to judge)."""
    raw = (form.get("players") or "3").strip()
    players = whole(raw, raw, most=99)      # the engine refuses all but 2, 3 or 4
    options = {"edition": form.get("edition") or "chalkboard", "players": players,
               "plurality": form.get("plurality") == "on"}
    for key in ("version", "count"):
        if form.get(key):
            options[key] = form[key]
    if form.get("nominee") == "on":
        options["nominee"] = True
        options["parties"] = form.get("parties") or "seats"
    seats: dict[str, str | None] = {}
    bots: dict[str, str] = {}
    for seat in SEATS[:players if isinstance(players, int) else 0]:
        email = (form.get(f"email_{seat}") or "").strip() or None
        if form.get(f"bot_{seat}"):
            bots[seat] = form[f"bot_{seat}"]
            if email is None:
                continue
        if email is not None and not is_email(email):
            raise ValueError(_("%(seat)s: give an email address, like name@example.org, or "
                               "leave it empty to invite with a code.",
                               seat=words.seat(seat, locale())))
        seats[seat] = email
    return options, seats, bots
