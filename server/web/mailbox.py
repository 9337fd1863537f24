"""The mail catcher's page (embedded default): every mail the server sent, as the player would
see it, with working links, so one person can try a game from both seats in one browser.

The `mail` process keeps what it catches in MAIL_CATCHER_DIR (one .eml each); this page only
reads them. Off (404) when MAIL_CATCHER is false: with a real SMTP server there is nothing here.
It shows sign-in links, so it answers only on a server only this machine reaches (BASE_URL a
loopback address, the same check as /metrics without its token); on any other, 403.
"""

from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, make_response

from server.config import is_loopback_url
from server.web.pages import page

bp = Blueprint("mailbox", __name__)

_NAME = re.compile(r"^[0-9a-f]{32}$")
LISTED = 200


def _folder() -> Path:
    if not current_app.config["MAIL_CATCHER"]:
        abort(404)
    if not is_loopback_url(current_app.config.get("BASE_URL", "")):
        # Every mail sent, sign-in links included: for the person at this machine only.
        abort(Response("The mail catcher's pages (/mail) are shown only on a server whose "
                       "WHISTLESTOP_BASE_URL is a loopback address; on a public server, send "
                       "mail through a real SMTP server and set WHISTLESTOP_MAIL_CATCHER=false.\n",
                       status=403, mimetype="text/plain"))
    return Path(current_app.config["MAIL_CATCHER_DIR"])


def _read(path: Path) -> email.message.EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=policy.default)


def _part(message, kind: str) -> str:
    part = message.get_body((kind,))
    return part.get_content() if part is not None else ""


@bp.get("/mail")
def index():
    folder = _folder()
    paths = sorted(folder.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    rows = []
    for path in paths[:LISTED]:
        message = _read(path)
        rows.append({"name": path.stem, "to": message["To"], "subject": message["Subject"],
                     "date": message["Date"]})
    return page("mailbox.html", mails=rows, total=len(paths))


@bp.get("/mail/<name>")
def show(name: str):
    message = _message(name)
    return page("mail.html", name=name, sandbox=SANDBOX, to=message["To"],
                subject=message["Subject"],
                date=message["Date"], reply_to=message["Reply-To"],
                text=_part(message, "plain"))


# The frame's sandbox: no scripts, no forms, an opaque origin (so no cookies): a link followed
# inside the frame would open the game's pages there, where "Sign in" and "Commit" cannot work.
# A link clicked opens at the top level instead (``TOP``, and the navigation the sandbox allows
# on a click); one opened in a new tab is an ordinary page there (escapes the sandbox). The mail
# still runs no script: neither flag allows one.
SANDBOX = ("allow-top-navigation-by-user-activation allow-popups "
           "allow-popups-to-escape-sandbox")
TOP = '<base target="_top">'
_HEAD = re.compile(r"<head\b[^>]*>", re.I)


def top_level(markup: str) -> str:
    """The mail's HTML with its links opening at the top level (a ``<base target="_top">``
    first in its head; a link naming its own target keeps it)."""
    head = _HEAD.search(markup)
    if head is None:
        return TOP + markup
    return markup[:head.end()] + TOP + markup[head.end():]


@bp.get("/mail/<name>/html")
def html(name: str):
    """The HTML part alone, for the page's sandboxed frame (no scripts; links open on top)."""
    response = make_response(top_level(_part(_message(name), "html")))
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Content-Security-Policy"] = f"sandbox {SANDBOX}; script-src 'none'"
    return response


def _message(name: str):
    if not _NAME.match(name):
        abort(404)
    path = _folder() / f"{name}.eml"
    if not path.exists():
        abort(404)
    return _read(path)
