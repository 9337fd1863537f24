"""Orders from mail and links: the same order service as the API, answered in plain terms.

The API turns refusals into problem documents; signed links and replies by mail need the same
facts as data to write a page or a mail: what was applied or sealed, or why nothing was and
what would be legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from engine.core import ActionError, MalformedAction
from engine.core.messages import plain
from sqlmodel import Session

from server import db
from server.models import Game
from server.services import games, seat_view
from server.services.games import GameNotFound, HeldMove, OrderResult, StaleStep


@dataclass
class Outcome:
    # applied | sealed | stale (the step moved on) | malformed | illegal | over | not_found
    # | held (another seat's move may still be taken back: games.HeldMove)
    status: str
    step: int = 0  # the game's step now
    applied: list[str] = field(default_factory=list)
    reason: str | None = None  # why (part of) the order was refused
    legal: list[str] = field(default_factory=list)  # what would have been accepted
    held_by: str | None = None  # held: the seat whose move may still be taken back
    held_until: datetime | None = None  # held: until when

    @property
    def accepted(self) -> bool:
        return self.status in ("applied", "sealed")


def order(game_id: int, seat: str, step: int, actions: list[str], *,
          before_commit: Callable[[Session, OrderResult], None] | None = None,
          atomic: bool = False, then=None) -> Outcome:
    """Submit the seat's order for ``step``; never raises for a refusal. ``atomic``: all of
    the lines or none; ``then``: what more to apply after them (games.submit_order)."""
    with db.session() as session:
        try:
            result = games.submit_order(session, game_id, seat, step, actions,
                                        before_commit=before_commit, atomic=atomic,
                                        then=then)
        except GameNotFound:
            return Outcome("not_found", reason=plain("There is no game {game_id}.",
                                                     game_id=game_id))
        except HeldMove as exc:
            # Told in words that do not depend on the move (no step, no legal actions).
            db.read_afresh(session)
            return Outcome("held", seat_view.of(session, session.get(Game, game_id),
                                                seat).step, [], exc.reason, [],
                           held_by=exc.seat, held_until=exc.until)
        except StaleStep:
            db.read_afresh(session)
            return _refused(session, game_id, seat, "stale", None, [])
        except ActionError as exc:
            db.read_afresh(session)
            game = session.get(Game, game_id)
            status = ("malformed" if isinstance(exc, MalformedAction)
                      else "over" if game is not None and game.status == "finished"
                      else "illegal")
            return _refused(session, game_id, seat, status, exc.reason, exc.legal)
    return Outcome("sealed" if result.sealed else "applied", result.step, list(result.applied),
                   result.reason, list(result.legal))


def _refused(session: Session, game_id: int, seat: str, status: str, reason: str | None,
             legal: list[str]) -> Outcome:
    """A refusal with the decision the seat may see now (its step, its legal actions)."""
    seen = seat_view.of(session, session.get(Game, game_id), seat)
    legal = legal or seen.decision["legal_actions"]
    return Outcome(status, seen.step, [], reason, list(legal))
