"""Issue 48, item 1: a members-only club's invitations (services/members.py). A signed-in
member makes a link on the settings page (POST /me/invitations, shown once); its holder opens
it (GET /club/<token>: a form, nothing done: mail scanners open links) and gives an address
(POST): the address's account, made now if it has none, gets a sign-in link, and the link is
used up. A refusal says why and changes nothing."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request

from server import db, rate_limits, secret_keys
from server.models import User
from server.services import members
from server.web.accounts import check_form, mail_refusal, refused_with
from server.web.pages import page, reader
from server.web.words import N_, _, locale

bp = Blueprint("members", __name__)

REFUSALS = {
    "expired": (410, N_("This invitation link has expired: ask the member who gave it to you "
                        "for a new one.")),
    "tampered": (400, N_("This invitation link is damaged or was not made by this club: copy "
                         "the whole link, or ask the member who gave it to you for a new one.")),
    "used": (409, N_("This invitation link has been used already: each works once. Ask the "
                     "member who gave it to you for a new one, or sign in if it was you.")),
    "void": (410, N_("This invitation link no longer works: the member who made it has left "
                     "the club. Ask another member for one.")),
}


@bp.post("/me/invitations")
def make():
    signed_in = reader()
    if signed_in is None:
        return redirect("/sign-in?next=/me/mail", 303)
    if check_form() is not None:
        return redirect("/me/mail", 303)
    if not members.closed(current_app.config):    # anybody may sign up: nothing to make
        return redirect("/me/mail", 303)
    try:  # the same budget as the invitations to games (server/rate_limits.py)
        rate_limits.hit("invitations_user", signed_in.id)
    except rate_limits.TooMany as too_many:
        return page("refused.html", 429, locale(), refusal=_(
            "You have made too many invitations just now; try again in %(minutes)s minutes.",
            minutes=max(1, too_many.retry_after // 60)))
    with db.session() as session:
        token = members.invite(session, session.get(User, signed_in.id),
                               secret_keys.ring(current_app.config))
    return page("club_invitation_made.html", 201, locale(), days=members.INVITATION_DAYS,
                url=f"{current_app.config['BASE_URL']}{members.PATH}{token}")


def _form(token: str, status: int = 200, error: str | None = None, email: str = "",
          refused: bool = False):
    return page("club_invitation.html", status, locale(), action=f"{members.PATH}{token}",
                error=error, email=email, refused=refused)


def _refused(kind: str, token: str):
    status, reason = REFUSALS[kind]
    return _form(token, status, _(reason), refused=True)


@bp.get(f"{members.PATH}<token>")
def show(token: str):
    with db.reading(db.session()) as session:
        try:
            members.read(session, secret_keys.ring(current_app.config), token)
        except members.InvitationRefused as refused:
            return _refused(refused.kind, token)
    return _form(token)


@bp.post(f"{members.PATH}<token>")
def join(token: str):
    email = (request.form.get("email") or "").strip()
    refused = check_form()
    if refused:
        return _form(token, 400, refused, email)
    refusal = mail_refusal(email)   # as the sign-in page's: an address that mail reaches
    if refusal is not None:
        return refused_with(_form(token, refusal.status, refusal.reason, email), refusal)
    with db.session() as session:
        try:
            members.join(session, secret_keys.ring(current_app.config), token, email, locale())
        except members.InvitationRefused as refused:
            return _refused(refused.kind, token)
    return page("sign_in_sent.html", 200, locale(), email=email, members_only=False)
