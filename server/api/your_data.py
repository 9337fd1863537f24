"""Your data: download everything the server holds about your account, and delete it."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint

from server import db
from server.api import auth
from server.api.notes_schemas import DeletedSchema, DeleteQuerySchema, ExportSchema
from server.api.problems import Problem
from server.models import User
from server.services import account_deletion, export

blp = Blueprint("your_data", __name__, url_prefix="/api/v1/users/me",
                description="Your data: everything the server holds about you as JSON, and "
                            "deleting your account (what is kept, and why: the README).")

KEPT = ("Other players' games keep their logs and your seat's orders; your seat is shown as "
        "\"a deleted player\". Your address, names, tokens, notes, webhooks, calendar feed "
        "and sessions are erased.")


def _game_url(game_id: int) -> str:
    return f"{current_app.config['BASE_URL']}/games/{game_id}"


@blp.route("/export", methods=["GET"])
@auth.required
@blp.response(200, ExportSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def download():
    """Everything the server holds about you, as JSON.

    Your account (address, names, language, time
    zone, mail settings, when the address was proven), your API tokens (never the tokens),
    your games (seat, status, result, your orders, the log as your seat's view shows it),
    your notes, webhooks and followed games; other services add their sections (the chat)."""
    caller = auth.current_user()
    with db.reading(db.session()) as session:
        return export.export(session, session.get(User, caller.id))


@blp.route("", methods=["DELETE"])
@auth.required
@blp.arguments(DeleteQuerySchema, location="query")
@blp.response(200, DeletedSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def delete(query):
    """Delete your account (confirmed by typing its address again).

    ``confirm`` must be the account's address, typed again. Refused (409, the
    seats listed) while you hold seats in unfinished games, unless ``hand_over=true``: then
    each is played by its game's deadline default from now on (a game without deadlines: the
    seat resigns), an open game's seat is freed. An open game you created passes to the
    player who joined it first (they invite to your seat and start it), or is withdrawn when
    nobody else has joined. Your personal data is erased at once; the token used stops
    working."""
    caller = auth.current_user()
    with db.session() as session:
        try:
            seats = account_deletion.delete_account(session, caller.id, query["confirm"],
                                                    hand_over=query["hand_over"])
        except account_deletion.NotConfirmed:
            session.rollback()
            raise Problem("confirmation-required", "Nothing was deleted: confirm must be your "
                          "account's address, typed again.") from None
        except account_deletion.AccountInUse as in_use:
            session.rollback()
            held = [{**s, "url": _game_url(s["game_id"])} for s in in_use.seats]
            raise Problem("account-in-use", f"Nothing was deleted: you hold {len(held)} "
                          "seat(s) in unfinished games. Finish or resign them, or ask again "
                          "with hand_over=true to leave each to its deadline's default.",
                          seats=held) from None
    return {"deleted": True, "kept": KEPT,
            "handed_over": [{**s, "url": _game_url(s["game_id"])} for s in seats]}
