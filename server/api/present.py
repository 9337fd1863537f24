"""What the API shows of a game: server metadata, the caller's view, decision and log.

Everything a seat sees of the rules' state comes from the engine's view for that seat; the
cached state and the seed of an unfinished game are never sent.
"""

from __future__ import annotations

from sqlmodel import Session, select

from server.api import schemas
from server.models import Game, Spectator, User
from server.services import display_names, lobby, reach, seat_view


# Schema instances are stateless for dump(); building one deep-copies its fields each time.
_DECISION_SCHEMA = schemas.DecisionSchema()

def role(session: Session, game: Game, user: User | None, seat: str | None) -> str:
    """player | creator | invited | spectator | visitor (a public game's passer-by)."""
    if seat is not None:
        return "player"
    if user is None:
        return "visitor"
    if game.created_by == user.id:
        return "creator"
    if any(r.invite_email == user.email and r.user_id is None
           for r in lobby.seat_rows(session, game.id)):
        return "invited"
    followed = session.exec(select(Spectator).where(Spectator.game_id == game.id,
                                                    Spectator.user_id == user.id)).first()
    return "spectator" if followed else "visitor"


def _names(session: Session, ids: set[int]) -> dict[int, str]:
    """The names others see of these users (never an address: display_names.shown)."""
    if not ids:
        return {}
    rows = session.exec(select(User.id, User.display_name, User.email)
                        .where(User.id.in_(ids))).all()
    return {row.id: display_names.shown(row) for row in rows}


def _left(game: Game, seat: str) -> str | None:
    """A seat of a started game nobody holds (neither a player nor a bot): its player deleted
    their account (services/account_deletion.py)."""
    if game.status == "open" or seat in (game.bots or {}):
        return None
    return display_names.DELETED


def game_body(session: Session, game: Game, user: User | None, *, view: bool = True) -> dict:
    """The game as the caller may see it (``view``: with the engine's view for their seat);
    to be dumped with GameSchema / GameSummarySchema, which send nothing else."""
    seat = lobby.seat_of(session, game.id, user.id) if user is not None else None
    seen = seat_view.of(session, game, seat)  # a move that may be taken back: before it
    game = seen.game
    rows = lobby.seat_rows(session, game.id)
    names = _names(session, {r.user_id for r in rows if r.user_id}
                   | ({game.created_by} if game.created_by else set()))
    body = {
        "id": game.id, "game_type": game.game_type, "options": dict(game.options),
        "status": game.status, "step": game.step, "public": game.public,
        "creator": names.get(game.created_by), "created_at": game.created_at,
        "finished_at": game.finished_at,
        "seats": [{"seat": r.seat, "player": names.get(r.user_id) if r.user_id else
                   _left(game, r.seat),
                   "joined": r.user_id is not None or r.seat in (game.bots or {}),
                   "invited": r.invite_email is not None, "bot": (game.bots or {}).get(r.seat)}
                  for r in rows],
        "seed_hash": game.seed_hash,
        "seed": game.seed if game.status == "finished" else None,
        "result": game.result,
        "role": role(session, game, user, seat),
        "your_seat": seat,
        "your_move": seen.your_move,
        "timing": {"decision_hours": game.decision_hours,
                   "reminder_hours": list(game.reminder_hours or []),
                   "on_deadline": game.on_deadline,
                   "absent_after_missed": game.absent_after_missed},
        "deadline_at": game.deadline_at if game.status == "active" else None,
        "held_until": seen.held_until,
    }
    if view:
        body["view"] = seen.view
        body["not_reached"] = reach.waiting(session, game)
    return body


def decision_body(session: Session, game: Game, seat: str) -> dict:
    """The seat's current decision (its own sealed order included, nobody else's). While
    another seat's move may be taken back, the decision before it (services/seat_view.py)."""
    seen = seat_view.of(session, game, seat)
    return _DECISION_SCHEMA.dump({"seat": seat, **seen.decision,
                                  "held_until": _iso(seen.held_until)})


def _iso(moment) -> str | None:
    return None if moment is None else moment.isoformat()


def log_body(session: Session, game: Game, seat: str | None) -> dict:
    """The log as the seat may see it; the exact format `whistlestop verify --file` reads."""
    seen = seat_view.of(session, game, seat)
    finished = seen.status == "finished"
    return {
        "game_id": game.id, "game_type": game.game_type, "options": dict(game.options),
        "seed_hash": game.seed_hash, "seed": game.seed if finished else None,
        "complete": finished, "entries": seen.log(),
    }
