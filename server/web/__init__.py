"""Pages for people (not the API): decisions reached from mail links, the local mail catcher.
The full web side (lobby, board, replay) comes with issue 6."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from server.web import decide, mailbox

    app.register_blueprint(decide.bp)
    app.register_blueprint(mailbox.bp)
