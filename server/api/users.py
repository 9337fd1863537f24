"""Users: sign up, who am I (and my time zone), a new token."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint
from sqlalchemy.exc import IntegrityError

from server import db, rate_limits
from server.api import auth, schemas
from server.api.problems import Problem
from server.models import User
from server.services import sign_in, time_zones, users

TOKENS_PAGE = "/me/tokens"      # the web page that makes, lists and revokes API tokens

blp = Blueprint("users", __name__, url_prefix="/api/v1",
                description="Accounts and API tokens (a token is shown once, when issued).")


@blp.route("/users", methods=["POST"])
@blp.arguments(schemas.SignupSchema, example={"email": "ann@example.org",
                                              "display_name": "Ann", "locale": "en"})
@blp.response(202, schemas.SignupAcceptedSchema)
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.alt_response(429, response="TOO_MANY_REQUESTS")
@blp.doc(security=auth.NO_AUTH)
def sign_up(data):
    """Sign up, or ask for a new token: a mail goes to the address with a link that proves it
    and opens the page where its owner makes API tokens (GET /users/me/tokens lists them).
    The answer is the same whether or not the address has an account (nobody learns which
    addresses play here), and no token is ever given to whoever merely names an address.
    An address in a reserved top-level domain (.invalid, .test, .example, .localhost: no mail
    reaches it) is refused (422)."""
    if not current_app.config["OPEN_SIGNUP"]:
        # A members-only club (issue 48): members come by the operator (add-member) or by
        # invitation (services/members.py); an existing member's token is made on the web.
        raise Problem("signup-closed", "This club is members-only and takes no sign-ups: ask a "
                      "member for an invitation (a link from their settings page, or a seat in "
                      "a game), or the club's operator to add you. A member makes API tokens "
                      f"on the web pages, signed in: {TOKENS_PAGE}.")
    try:  # the reserved domains: nobody's mailbox, and the deleted accounts' tombstones
        users.check_address(data["email"])
    except users.AddressRefused as refused:
        raise Problem("invalid-request", "No mail can reach an address in the reserved domain "
                      f"\".{refused.domain}\" (RFC 6761); give the email address you play "
                      "with.", errors={"json": {"email": ["In a reserved domain."]}}) from None
    try:  # each sign-up mails an address: not too many, nor from one client
        rate_limits.hit("sign_up_client", rate_limits.client())
        rate_limits.hit("sign_in_address", users.normalize_email(data["email"]))
    except rate_limits.TooMany as too_many:
        raise Problem("too-many-requests", "Too many sign-ups or mails to this address just "
                      f"now; try again in {too_many.retry_after} seconds.",
                      headers={"Retry-After": str(too_many.retry_after)}) from None
    with db.session() as session:
        # Only a new account takes the name (and language) asked for: whoever names an address
        # that has an account changes nothing of it; its owner just gets the mail.
        user = users.find_user(session, data["email"])
        if user is None:
            try:
                user = users.create_user(session, data["email"], data["display_name"],
                                         data["locale"], commit=False)
            except IntegrityError:  # created meanwhile by the same request sent twice
                session.rollback()
                user = users.find_user(session, data["email"])
        sign_in.request(session, user, TOKENS_PAGE)
        session.commit()
    return {"email": users.normalize_email(data["email"]),
            "detail": "A mail is on its way to this address with a link that works once. "
                      "Opening it proves the address and signs you in to the page that makes "
                      "your API token (shown once)."}


@blp.route("/me", methods=["GET"])
@auth.required
@blp.response(200, schemas.UserSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def me():
    """The account the token belongs to."""
    return auth.current_user()


@blp.route("/me", methods=["PATCH"])
@auth.required
@blp.arguments(schemas.UserChangeSchema, example={"display_name": "Ann Smith",
                                                  "time_zone": "Asia/Tokyo"})
@blp.response(200, schemas.UserSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def change_me(data):
    """Change your display name (``display_name``: the name others see in invitations, games,
    table talk, mails and the ladder; empty for none, and others see "Player <id>"), your
    account's time zone (``time_zone``): every time in your mails and pages is shown in it,
    with its offset; and how long your retractable moves are held (``retract_hold_seconds``).
    A name the rule of names refuses (see ``display_name``), or one the time zone database
    does not have, is refused (422, saying why), changing nothing."""
    caller = auth.current_user()
    with db.session() as session:
        user = session.get(User, caller.id)
        if "display_name" in data:   # checked by the schema (DisplayName): the rule of names
            users.rename(session, user, data["display_name"])
        if "time_zone" in data:
            time_zones.change(session, user, data["time_zone"])
        if "retract_hold_seconds" in data:
            user.retract_hold_seconds = data["retract_hold_seconds"]
            session.add(user)
        session.commit()
        session.refresh(user)
        session.expunge(user)
        return user


@blp.route("/me/tokens", methods=["POST"])
@blp.route("/users/me/tokens", methods=["POST"])
@auth.required
@blp.response(201, schemas.TokenSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def new_token():
    """Issue another API token for your account (shown this once only)."""
    user = auth.current_user()
    with db.session() as session:
        return {"token": users.issue_token(session, user.id)}


@blp.route("/users/me/tokens", methods=["GET"])
@auth.required
@blp.response(200, schemas.TokenInfoSchema(many=True))
@blp.alt_response(401, response="UNAUTHORIZED")
def list_tokens():
    """Your API tokens: when each was made and last used (never the tokens themselves)."""
    user = auth.current_user()
    current = users.sha256_hex(auth.current_token())
    with db.reading(db.session()) as session:
        return [{"id": t.id, "created_at": t.created_at, "last_used_at": t.last_used_at,
                 "current": t.token_hash == current}
                for t in users.tokens_of(session, user.id)]


@blp.route("/users/me/tokens/<int:token_id>", methods=["DELETE"])
@auth.required
@blp.response(204)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(404, response="NOT_FOUND")
def revoke_token(token_id: int):
    """Revoke one of your API tokens (it stops working at once; the one you use included)."""
    user = auth.current_user()
    with db.session() as session:
        if not users.revoke_token(session, user.id, token_id):
            raise Problem(None, "You have no API token with this id.", status=404)
    return None
