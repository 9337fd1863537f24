"""Rematches and ratings (issue 27 item 6): offer, accept and withdraw a rematch of a finished
game; the ladder of a game's role pool and a player's ratings."""

from __future__ import annotations

import engine.core as engine
import marshmallow as ma
from flask_smorest import Blueprint
from marshmallow import fields, validate
from sqlmodel import select

from server import db
from server.api import auth
from server.api.schemas import StrictBoolean
from server.api.games import documents
from server.api.problems import Problem, not_found
from server.models import Game, RematchOffer, Seat, User
from server.services import display_names, lobby, rating_scale, rematch, ratings

blp = Blueprint("rematch", __name__, url_prefix="/api/v1",
                description="Play a finished game again (rematch), and the ratings per role "
                            "its results make (OpenSkill, Plackett-Luce; the ladder orders by "
                            "the ordinal, mu - 3 sigma, and shows it as ``rating``, 24 x the "
                            "ordinal + 1500: 1500 for a newcomer).")


class RematchOfferSchema(ma.Schema):
    swap = StrictBoolean(load_default=True, metadata={
        "description": "true (the default): the roles are swapped (two seats swap; more "
                       "rotate); false: everyone keeps their seat. Bots keep their seats, "
                       "unless only one person played"})


class RematchSchema(ma.Schema):
    game_id = fields.Integer(metadata={"description": "The finished game"})
    status = fields.String(metadata={"description": "open | withdrawn | made"})
    swap = fields.Boolean()
    accepted = fields.List(fields.String(), metadata={
        "description": "The seats (of the finished game) whose players said yes"})
    waiting_for = fields.List(fields.String(), metadata={
        "description": "The seats whose players have not said yes yet (while open)"})
    new_game_id = fields.Integer(allow_none=True, metadata={
        "description": "The new game, once everyone accepted"})


class RatingSchema(ma.Schema):
    game_type = fields.String()
    role = fields.String(metadata={"description": "The role pool the game's engine names for "
                                                  "a seat (a side, or a number of players)"})
    rank = fields.Integer(metadata={"description": "Place on the role's ladder"})
    player = fields.String(metadata={"description": "The name others see, or the bot's level"})
    user_id = fields.Integer(allow_none=True)
    bot = fields.String(allow_none=True, metadata={"description": "The bot's level, for a bot"})
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: what the ladder orders by"})
    rating = fields.Integer(metadata={"description": (
        "The rating the pages show: the ordinal on OpenSkill's Elo-like scale, 24 x ordinal + "
        "1500 (200 points a standard deviation of the prior, openskill's FAQ), rounded and "
        "never below 0: 1500 for a newcomer")})
    games = fields.Integer()
    wins = fields.Integer()


class RatingsQuerySchema(ma.Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=50))
    role = fields.String(validate=validate.Length(min=1, max=50))


class UserRatingsSchema(ma.Schema):
    user_id = fields.Integer()
    player = fields.String()
    ratings = fields.List(fields.Nested(RatingSchema))


def body(session, offer: RematchOffer | None, game_id: int) -> dict:
    if offer is None:
        return {"game_id": game_id, "status": "none", "swap": True, "accepted": [],
                "waiting_for": [], "new_game_id": None}
    rows = lobby.seat_rows(session, game_id)
    game = session.get(Game, game_id)
    people = [r for r in rows if r.user_id in rematch.players(rows, game)]
    return {"game_id": game_id, "status": offer.status, "swap": offer.swap,
            "accepted": [r.seat for r in people if r.user_id in offer.accepted],
            "waiting_for": [r.seat for r in people if r.user_id not in offer.accepted]
            if offer.status == "open" else [],
            "new_game_id": offer.new_game_id}


