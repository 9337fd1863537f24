"""Pages for people (not the API): decisions reached from mail links, the local mail catcher,
the help pages (every game's notation, and how this server plays a game), the mail preferences
of a mail's signed link, the inbound mail hook; sign-in by mail, the lobby and the game page
with its board and decision form (every game's, through its presenter: server/games); a
finished game's replay and printable result."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from server.web import (accounts, board, decide, help, inbound, lobby, mailbox,
                            preferences, replay, standing_orders, tokens)

    accounts.init_app(app)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(board.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(standing_orders.bp)
    from server.web import calendar, notes, your_data
    app.register_blueprint(notes.bp)          # issue 27: private notes
    app.register_blueprint(your_data.bp)      # issue 27: your data, deleting the account
    app.register_blueprint(calendar.bp)       # issue 27: the calendar feed
    from server.web import chat
    app.register_blueprint(chat.bp)  # issue 27: table talk

    app.register_blueprint(decide.bp)
    app.register_blueprint(mailbox.bp)
    app.register_blueprint(help.bp)
    app.register_blueprint(preferences.bp)
    app.register_blueprint(inbound.bp)
    app.register_blueprint(tokens.bp)
    from server.web import schedule
    app.register_blueprint(schedule.bp)  # vacations, quiet hours, pauses, extensions
    from server.web import absence_links
    app.register_blueprint(absence_links.bp)  # issue 46 item 1: an absence mail's choice links
    from server.web import retract
    app.register_blueprint(retract.bp)  # issue 27: taking a move back
    from server.web import rematch, ratings
    app.register_blueprint(rematch.bp)   # issue 27 item 6: rematches
    app.register_blueprint(ratings.bp)   # issue 27 item 6: the ladder and players' pages
    from server.web import presence
    app.register_blueprint(presence.bp)  # issue 46 item 5: no mail while you watch
    from server.web import absences
    app.register_blueprint(absences.bp)  # issue 46 item 1: absent seats, the replacement
    from server.web import live
    app.register_blueprint(live.bp)  # the game page's live news (server-sent events)
    from server.web import members
    app.register_blueprint(members.bp)  # issue 48 item 1: a members-only club's invitations
    from server.web import error_pages
    error_pages.init_app(app)  # issue 47 item 7: styled error pages in the reader's language
