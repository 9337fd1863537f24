"""Rendering of the pages in templates/web: Jinja2 with autoescaping and the same Babel
catalogues as the mails, in the reader's language."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import make_response
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from server.mail import render as mail_render

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "web"


@lru_cache(maxsize=None)
def environment(locale: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                      autoescape=select_autoescape(default=True),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.install_gettext_translations(mail_render.translations(locale), newstyle=True)
    return env


def page(template: str, status: int = 200, locale: str = "en", **context):
    from flask_login import current_user
    from flask_wtf.csrf import generate_csrf

    context.setdefault("user", current_user if current_user.is_authenticated else None)
    html = environment(mail_render.supported(locale)).get_template(template).render(
        locale=mail_render.supported(locale), csrf_token=generate_csrf, **context)
    response = make_response(html, status)
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    # A decision page is for its reader only; never kept by a shared cache.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the URL carries the link's token
    return response
