"""Who may see a game and who may act in it: 404 for what the caller may not see, 403 for what
they may see but not do."""

from __future__ import annotations

from engine.core import CHANCE
from sqlalchemy import bindparam, select
from sqlmodel import Session

from server.api.problems import Problem, not_found
from server.models import Game, User
from server.services import games, lobby


def visible_game(session: Session, game_id: int, user: User | None) -> Game:
    """The game, or the same 404 whether it does not exist or is private to others."""
    game = session.get(Game, game_id)
    if game is None or not lobby.may_see(session, game, user):
        raise not_found()
    return game


# Built once, for every order (``session.get`` builds its query at each call).
_GAME_BY_ID = select(Game).where(Game.id == bindparam("game_id"))


def playing(session: Session, game_id: int, user: User, asked: str | None = None
            ) -> tuple[Game, str]:
    """The game and the caller's seat in it, from one read of its seats: 404 as
    ``visible_game`` for a game the caller may not see, 403 if they have no seat in it (or name
    somebody else's)."""
    return _seat_in(session, session.execute(_GAME_BY_ID, {"game_id": game_id})
                    .scalar_one_or_none(), user, asked)


def ordering(session: Session, game_id: int, user: User, asked: str | None = None
             ) -> tuple[games.GameRow, str]:
    """``playing`` for an order: the game as a GameRow (games.game_row), which the order
    service takes as it is."""
    return _seat_in(session, games.game_row(session, game_id), user, asked)


def _seat_in(session: Session, game, user: User, asked: str | None) -> tuple:
    if game is None:
        raise not_found()
    seats = lobby.seat_holders(session, game.id)
    if not lobby.may_see(session, game, user, seats):
        raise not_found()
    mine = next((row.seat for row in seats if row.user_id == user.id), None)
    return game, _checked_seat(mine, asked)


def _checked_seat(seat: str | None, asked: str | None) -> str:
    if asked == CHANCE:
        raise Problem("forbidden", "Nobody acts for chance: the server draws every random "
                      "outcome from the game's seed and logs it.")
    if seat is None:
        raise Problem("forbidden", "You have no seat in this game; only its players can do "
                      "this.")
    if asked is not None and asked != seat:
        raise Problem("forbidden", f"You play {seat} in this game, not {asked}.")
    return seat
