"""Rendering of the pages in templates/web: Jinja2 with autoescaping and the same Babel
catalogues as the mails, in the reader's language; times in the reader's zone with its offset
(the signed-in user's ``time_zone``, else UTC): the filters ``when`` (date, time and offset)
and ``day`` (the date), server/i18n/times.py."""

from __future__ import annotations

from functools import lru_cache, partial, wraps
from pathlib import Path

from babel.numbers import format_decimal
from flask import current_app, make_response, redirect
from flask_login import current_user
from flask_wtf.csrf import generate_csrf
from jinja2 import Environment, StrictUndefined, pass_context, select_autoescape
from markupsafe import Markup, escape

from server import i18n
from server.i18n import times
from server.security_headers import csp_nonce
from server.services import presence
from server.games.templates import GameTemplates

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "web"


@lru_cache(maxsize=None)
def environment(locale: str) -> Environment:
    env = Environment(loader=GameTemplates(TEMPLATES, "web"), undefined=StrictUndefined,
                      autoescape=select_autoescape(default=True),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.install_gettext_translations(i18n.translations(locale), newstyle=True)
    env.filters["quoted"] = partial(i18n.quoted, locale=locale)
    env.filters["when"] = _when
    env.filters["day"] = _day
    env.filters["calendar_day"] = partial(times.calendar_day, locale=locale)
    env.filters["number"] = partial(format_decimal, locale=i18n.supported(locale))
    env.globals["csp_nonce"] = csp_nonce  # every inline <script> carries it (security_headers)
    # Issue 46, item 5: the game page states how long a watched decision's mail waits.
    env.globals["presence_minutes"] = lambda: presence.minutes(current_app.config)
    env.globals["presence_beat_ms"] = presence.BEAT_SECONDS * 1000
    return env


@pass_context
def _when(context, moment) -> Markup:
    """A moment in the reader's zone with its offset, in a ``<time>`` that carries it in UTC."""
    shown = times.moment(moment, context["locale"], context.get("time_zone"))
    return Markup('<time datetime="%s">%s</time>') % (times.iso(moment), escape(shown))


@pass_context
def _day(context, moment) -> str:
    """The date of a moment in the reader's zone."""
    return times.day(moment, context["locale"], context.get("time_zone"))


def reader():
    """The signed-in reader (server/web/accounts.py), or None."""
    return current_user if current_user.is_authenticated else None


def signed_in_only(back):
    """For a view only a signed-in reader may use: anybody else is sent to sign in, and then
    back to ``back`` (a path, or a function of the view's arguments that gives it). The view
    gets the reader as its keyword argument ``signed_in``."""
    def decorate(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            who = reader()
            if who is None:
                path = back(**kwargs) if callable(back) else back
                return redirect(f"/sign-in?next={path}", 303)
            return view(*args, signed_in=who, **kwargs)
        return wrapper
    return decorate


def page(template: str, status: int = 200, locale: str = "en", **context):
    """The template in ``locale`` with the reader (``user``) and the forms' ``csrf_token``."""
    context.setdefault("user", reader())
    context.setdefault("time_zone", getattr(context["user"], "time_zone", None)
                       or times.DEFAULT_ZONE)
    html = environment(i18n.supported(locale)).get_template(template).render(
        locale=i18n.supported(locale), csrf_token=generate_csrf, **context)
    response = make_response(html, status)
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    # A decision page is for its reader only; never kept by a shared cache.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the URL carries the link's token
    return response
