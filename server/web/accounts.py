"""Who is reading a page: sign-in by a link sent by mail (server/services/sign_in.py), the
browser kept signed in by Flask-Login's session cookie, and the CSRF token every form of the
pages carries (Flask-WTF). The API keeps its bearer tokens; a mail's signed links need no
sign-in (the link is the proof)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask import Blueprint, Flask, current_app, redirect, request, session as cookie
from flask_login import LoginManager, login_user, logout_user
from flask_wtf.csrf import validate_csrf
from sqlalchemy import update
from wtforms import ValidationError as CsrfRefused

from server import i18n
from server import db, rate_limits, secret_keys
from server.models import User
from server.services import display_names, members, sign_in, time_zones, users
from server.web.pages import page, reader
from server.web.words import N_, _, locale
from server.parsing import whole

bp = Blueprint("accounts", __name__)
login_manager = LoginManager()


@dataclass(frozen=True)
class WebUser:
    """The signed-in reader, as Flask-Login keeps it for a request."""
    id: int
    email: str
    locale: str
    epoch: int = 0
    email_verified_at: object = None     # a datetime once the address is proven
    time_zone: str = "UTC"     # the zone the pages show times in (server/i18n/times.py)
    is_authenticated: bool = True
    is_active: bool = True
    is_anonymous: bool = False

    def get_id(self) -> str:
        """What the session cookie keeps: the user id and the account's session epoch."""
        return f"{self.id}.{self.epoch}"

    @classmethod
    def of(cls, user: User) -> "WebUser":
        return cls(user.id, user.email, user.locale, user.session_epoch or 0,
                   user.email_verified_at, user.time_zone or "UTC")


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    # Flask's defaults already hold these keys, so they are set, not set by default: the
    # session cookie is the browser's own (HttpOnly), not sent by other sites' posts (Lax),
    # only over HTTPS when the server is (Secure), and kept SESSION_DAYS (README, Security).
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(days=float(app.config["SESSION_DAYS"]))
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_SECURE"] = app.config["BASE_URL"].startswith("https:")
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a page may stay open for days
    if app.config.get("SECRET_KEY_FALLBACKS") and "WTF_CSRF_SECRET_KEY" not in app.config:
        # A form on a page shown before a key rotation still posts: its token checks with
        # every key of the ring (server/secret_keys.py), new ones are signed with the newest.
        app.config["WTF_CSRF_SECRET_KEY"] = list(secret_keys.ring(app.config))
    app.register_blueprint(bp)


@login_manager.user_loader
def _load(session_id: str) -> WebUser | None:
    """The signed-in reader of a session cookie ("<user id>.<epoch>"): none when the account
    has signed out since the cookie was made (its epoch is older)."""
    user_id, _dot, epoch = session_id.partition(".")
    if whole(user_id) is None or whole(epoch) is None:
        return None
    with db.reading(db.session()) as session:
        user = session.get(User, int(user_id))
        if user is None or (user.session_epoch or 0) != int(epoch):
            return None
        return WebUser.of(user)


def check_form() -> str | None:
    """None when the form carries this browser's CSRF token; else why it is refused."""
    try:
        validate_csrf(request.form.get("csrf_token"))
        return None
    except CsrfRefused:
        return _("This form has expired or did not come from this site: reload the page and "
                 "try again.")


is_email = users.is_address   # the one check of an address (server/services/users.py)


def sign_in_page(next_path: str = "/", status: int = 200, error: str | None = None,
                 email: str = ""):
    return page("sign_in.html", status, locale(), next=sign_in.safe_next(next_path),
                error=error, email=email, members_only=members.closed(current_app.config))


@bp.get("/help/names")
def names_help():
    """Which characters a display name may have, and why (issue 47; the rule:
    services/display_names.py)."""
    return page("help_names.html", 200, locale(), most=display_names.MAX_LENGTH)


class MailRefusal:
    """Why no mail goes to an address typed on a page: its answer's status, the reason in
    the reader's words, and the seconds to wait (a 429's Retry-After) or None."""

    def __init__(self, status: int, reason: str, retry_after: int | None = None):
        self.status, self.reason, self.retry_after = status, reason, retry_after


