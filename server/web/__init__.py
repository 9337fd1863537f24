"""Pages for people (not the API): decisions reached from mail links, the local mail catcher,
the notation help, the mail preferences of a mail's signed link; and the inbound mail hook.
The full web side (lobby, board, replay) comes with issue 6."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from server.web import decide, help, inbound, mailbox, preferences

    app.register_blueprint(decide.bp)
    app.register_blueprint(mailbox.bp)
    app.register_blueprint(help.bp)
    app.register_blueprint(preferences.bp)
    app.register_blueprint(inbound.bp)
