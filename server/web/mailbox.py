"""The mail catcher's page (embedded default): every mail the server sent, as the player would
see it, with working links, so one person can try a game from both seats in one browser.

The `mail` process keeps what it catches in MAIL_CATCHER_DIR (one .eml each); this page only
reads them. Off (404) when MAIL_CATCHER is false: with a real SMTP server there is nothing here.
"""

from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

from flask import Blueprint, abort, current_app, make_response

from server.web.pages import page

bp = Blueprint("mailbox", __name__)

_NAME = re.compile(r"^[0-9a-f]{32}$")
LISTED = 200


def _folder() -> Path:
    if not current_app.config["MAIL_CATCHER"]:
        abort(404)
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
    return page("mail.html", name=name, to=message["To"], subject=message["Subject"],
                date=message["Date"], reply_to=message["Reply-To"],
                text=_part(message, "plain"))


@bp.get("/mail/<name>/html")
def html(name: str):
    """The HTML part alone, for the page's sandboxed frame (no scripts; links open on top)."""
    response = make_response(_part(_message(name), "html"))
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Content-Security-Policy"] = (
        "sandbox allow-top-navigation-by-user-activation allow-popups; script-src 'none'")
    return response


def _message(name: str):
    if not _NAME.match(name):
        abort(404)
    path = _folder() / f"{name}.eml"
    if not path.exists():
        abort(404)
    return _read(path)
