"""The mail preferences a mail's footer links to: ``/me/mail/<token>``, the token signed for
the user (server/services/links.preferences_token), so no login is needed.

GET shows the settings and never changes anything (mail scanners open every link). POST from
the page changes them: ``action`` "settings" (``mail_mode``, ``locale``), "add_webhook" (``url``,
``flavor``) or "remove_webhook" (``webhook_id``). A refused change answers 400 with the page and
the reason, and changes nothing. A POST with the form body ``List-Unsubscribe=One-Click`` is a
mail client's one-click unsubscribe (RFC 8058, the List-Unsubscribe-Post header): no more mail.
"""

from __future__ import annotations

from flask import Blueprint, current_app, request

from server import db
from server.models import User
from server.services import links
from server.services import preferences as prefs
from server.web.pages import page
from server.parsing import whole

bp = Blueprint("preferences", __name__)

ACTIONS = ("settings", "add_webhook", "remove_webhook")


@bp.get("/me/mail")
def without_token():
    return page("preferences_link.html")


@bp.get("/me/mail/<token>")
def show(token: str):
    with db.session() as session:
        db.reading(session)
        user = _user(session, token)
        if user is None:
            return _not_ours()
        return _page(session, user)


@bp.post("/me/mail/<token>")
def change(token: str):
    with db.session() as session:
        user = _user(session, token)
        if user is None:
            return _not_ours()
        if request.form.get("List-Unsubscribe") == "One-Click":
            prefs.unsubscribe(session, user)
            return _page(session, user, notice="unsubscribed")
        action = request.form.get("action", "")
        try:
            if action == "settings":
                prefs.change(session, user, request.form.get("mail_mode"),
                             request.form.get("locale"))
            elif action == "add_webhook":
                prefs.add_webhook(session, user, request.form.get("url", ""),
                                  request.form.get("flavor"),
                                  bool(current_app.config["WEBHOOK_ALLOW_HTTP"]))
            elif action == "remove_webhook":
                webhook_id = request.form.get("webhook_id", "")
                if whole(webhook_id) is None:
                    raise prefs.Refused("Say which webhook to remove (webhook_id, a number).")
                prefs.remove_webhook(session, user, int(webhook_id))
            else:
                raise prefs.Refused(f"{action or '(none)'} is not something this page does; "
                                    f"action is one of {', '.join(ACTIONS)}.")
        except prefs.Refused as refused:
            session.rollback()
            return _page(session, user, refusal=str(refused), status=400)
        return _page(session, user, notice=action)


def _user(session, token: str) -> User | None:
    user_id = links.preferences_user(current_app.config["SECRET_KEY"], token)
    return session.get(User, user_id) if user_id is not None else None


def _not_ours():
    return page("refused.html", 404, refusal="This link was not made by this server: it "
                "cannot open anybody's mail settings. Use the link at the foot of a mail "
                "from this server.")


def _page(session, user: User, *, notice: str | None = None, refusal: str | None = None,
          status: int = 200):
    session.refresh(user)  # what is stored, whatever the request asked for
    current = prefs.settings(session, user)
    return page("preferences.html", status, user.locale, email=user.email,
                mail_mode=current.mail_mode, locale_setting=current.locale,
                mail_modes=prefs.MAIL_MODES, locales=prefs.LOCALES,
                webhooks=[{"id": h.id, "url": prefs.masked(h.url), "flavor": h.flavor}
                          for h in current.webhooks],
                max_webhooks=prefs.MAX_WEBHOOKS, action_url=request.path,
                notice=notice, refusal=refusal)
