"""Orders from mail and links: the same order service as the API, answered in plain terms.

The API turns refusals into problem documents; signed links and replies by mail need the same
facts as data to write a page or a mail: what was applied or sealed, or why nothing was and
what would be legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.core import ActionError, MalformedAction
from engine.core.messages import plain
from sqlmodel import Session

from server import db
from server.models import Game
from server.services import games
from server.services.games import GameNotFound, OrderResult, StaleStep


@dataclass
class Outcome:
    # applied | sealed | stale (the step moved on) | malformed | illegal | over | not_found
    status: str
    step: int = 0  # the game's step now
    applied: list[str] = field(default_factory=list)
    reason: str | None = None  # why (part of) the order was refused
    legal: list[str] = field(default_factory=list)  # what would have been accepted

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
        except StaleStep as exc:
            db.read_afresh(session)
            return _refused(session, game_id, seat, "stale", None, [], exc.step)
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
             legal: list[str], step: int | None = None) -> Outcome:
    game = session.get(Game, game_id)
    legal = legal or games.decision_for(session, game, seat)["legal_actions"]
    return Outcome(status, step if step is not None else game.step, [], reason, list(legal))
