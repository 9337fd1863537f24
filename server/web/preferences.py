"""The mail preferences: ``/me/mail/<token>`` from a mail's footer (and its List-Unsubscribe
header), and ``/me/mail`` for the signed-in user.

What a request may change is the token's power (services/preferences.power): the newest mail's
link may choose less mail, an older mail's link may only unsubscribe, and the user's own
signed-in session (with the form's CSRF token) may change everything: more mail, the language,
the time zone, webhooks. GET shows the settings and never changes anything (mail scanners open
every link). POST changes them: ``action`` "settings" (``mail_mode``, ``locale``, ``time_zone``:
signed in only), "name" (``display_name``, signed in only; issue 47: the rule of names,
services/display_names.py, a refusal 422 with the reason and what was typed; empty: none),
"unsubscribe", "add_webhook" (``url``, ``flavor``), "remove_webhook" or
"turn_on_webhook" (``webhook_id``: one that failing posts turned off,
server/mail/webhook_queue.py). A refused change answers 400 (403 when the link lacks the
power, 422 for a time zone not taken) with the page, the reason and what the user typed, and
changes nothing. A POST with the form body ``List-Unsubscribe=One-Click`` is a mail client's
one-click unsubscribe (RFC 8058), and "unsubscribe" from a mail's link does the same: what it
stops depends on the mail the link came in, and never a mail a game needs
(services/preferences.one_click). "No mail" at all (``mail_mode`` "none", or "unsubscribe"
signed in) is the signed-in user's choice only, and the page says plainly that the games then
wait for their deadlines with no mail. The settings form also lists the news mails
(server/mail/kinds.py: ``news``, the kinds to get, with ``news_listed``).
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request

from server import i18n
from server import db, secret_keys
from server.i18n import times
from server.mail import kinds
from server.models import User, utcnow
from server.parsing import whole
from server.services import calendar_feed, display_names, holds, links, members, time_zones, users
from server.services import preferences as prefs
from server.web.accounts import check_form, refused_name
from server.web.pages import page, reader
from server.web.words import N_, locale

bp = Blueprint("preferences", __name__)

ACTIONS = ("settings", "name", "unsubscribe", "add_webhook", "remove_webhook",
           "turn_on_webhook")
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
        return _page(session, user, prefs.power(session, user, link.mail, _signed_in_id()),
                     mail=link.mail)


@bp.post("/me/mail/<token>")
def change(token: str):
    with db.session() as session:
        found = _user(session, token)
        if found is None:
            return _not_ours()
        user, link = found
        if request.form.get("List-Unsubscribe") == "One-Click":
            return _one_click(session, user, link.mail, None)
        # The session's powers only with the page's own form (its CSRF token): a page
        # elsewhere posting to a leaked link gets no more than the link's.
        signed_in = _signed_in_id() if check_form() is None else None
        return _change(session, user, prefs.power(session, user, link.mail, signed_in),
                       link.mail)


def _one_click(session, user: User, mail: int | None, power: str | None):
    """The one-click unsubscribe of a mail's link (services/preferences.one_click): the page
    says what changed (``changed``), or that nothing did."""
    changed = prefs.one_click(session, user, mail)
    if power is None:
        power = prefs.power(session, user, mail, None)
    return _page(session, user, power, notice="one_click", changed=changed, mail=mail)


def _change(session, user: User, power: str, mail: int | None = None):
    action = request.form.get("action", "")
    try:
        if action == "unsubscribe":
            if power != prefs.EVERYTHING:  # a mail's link: never a mail a game needs
                return _one_click(session, user, mail, power)
            prefs.unsubscribe(session, user)
            return _page(session, user, power, notice="unsubscribed")
        if action == "settings":
            mail_mode, language = request.form.get("mail_mode"), request.form.get("locale")
            zone = request.form.get("time_zone")
            muted = _muted(request.form)
            _may_set(user, power, mail_mode, language, zone, muted)
            if power == prefs.EVERYTHING and "retract_hold_seconds" in request.form:
                _set_hold(session, user, request.form["retract_hold_seconds"])
            prefs.change(session, user, mail_mode, language, zone, muted)
        elif action == "name":
            if power != prefs.EVERYTHING:
                raise _Lacking(_words(user, N_(
                    "Your display name is changed from a signed-in browser: sign in, and open "
                    "your settings there.")))
            try:
                users.rename(session, user, request.form.get("display_name", ""))
            except display_names.NameRefused as refused:
                session.rollback()
                return _page(session, user, power, name_refusal=refused_name(refused,
                                                                             user.locale),
                             status=422, mail=mail)
            session.commit()
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
    except prefs.ZoneRefused as refused:
        session.rollback()
        return _page(session, user, power, refusal=time_zones.told(refused.message, user.locale),
                     status=422, mail=mail)
    except prefs.Refused as refused:
        session.rollback()
        return _page(session, user, power, refusal=str(refused),
                     status=403 if isinstance(refused, _Lacking) else 400, mail=mail)
    return _page(session, user, power, notice=action, mail=mail)


def _set_hold(session, user: User, text: str) -> None:
    """The hold of the reader's retractable moves (issue 27), in seconds, from the form."""
    seconds = whole(text.strip())
    if seconds is None or not 0 <= seconds <= holds.MAX_HOLD_SECONDS:
        raise prefs.Refused(_words(user, N_(
            "The time to take a move back is a whole number of seconds from 0 to 900.")))
    user.retract_hold_seconds = seconds
    session.add(user)