def mail_refusal(email: str) -> MailRefusal | None:
    """The one check before a page mails a typed address (the sign-in page, a club
    invitation): an address, not in a reserved domain (nobody's mailbox, and the deleted
    accounts' tombstones), and within the sign-in mails' limits (the client first: one past
    its own limit uses up nothing of the address's). None: the mail may go."""
    if not is_email(email):
        return MailRefusal(422, _("Give the email address you play with, like "
                                  "name@example.org."))
    domain = users.reserved_domain(email)
    if domain is not None:
        return MailRefusal(422, _(
            "No mail can reach an address in the reserved domain “.%(domain)s”: give the "
            "email address you play with.", domain=domain))
    try:  # a mail to somebody's address costs them: not too many, nor from one client
        rate_limits.hit("sign_in_client", rate_limits.client())
        rate_limits.hit("sign_in_address", users.normalize_email(email))
    except rate_limits.TooMany as too_many:
        return MailRefusal(429, _(
            "Too many sign-in mails were asked for just now; try again in %(minutes)s "
            "minutes.", minutes=max(1, too_many.retry_after // 60)), too_many.retry_after)
    return None


def refused_with(answer, refusal: MailRefusal):
    """``answer`` (the page refusing) with the refusal's Retry-After, if any."""
    if refusal.retry_after is not None:
        answer.headers["Retry-After"] = str(refusal.retry_after)
    return answer


@bp.get("/sign-in")
def ask():
    return sign_in_page(request.args.get("next", "/"))


@bp.post("/sign-in")
def send():
    next_path = sign_in.safe_next(request.form.get("next"))
    refused = check_form()
    email = (request.form.get("email") or "").strip()
    if refused:
        return sign_in_page(next_path, 400, refused, email)
    refusal = mail_refusal(email)
    if refusal is not None:
        return refused_with(sign_in_page(next_path, refusal.status, refusal.reason, email),
                            refusal)
    closed = members.closed(current_app.config)
    with db.session() as session:
        # A members-only club (issue 48) makes no account for a stranger's address: the
        # row is written all the same and mails nothing (services/members.py).
        user = members.account_for_sign_in(session, email, locale(), closed, next_path)
        members.request_sign_in(session, user, next_path)
        session.commit()
    # The same answer whether or not the address had an account.
    return page("sign_in_sent.html", 200, locale(), email=email, members_only=closed)


@bp.get("/sign-in/<token>")
def confirm(token: str):
    """The mail's link: a button, nothing done (mail scanners open links)."""
    with db.reading(db.session()) as session:
        try:
            user, next_path, _digest = sign_in.read(
                session, secret_keys.ring(current_app.config), token,
                current_app.config["SIGN_IN_MAX_AGE_SECONDS"])
        except sign_in.SignInRefused as refused:
            return _refused(refused.kind)
        return _confirm_page(user)


def _confirm_page(user: User, status: int = 200, refusal: str | None = None):
    """The sign-in link's page: a button, and (issue 47) the display name asked of an account
    that has none yet (optional; others see "Player <id>" until one is chosen)."""
    loc = i18n.supported(user.locale)
    return page("sign_in_confirm.html", status, loc, email=user.email, action=request.path,
                ask_name=display_names.chosen(user) is None,
                neutral=display_names.shown(user, lambda m: i18n.gettext(m, loc)),
                name_typed=request.form.get("display_name", ""), name_refusal=refusal,
                current_name="", max_name=display_names.MAX_LENGTH)


def refused_name(refused: display_names.NameRefused, loc: str) -> str:
    """Why the rule of names refused a name, in ``loc``'s words."""
    return i18n.gettext(refused.template, loc) % refused.values if refused.values \
        else i18n.gettext(refused.template, loc)


@bp.post("/sign-in/<token>")
def enter(token: str):
    refused = check_form()
    if refused:
        return sign_in_page("/", 400, refused)
    with db.session() as session:
        try:
            user, next_path, digest = sign_in.read(
                session, secret_keys.ring(current_app.config), token,
                current_app.config["SIGN_IN_MAX_AGE_SECONDS"])
        except sign_in.SignInRefused as refused:
            return _refused(refused.kind)
        # The browser's time zone (the page's script fills ``time_zone``), taken by an account
        # that still has the default; committed with the link's use, or not at all.
        time_zones.take_browsers(session, user, request.form.get("time_zone"))
        # The name asked of an account without one (issue 47): a refusal keeps the link good
        # and what was typed, and says why in the reader's words.
        typed = (request.form.get("display_name") or "").strip()
        if typed and display_names.chosen(user) is None:
            try:
                users.rename(session, user, typed)
            except display_names.NameRefused as refused:
                session.rollback()
                return _confirm_page(user, 422, refused_name(
                    refused, i18n.supported(user.locale)))
        # Everything that could fail comes before the link is used up: a failure here leaves
        # the link good for another try.
        login_user(WebUser.of(user), remember=False)
        cookie.permanent = True
        answer = redirect(next_path, 303)
        try:
            sign_in.use(session, user, digest)
        except sign_in.SignInRefused as refused:  # used meanwhile by another request
            logout_user()
            return _refused(refused.kind)
    return answer


@bp.post("/sign-out")
def leave():
    """Sign out: the account's session epoch moves on, so this cookie and every other copy of a
    session of the account (another browser, a stolen cookie) are signed out on the server."""
    if check_form() is None:
        signed_in = reader()
        if signed_in is not None:
            with db.session() as session:
                session.execute(update(User).where(User.id == signed_in.id)
                                .values(session_epoch=User.session_epoch + 1))
                session.commit()
        logout_user()
    return redirect("/", 303)



REFUSALS = {
    "expired": (410, N_("This sign-in link has expired. Ask for a new one below.")),
    "tampered": (400, N_("This sign-in link is damaged or was not made by this server. Copy "
                         "the whole link from the mail, or ask for a new one below.")),
    "used": (409, N_("This sign-in link has been used already: each works once. Ask for a "
                     "new one below.")),
    "void": (410, N_("This sign-in link no longer works: its account was deleted, or signed "
                     "out everywhere, since it was mailed.")),
}


def _refused(kind: str):
    status, reason = REFUSALS[kind]
    return sign_in_page("/", status, _(reason))
