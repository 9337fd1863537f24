"""The mail preferences: ``/me/mail/<token>`` from a mail's footer (and its List-Unsubscribe
header), and ``/me/mail`` for the signed-in user.

What a request may change is the token's power (services/preferences.power): the newest mail's
link may choose less mail, an older mail's link may only stop mail, and the user's own
signed-in session (with the form's CSRF token) may change everything: more mail, the language,
webhooks. GET shows the settings and never changes anything (mail scanners open every link).
POST changes them: ``action`` "settings" (``mail_mode``, ``locale``), "unsubscribe",
"add_webhook" (``url``, ``flavor``), "remove_webhook" or "turn_on_webhook" (``webhook_id``:
one that failing posts turned off, server/mail/webhook_queue.py). A refused change
answers 400 (403 when the link lacks the power) with the page, the reason and what the user
typed, and changes nothing. A POST with the form body ``List-Unsubscribe=One-Click`` is a mail
client's one-click unsubscribe (RFC 8058): no more mail, whatever mail the link came in.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request

from server import i18n
from server import db
from server.models import User
from server.parsing import whole
from server.services import links
from server.services import preferences as prefs
from server.web.accounts import check_form
from server.web.pages import page, reader
from server.web.words import N_, locale

bp = Blueprint("preferences", __name__)

ACTIONS = ("settings", "unsubscribe", "add_webhook", "remove_webhook", "turn_on_webhook")
SIGNED_IN_PATH = "/me/mail"


class _Lacking(prefs.Refused):
    """A change this request has not the power to make (a mail's link, not a session)."""


@bp.get(SIGNED_IN_PATH)
def signed_in_show():
    signed_in = reader()
    if signed_in is None:
        return page("preferences_link.html", 200, locale(), sign_in_url=_sign_in_url())
    with db.session() as session:
        db.reading(session)
        return _page(session, session.get(User, signed_in.id), prefs.EVERYTHING)


@bp.post(SIGNED_IN_PATH)
def signed_in_change():
    signed_in = reader()
    if signed_in is None:
        return redirect(_sign_in_url(), 303)
    with db.session() as session:
        user = session.get(User, signed_in.id)
        refused = check_form()
        if refused:
            return _page(session, user, prefs.EVERYTHING, refusal=refused, status=400)
        return _change(session, user, prefs.EVERYTHING)


@bp.get("/me/mail/<token>")
def show(token: str):
    with db.session() as session:
        db.reading(session)
        found = _user(session, token)
        if found is None:
            return _not_ours()
        user, link = found
        return _page(session, user, prefs.power(session, user, link.mail, _signed_in_id()))


@bp.post("/me/mail/<token>")
def change(token: str):
    with db.session() as session:
        found = _user(session, token)
        if found is None:
            return _not_ours()
        user, link = found
        if request.form.get("List-Unsubscribe") == "One-Click":
            prefs.unsubscribe(session, user)
            return _page(session, user, prefs.power(session, user, link.mail, None),
                         notice="unsubscribed")
        # The session's powers only with the page's own form (its CSRF token): a page
        # elsewhere posting to a leaked link gets no more than the link's.
        signed_in = _signed_in_id() if check_form() is None else None
        return _change(session, user, prefs.power(session, user, link.mail, signed_in))


def _change(session, user: User, power: str):
    action = request.form.get("action", "")
    try:
        if action == "unsubscribe":
            prefs.unsubscribe(session, user)
            return _page(session, user, power, notice="unsubscribed")
        if action == "settings":
            mail_mode, language = request.form.get("mail_mode"), request.form.get("locale")
            _may_set(user, power, mail_mode, language)
            prefs.change(session, user, mail_mode, language)
        elif action in ("add_webhook", "remove_webhook", "turn_on_webhook"):
            if power != prefs.EVERYTHING:
                raise _Lacking(_words(user, N_(
                    "Webhooks are changed from a signed-in browser: sign in, and open your "
                    "mail settings there.")))
            if action == "add_webhook":
                prefs.add_webhook(session, user, request.form.get("url", ""),
                                  request.form.get("flavor"),
                                  bool(current_app.config["WEBHOOK_ALLOW_HTTP"]))
            else:
                webhook_id = whole(request.form.get("webhook_id", ""))
                if webhook_id is None:
                    raise prefs.Refused("Say which webhook (webhook_id, a number).")
                if action == "remove_webhook":
                    prefs.remove_webhook(session, user, webhook_id)
                else:
                    prefs.turn_on_webhook(session, user, webhook_id)
        else:
            raise prefs.Refused(f"{action or '(none)'} is not something this page does; "
                                f"action is one of {', '.join(ACTIONS)}.")
    except prefs.Refused as refused:
        session.rollback()
        return _page(session, user, power, refusal=str(refused),
                     status=403 if isinstance(refused, _Lacking) else 400)
    return _page(session, user, power, notice=action)


def _may_set(user: User, power: str, mail_mode: str | None, language: str | None) -> None:
    """Raise _Lacking when the request may not make this change (checked before the values,
    which prefs.change checks)."""
    if power == prefs.EVERYTHING:
        return
    if power == prefs.UNSUBSCRIBE and (mail_mode != "none" or
                                       language not in (None, "", user.locale)):
        raise _Lacking(_words(user, N_(
            "This link comes from an older mail: it can only stop all mail. Use the link in "
            "your newest mail, or sign in.")))
    if language not in (None, "", user.locale):
        raise _Lacking(_words(user, N_(
            "A mail's link cannot change the language of your mail: sign in to change it.")))
    if mail_mode in prefs.MAIL_MODES and not prefs.fewer(mail_mode, user.mail_mode):
        raise _Lacking(_words(user, N_(
            "A mail's link can only bring you less mail: sign in to get more.")))


def _words(user: User, message: str) -> str:
    return i18n.gettext(message, user.locale)


def _signed_in_id() -> int | None:
    signed_in = reader()
    return signed_in.id if signed_in is not None else None


def _sign_in_url() -> str:
    return f"/sign-in?next={SIGNED_IN_PATH}"


def _user(session, token: str) -> tuple[User, links.PreferencesLink] | None:
    link = links.preferences_link(current_app.config["SECRET_KEY"], token)
    user = session.get(User, link.user_id) if link is not None else None
    return (user, link) if user is not None else None


def _not_ours():
    return page("refused.html", 404, refusal="This link was not made by this server: it "
                "cannot open anybody's mail settings. Use the link at the foot of a mail "
                "from this server.")


def _page(session, user: User, power: str, *, notice: str | None = None,
          refusal: str | None = None, status: int = 200):
    session.refresh(user)  # what is stored, whatever the request asked for
    current = prefs.settings(session, user)
    everything = power == prefs.EVERYTHING
    return page("preferences.html", status, user.locale, email=user.email,
                mail_mode=current.mail_mode, locale_setting=current.locale,
                mail_modes=prefs.MAIL_MODES, locales=prefs.LOCALES, power=power,
                may_choose=[m for m in prefs.MAIL_MODES
                            if everything or (power == prefs.REDUCE
                                              and prefs.fewer(m, current.mail_mode))],
                webhooks=([{"id": h.id, "url": prefs.masked(h.url), "flavor": h.flavor,
                            "off": h.disabled_at, "failures": h.failures,
                            "error": prefs.failure_kind(h.last_error)}
                           for h in current.webhooks] if everything else None),
                max_webhooks=prefs.MAX_WEBHOOKS, action_url=request.path,
                sign_in_url=_sign_in_url(), notice=notice, refusal=refusal,
                typed=request.form if request.method == "POST" else {})
