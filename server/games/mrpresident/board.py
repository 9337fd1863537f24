"""The table of a game of Mr. President on the game page, the replay and the result
(templates/games/mrpresident/web/board.html): the mails' summary of the reader's view
(server/games/mrpresident/summary.py; ``seat`` None: a spectator's), the one builder of it.

``view["committed"]``: the server's count of the sealed orders of a simultaneous step (the engine
learns them only when the step resolves; server/web/board.py passes a view with it, as the mails
do). Another seat's hand or a card laid face down is never named: the view does not hold them.
"""

from __future__ import annotations

from engine.games.mrpresident.data import BANDS
import server.games.mrpresident.summary as summary_mrpresident


def context(view: dict, seat: str | None, loc: str) -> dict:
    """What the game's parts board.html, status.html and your_hand.html show."""
    return {"summary": summary_mrpresident.summary(view, seat, 0, loc), "bands": bands(loc)}


def bands(loc: str) -> list[dict]:
    """The electoral cards' colours and the votes each stands for (the rules' SETUP), for the
    board's legend: {"key", "name", "low", "high" (None: and over)}."""
    return [{"key": key, "name": summary_mrpresident._band(key, loc), "low": low,
             "high": high if high < 999 else None} for key, low, high in BANDS]
