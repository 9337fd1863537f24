"""Users: sign up, who am I, a new token."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint
from sqlalchemy.exc import IntegrityError

from server import db
from server.api import auth, schemas
from server.api.problems import Problem
from server.services import users

blp = Blueprint("users", __name__, url_prefix="/api/v1",
                description="Accounts and API tokens (a token is shown once, when issued).")


@blp.route("/users", methods=["POST"])
@blp.arguments(schemas.SignupSchema)
@blp.response(201, schemas.SignupResultSchema)
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(security=auth.NO_AUTH)
def sign_up(data):
    """Sign up: answer the new user and its API token (shown this once only)."""
    if not current_app.config["OPEN_SIGNUP"]:
        raise Problem("signup-closed", "This server does not take sign-ups; ask its operator "
                      "for an account.")
    with db.session() as session:
        try:
            user = users.create_user(session, data["email"], data["display_name"],
                                     data["locale"], commit=False)
            token = users.issue_token(session, user.id)  # commits the user and the token
        except (users.EmailTaken, IntegrityError):
            session.rollback()
            raise Problem("email-taken", "An account already uses this email address; use "
                          "its token, or POST /api/v1/me/tokens with it for another.") from None
        session.refresh(user)
        return {"user": user, "token": token}


@blp.route("/me", methods=["GET"])
@auth.required
@blp.response(200, schemas.UserSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def me():
    """The account the token belongs to."""
    return auth.current_user()


@blp.route("/me/tokens", methods=["POST"])
@auth.required
@blp.response(201, schemas.TokenSchema)
@blp.alt_response(401, response="UNAUTHORIZED")
def new_token():
    """Issue another API token for your account (shown this once only)."""
    user = auth.current_user()
    with db.session() as session:
        return {"token": users.issue_token(session, user.id)}
