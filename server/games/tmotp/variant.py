"""The edition and optional rules a 1960 game is played with, in words (the presenter's
``variant``): the invitation, the start, the join page and the lobby's games seeking players
name them, as the lobby's new-game form does (templates/games/tmotp/web/new_game.html)."""

from __future__ import annotations

from engine.games.tmotp.state import check_options
from server.catalogue import N_
from server.i18n import gettext

EDITIONS = {"gmt": N_("GMT 2nd edition"), "zman": N_("Z-Man 1st edition")}
OPTIONAL = {"vp_cards": N_("VP cards (optional rule)"),
            "restricted_positioning": N_("Restricted positioning (optional rule)")}


class Variant:
    def variant(self, options: dict | None, loc: str) -> str | None:
        """"Z-Man 1st edition, VP cards (optional rule)" (raises OptionsError if the options
        are not the engine's)."""
        full = check_options(dict(options or {}))
        parts = [EDITIONS[full["edition"]]] + [text for key, text in OPTIONAL.items()
                                               if full.get(key)]
        return ", ".join(gettext(part, loc) for part in parts)
