"""The game as others see it while its last move may still be taken back (issue 27, item 3).

A retractable move (services/holds.py) is final once its hold is over or the next player has
seen it; until then its mover may take it back, and what it showed must not have reached anybody
else (a card played for CP names a card of the mover's hand). So to every reader but its mover,
on the page and through the API, the game is shown as it was before the move: the state
replayed from the log up to the move, at the step it answered, with no deadline (the move's
own is not kept), and ``held_until``: when it becomes final. Mails and webhooks to the next
seat wait for the hold (the outbox's ``not_before``), digests leave such a game out
(services/digests.py). Looking is a choice: the page's "Show the move" (a POST) makes the move
seen, and so final; a GET never does.

Only while a hold is open is anything replayed (one read of the hold's row otherwise).

Readers do not call this module: they read a game through services/seat_view.py, which applies
it (issue 45). An order of another seat meanwhile is refused by the order service itself
(holds.refuse_if_held), in words that do not depend on the move.
"""

from __future__ import annotations

from datetime import datetime

import engine.core as engine

from server.models import aware
from server.services import game_history, games, retract


class HeldGame:
    """A game as it was before its held move: the row's own attributes but the step, the state
    and the deadline. Read-only (never given to a session)."""

    def __init__(self, game, step: int, state: dict, held_until: datetime, held_by: str):
        self._game = game
        self.step, self.state, self.deadline_at = step, state, None
        self.held_until, self.held_by = held_until, held_by
        self.real_step = game.step

    def __getattr__(self, name):
        return getattr(self._game, name)


def as_seen(session, game, seat: str | None):
    """``game`` as ``seat`` (None: a spectator or a visitor) may see it now: the game itself,
    or, while its last move may be taken back and ``seat`` did not make it, a ``HeldGame``."""
    if game is None or getattr(game, "state", None) is None:
        return game
    row = retract.open_hold(session, game)
    if row is None or row.seat == seat:
        return game
    log = game_history.log_in_play(session, game.id)
    before = engine.replay(game.game_type, game.seed, log[:row.log_from], options=game.options)
    return HeldGame(game, row.step, games.state_json(before), aware(row.until), row.seat)


def held_until(game) -> datetime | None:
    """When the move hidden from this reader becomes final (a ``HeldGame``), else None."""
    return getattr(game, "held_until", None) if isinstance(game, HeldGame) else None
