"""The page where a signed-in player makes, lists and revokes API tokens (/me/tokens).

POST /api/v1/users leads here: it mails a sign-in link to the address, and opening it proves
the address and signs the browser in. A new token is shown once, on the page that made it;
only its hash is kept, so the list shows when each token was made and last used, never a token.
"""

from __future__ import annotations

from flask import Blueprint, request

from server import db
from server.parsing import whole
from server.services import users
from server.web.accounts import check_form
from server.web.pages import page, signed_in_only
from server.web.words import _, locale

bp = Blueprint("tokens", __name__)
PATH = "/me/tokens"


@bp.get(PATH)
@signed_in_only(PATH)
def show(signed_in):
    return _page(signed_in)


@bp.post(PATH)
@signed_in_only(PATH)
def change(signed_in):
    refused = check_form()
    if refused:
        return _page(signed_in, refusal=refused, status=400)
    with db.session() as session:
        if request.form.get("action") == "new":
            return _page(signed_in, token=users.issue_token(session, signed_in.id), status=201)
        token_id = whole(request.form.get("token_id", ""))
        if request.form.get("action") == "revoke" and token_id is not None \
                and users.revoke_token(session, signed_in.id, token_id):
            return _page(signed_in, done=_("The token is revoked: it no longer works."))
    return _page(signed_in, refusal=_("Choose a token to revoke, or make a new one."),
                 status=422)


def _page(signed_in, *, token: str | None = None, done: str | None = None,
          refusal: str | None = None, status: int = 200):
    with db.reading(db.session()) as session:
        rows = users.tokens_of(session, signed_in.id)
    return page("tokens.html", status, locale(), tokens=rows, token=token, done=done,
                refusal=refusal, email=signed_in.email)