def _muted(form) -> list[str] | None:
    """The news mails the settings form stops: those of its list not ticked (None: the form
    did not list them)."""
    if not form.get("news_listed"):
        return None
    wanted = set(form.getlist("news"))
    return [k for k in kinds.INFORMATIONAL if k not in wanted]


def _may_set(user: User, power: str, mail_mode: str | None, language: str | None,
             zone: str | None = None, muted: list[str] | None = None) -> None:
    """Raise _Lacking when the request may not make this change (checked before the values,
    which prefs.change checks)."""
    if power == prefs.EVERYTHING:
        return
    if zone not in (None, user.time_zone):
        raise _Lacking(_words(user, N_(
            "A mail's link cannot change your time zone: sign in to change it.")))
    if power == prefs.UNSUBSCRIBE:
        raise _Lacking(_words(user, N_(
            "This link comes from an older mail: it can only stop mails like the one it came "
            "in. Use the link in your newest mail, or sign in.")))
    if mail_mode == "none":
        raise _Lacking(_words(user, N_(
            "Only you, signed in, can stop all mail: your games would wait for their "
            "deadlines with no mail to you. Sign in to choose it.")))
    if muted is not None and not set(user.muted_kinds or ()) <= set(muted):
        raise _Lacking(_words(user, N_(
            "A mail's link can only bring you less mail: sign in to get more.")))
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
    link = links.preferences_link(secret_keys.ring(current_app.config), token)
    user = session.get(User, link.user_id) if link is not None else None
    return (user, link) if user is not None else None


def _not_ours():
    return page("refused.html", 404, refusal="This link was not made by this server: it "
                "cannot open anybody's mail settings. Use the link at the foot of a mail "
                "from this server.")


def _page(session, user: User, power: str, *, notice: str | None = None,
          refusal: str | None = None, status: int = 200, changed: str | None = None,
          mail: int | None = None, name_refusal: str | None = None):
    """The settings page; ``mail``: the outbox row of the mail the link came in (what its
    one-click would change: ``offer``), ``changed``: what a one-click changed."""
    session.refresh(user)  # what is stored, whatever the request asked for
    current = prefs.settings(session, user)
    everything = power == prefs.EVERYTHING
    muted = set(current.muted_kinds)
    kind, offer = prefs.link_offer(session, user, mail) if not everything else (None, None)
    return page("preferences.html", status, user.locale, email=user.email,
                mail_mode=current.mail_mode, locale_setting=current.locale,
                time_zone=current.time_zone, zones=times.offered() if everything else (),
                retract_hold=user.retract_hold_seconds,
                time_now=times.moment(utcnow(), user.locale, current.time_zone),
                mail_modes=prefs.MAIL_MODES, locales=prefs.LOCALES, power=power,
                may_choose=[m for m in prefs.MAIL_MODES
                            if everything or (power == prefs.REDUCE and m != "none"
                                              and prefs.fewer(m, current.mail_mode))],
                news=[{"kind": k, "name": i18n.gettext(name, user.locale),
                       "on": k not in muted, "may": everything or k not in muted}
                      for k, name in kinds.INFORMATIONAL.items()],
                offer=offer,
                kind_name=(i18n.gettext(kinds.INFORMATIONAL[kind], user.locale)
                           if kind in kinds.INFORMATIONAL else ""),
                changed=changed,
                webhooks=([{"id": h.id, "url": prefs.masked(h.url), "flavor": h.flavor,
                            "off": h.disabled_at, "failures": h.failures,
                            "error": prefs.failure_kind(h.last_error)}
                           for h in current.webhooks] if everything else None),
                max_webhooks=prefs.MAX_WEBHOOKS, action_url=request.path,
                sign_in_url=_sign_in_url(), notice=notice, refusal=refusal,
                # issue 47: the display name (signed in only), what others see without one
                name_refusal=name_refusal, name_typed=request.form.get("display_name", ""),
                current_name=display_names.chosen(user) or "",
                neutral=i18n.gettext(display_names.NEUTRAL, user.locale) % {"n": user.id},
                shown_name=display_names.shown(
                    user, lambda m: i18n.gettext(m, user.locale)),
                max_name=display_names.MAX_LENGTH,
                typed=request.form if request.method == "POST" else {},
                members_only=everything and members.closed(current_app.config),  # issue 48
                # issue 27: the calendar feed's address, for the signed-in reader only
                calendar_url=calendar_feed.url(session, user.id,
                                               secret_keys.ring(current_app.config),
                                               current_app.config["BASE_URL"])
                if everything else None)
