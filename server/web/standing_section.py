"""The standing-orders section of the game page (templates/web/_standing_orders.html): what it
shows the reader's seat, gathered by the view that renders the page (server/web/board.py,
``standing_orders``) like the rest of the page, never read by the template itself. Its own
module because the route that files the orders (server/web/standing_orders.py) shows the game
page again after a refusal: both use this one, and neither imports the other both ways."""

from __future__ import annotations

from flask import g, request

from server.games import presenter
from server.models import Game
from server.services import standing
from server.web.words import locale

SAVED = "saved"                    # ?standing=saved: the confirmation
_POSTED = "standing_orders_posted"  # flask.g: a refused form, shown again as posted


def keep_refused(checked: dict[str, str], lines: str, error: str, field: str | None) -> None:
    """Keep a refused form as it was posted (``checked``: kind -> value, ``lines``: the default
    order's text), the reason and the field it is about, for this request's game page."""
    setattr(g, _POSTED, {"checked": checked, "lines": lines, "error": error, "field": field})


def section(session, game: Game, seat: str | None) -> dict | None:
    """What the game page's section shows the reader's ``seat``: None for a spectator or a
    finished game; else {"policies" (the presenter's), "checked" (kind -> value), "lines" (the
    default order's text), "saved", "error", "field" (the kind refused, or "deadline_default"),
    "open", "notation_url"}: what is filed, or after a refusal what was posted."""
    if seat is None or game.status != "active":
        return None
    policies = presenter(game.game_type).standing_orders(locale())
    mine = standing.of_game(session, game.id).get(seat, {})
    checked = {p["kind"]: mine.get(p["kind"], "ask") for p in policies}
    lines = "\n".join(mine.get(standing.DEADLINE_DEFAULT) or [])
    posted = g.get(_POSTED)
    if posted is not None:
        checked, lines = {**checked, **posted["checked"]}, posted["lines"]
    saved = posted is None and request.args.get("standing") == SAVED
    return {"policies": policies, "checked": checked, "lines": lines, "saved": saved,
            "error": posted["error"] if posted else None,
            "field": posted["field"] if posted else None,
            "open": saved or posted is not None,
            "notation_url": f"/help/notation/{game.game_type}"}
