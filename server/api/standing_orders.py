"""Standing orders: a seat's policies filed in advance, so the server need not ask it
(server/services/standing.py): GET shows the caller's, PUT changes the ones named."""

from __future__ import annotations

from flask_smorest import Blueprint

from server import db
from server.api import access, auth, schemas
from server.api.problems import Problem
from server.services import seat_view, standing
from server.services.standing import StandingOrderError

blp = Blueprint("standing_orders", __name__, url_prefix="/api/v1/games",
                description="Standing orders: answers filed in advance (the policies a game "
                            "declares, the default order for the next deadline).")


def _body(session, game_id: int, seat: str) -> dict:
    mine = standing.of_game(session, game_id).get(seat, {})
    return {"seat": seat, **{kind: mine.get(kind, "ask") for kind in standing.policies()},
            standing.DEADLINE_DEFAULT: mine.get(standing.DEADLINE_DEFAULT)}


@blp.route("/<int:game_id>/standing-orders", methods=["GET"])
@auth.required
@blp.response(200, schemas.StandingOrdersSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
def show(game_id):
    """Your seat's standing orders ("ask" and null: none filed)."""
    with db.session() as session:
        _game, seat = access.playing(session, game_id, auth.current_user())
        return _body(session, game_id, seat)


@blp.route("/<int:game_id>/standing-orders", methods=["PUT"])
@auth.required
@blp.arguments(schemas.StandingOrdersSchema, example={
    kind: values[0] for kind, values in standing.policies().items()})
@blp.response(200, schemas.StandingOrdersSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def change(data, game_id):
    """File or withdraw standing orders: the fields sent are changed ("ask" or null withdraws),
    the others kept. All or nothing: one refused value changes none."""
    with db.session() as session:
        game, seat = access.playing(session, game_id, auth.current_user())
        if game.status == "finished":
            raise Problem("conflict", "The game is over: standing orders have nothing to answer.")
        state = seat_view.of(session, game, seat).state  # checked against what it may see
        try:
            for kind in standing.kinds():
                if kind in data:
                    standing.file(session, game_id, seat, kind, data[kind], state)
        except StandingOrderError as exc:
            session.rollback()
            raise Problem("invalid-standing-order", str(exc)) from None
        session.commit()
        return _body(session, game_id, seat)