@blp.route("/games/<int:game_id>/rematch", methods=["POST"])
@auth.required
@blp.arguments(RematchOfferSchema, example={"swap": True})
@blp.response(200, RematchSchema)
@documents(401, 403, 404, 409)
def offer(data, game_id):
    """Offer a rematch of a finished game you played, with the same options (a second offer
    while one is open joins it). Once every player has accepted, the new game starts and
    everyone is told by mail."""
    user = auth.current_user()
    with db.session() as session:
        row = rematch.offer(session, game_id, user.id, data["swap"])
        return body(session, row, game_id)


@blp.route("/games/<int:game_id>/rematch", methods=["GET"])
@auth.required
@blp.response(200, RematchSchema)
@documents(401, 403, 404)
def show(game_id):
    """The rematch offered for a game you played, if any (status "none" when there is none)."""
    user = auth.current_user()
    with db.session() as session:
        _own(session, game_id, user.id)
        return body(session, rematch.current(session, game_id), game_id)


@blp.route("/games/<int:game_id>/rematch/accept", methods=["POST"])
@auth.required
@blp.response(200, RematchSchema)
@documents(401, 403, 404, 409)
def accept(game_id):
    """Accept the rematch offered for a game you played; the last yes starts the new game."""
    user = auth.current_user()
    with db.session() as session:
        row = rematch.accept(session, game_id, user.id)
        return body(session, row, game_id)


@blp.route("/games/<int:game_id>/rematch", methods=["DELETE"])
@auth.required
@blp.response(200, RematchSchema)
@documents(401, 403, 404, 409)
def withdraw(game_id):
    """Withdraw (or decline) the open rematch offer: there is none until somebody offers
    again."""
    user = auth.current_user()
    with db.session() as session:
        row = rematch.withdraw(session, game_id, user.id)
        return body(session, row, game_id)


def _own(session, game_id: int, user_id: int) -> None:
    game = session.get(Game, game_id)
    if game is None:
        raise not_found()
    if session.exec(select(Seat.id).where(Seat.game_id == game_id,
                                          Seat.user_id == user_id)).first() is None:
        if not lobby.may_see(session, game, session.get(User, user_id)):
            raise not_found()
        raise Problem("forbidden", "Only the game's players see its rematch.")


def rating_rows(session, rows) -> list[dict]:
    """Ratings as the API shows them; ``rank`` is the place in the row's role pool."""
    names = ratings.names(session, rows, lambda user: display_names.shown(user))
    out, place = [], {}
    for row in rows:
        place[row.role] = place.get(row.role, 0) + 1
        out.append({"game_type": row.game_type, "role": row.role, "rank": place[row.role],
                    "player": names[row.player], "user_id": row.user_id, "bot": row.bot,
                    "mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal,
                    "rating": rating_scale.shown(row.mu, row.sigma),
                    "games": row.games, "wins": row.wins})
    return out


@blp.route("/ratings", methods=["GET"])
@blp.arguments(RatingsQuerySchema, location="query")
@blp.response(200, RatingSchema(many=True))
@blp.doc(security=auth.NO_AUTH)
@documents(422)
def ladder(query):
    """The public ladder of a game (every role pool, or ``role``'s), best ordinal first."""
    if query["game"] not in engine.games():
        raise Problem("invalid-options", f"There is no game '{query['game']}'; the games are "
                      f"{', '.join(engine.games())}.")
    with db.reading(db.session()) as session:
        return rating_rows(session, ratings.ladder(session, query["game"], query.get("role")))


@blp.route("/users/<int:user_id>/ratings", methods=["GET"])
@blp.response(200, UserRatingsSchema)
@blp.doc(security=auth.NO_AUTH)
@documents(404)
def user_ratings(user_id):
    """A player's ratings, per game and role (their place on each role's ladder is on
    GET /ratings)."""
    with db.reading(db.session()) as session:
        user = session.get(User, user_id)
        if user is None:
            raise Problem("not-found", "There is no such player.")
        rows = ratings.of_user(session, user_id)
        found = rating_rows(session, rows)
        for entry, row in zip(found, rows):
            entry["rank"] = ratings.place(session, row)
        return {"user_id": user.id, "player": display_names.shown(user), "ratings": found}
