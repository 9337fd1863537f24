"""The table of a game of Mr. President on the game page, the replay and the result
(templates/web/_mrpresident_board.html): the mails' summary of the reader's view
(server/games/mrpresident/summary.py; ``seat`` None: a spectator's), the one builder of it.

``view["committed"]``: the server's count of the sealed orders of a simultaneous step (the engine
learns them only when the step resolves; server/web/board.py passes a view with it, as the mails
do). Another seat's hand or a card laid face down is never named: the view does not hold them.
"""

from __future__ import annotations

from server.games.mrpresident import summary as summary_mrpresident

BOARD_TEMPLATE = "_mrpresident_board.html"
HAND_TEMPLATE = "_mrpresident_hand.html"


def context(view: dict, seat: str | None, loc: str) -> dict:
    """What templates/web/_mrpresident_board.html shows (and the hand template's name)."""
    return {"board_template": BOARD_TEMPLATE, "hand_template": HAND_TEMPLATE,
            "summary": summary_mrpresident.summary(view, seat, 0, loc)}
