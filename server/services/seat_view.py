"""What a reader may see of a game now: the one door every reader goes through (issue 45).

A reader is a seat's player (``seat``) or anybody else (None: a spectator, a visitor, the
operator's public pages). Pages, the API, mails and their answers, webhooks, digests, the
data export, the calendar feed, the live stream and the version check all read a game through
``of``: its step, status, deadline, state, view, decision, log and "your move" as that reader
may see them now. A move another seat may still take back (services/holds.py) is applied
here: to every reader but its mover the game is the one before it (services/held_view.py),
at the step it answered, with no deadline, and ``held_until`` saying when it is final.

The raw readers (games.seat_view, decision_for, your_move, log_for, whole_state, the log's
rows) are for the order service, the mover's own answer and the workers that play; the
modules that show a game to somebody never call them (tests/security/test_one_reader.py).
"""

from __future__ import annotations

from datetime import datetime
from functools import cached_property

from sqlmodel import Session

from server.services import game_history, games, held_view


class SeatView:
    """A game as ``seat`` (None: not a seat) may see it now. ``game`` is the game or, while
    another seat's move may be taken back, the game before it (read-only)."""

    def __init__(self, session: Session, game, seat: str | None):
        self._session, self.seat = session, seat
        self.game = held_view.as_seen(session, game, seat)

    @property
    def step(self) -> int:
        return self.game.step

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def deadline_at(self) -> datetime | None:
        return self.game.deadline_at

    @property
    def held_until(self) -> datetime | None:
        """When the move hidden from this reader is final; None when none is."""
        return held_view.held_until(self.game)

    @property
    def held_by(self) -> str | None:
        """The seat whose move is hidden from this reader, or None."""
        return self.game.held_by if self.held_until is not None else None

    @cached_property
    def state(self):
        """The engine state with its whole history (None before the game starts); shared:
        never changed by a reader."""
        if self.game.state is None:
            return None
        return games.whole_state(self._session, self.game, copy=False)

    @cached_property
    def view(self) -> dict | None:
        """The reader's view of the game (the engine's ``view(seat)``)."""
        if self.state is None:
            return None
        return games.seat_view(self._session, self.game, self.seat, self.state)

    @cached_property
    def decision(self) -> dict:
        """What the seat is asked now (games.decision_for's shape); nothing for a non-seat."""
        if self.seat is None or self.state is None:
            return {"step": self.step, "active": False, "prompt": None, "legal_actions": [],
                    "simultaneous": False, "your_order": None, "committed": 0,
                    "waiting_for": []}
        return games.decision_for(self._session, self.game, self.seat, self.state)

    @cached_property
    def your_move(self) -> bool:
        """Whether the seat is asked something now (and has not sealed its order)."""
        if self.seat is None or self.state is None:
            return False
        return games.your_move(self._session, self.game, self.seat, self.state)

    def log(self) -> list[dict]:
        """The log as the reader may see it: redacted during play, complete once finished."""
        return games.log_for(self._session, self.game, self.seat)

    def record(self) -> list[list[str]]:
        """A finished game's whole log in play ([seat, action] pairs: the replay's), else
        the log the reader may see, as such pairs."""
        if self.status == "finished":
            return game_history.log_in_play(self._session, self.game.id)
        return [[e["seat"], e["action"]] for e in self.log()]

    def news(self) -> dict:
        """The game's step, status and whether it is the reader's move: what the live stream
        and the version check tell."""
        return {"step": self.step, "status": self.status, "your_move": self.your_move}


def of(session: Session, game, seat: str | None) -> SeatView:
    """``game`` (a Game or games.GameRow) as ``seat`` may see it now."""
    return SeatView(session, game, seat)
