"""The table-talk mails (server/services/chat.py): the builders of the outbox kinds
"table_talk" (a reader's unread lines, batched: one mail per unread period) and "chat_report"
(a reported line, to the operator's address).

A "table_talk" row is written when a line arrives for a reader with no such mail waiting, and
is sent after CHAT_MAIL_DELAY_SECONDS (workers/tasks.py ``chat_mail``); when it is built it
carries every line still unread then, never a line of a user the reader mutes, and nothing at
all when the reader has read meanwhile (their marker no longer names this row) or may no
longer read the channel. Its reply address is the chat's own (server/mail/chat_address.py):
a reply is posted to the chat, never read as an order.
"""

from __future__ import annotations

from sqlmodel import Session, select

from server.games import presenter
from server.i18n import gettext, times
from server.mail import chat_address
from server.models import ChatMessage, ChatReport, Game, User
from server.services import chat, display_names


def _authors(session: Session, ids: set[int]) -> dict[int, User]:
    return {u.id: u for u in session.exec(select(User).where(User.id.in_(ids)))} if ids else {}


def table_talk(session: Session, payload: dict, settings) -> list[dict]:
    """The reader's unread lines of one channel, if this row is still the mail waiting for
    them; else nothing."""
    game = session.get(Game, payload["game_id"])
    user = session.get(User, payload["user_id"])
    channel = payload["channel"]
    if game is None or chat.deleted(user):
        return []
    if chat.waiting_mail(session, game.id, channel, user.id) != payload.get("outbox_id"):
        return []  # read meanwhile: a later line wrote its own row
    if user.id not in chat.readers(session, game, channel):
        return []
    found = chat.unread_lines(session, game.id, channel, user.id)
    if not found:
        return []
    loc = user.locale
    shown = presenter(game.game_type)
    seats = shown.seat_names(loc)
    authors = _authors(session, {line.user_id for line in found})
    lines = [{"author": display_names.shown(authors.get(line.user_id),
                                            lambda m: gettext(m, loc))
              if line.user_id in authors else "",
              "seat": seats.get(line.seat, line.seat) if line.seat else "",
              "when": times.short(line.created_at, loc, user.time_zone),
              "body": line.body} for line in found]
    context = talk_context(game.id, shown.title(loc), loc, channel == chat.SPECTATORS, lines,
                           settings.links)
    reply = chat_address.address(settings.secret, settings.domain, game.id, channel, user.id)
    return [dict(recipient=f"chat:{channel}:{user.id}", address=user.email, locale=loc,
                 kind="table_talk", context=context, game_id=game.id, user_id=user.id,
                 reply_address=reply)]


def chat_report(session: Session, payload: dict, settings) -> list[dict]:
    """A reported line, to the operator's address (in English: the operator's language is not
    known)."""
    report = session.get(ChatReport, payload["report_id"])
    message = session.get(ChatMessage, report.message_id) if report else None
    if message is None or not payload.get("address"):
        return []
    context = report_context(report.id, message.id, message.game_id, message.channel,
                             message.user_id, report.user_id, report.reason, message.body,
                             message.created_at, settings.links)
    return [dict(recipient=f"operator:{report.id}", address=payload["address"], locale="en",
                 kind="chat_report", context=context, game_id=message.game_id)]


def chat_answer(session: Session, payload: dict, settings) -> list[dict]:
    """The answer to a reply to a table-talk mail that was not posted, and why (in the
    reader's language), in the reply's thread."""
    user = session.get(User, payload["user_id"])
    game = session.get(Game, payload["game_id"])
    if user is None or game is None:
        return []
    loc = user.locale
    reason = gettext(payload["template"], loc)
    values = payload.get("values") or {}
    context = answer_context(game.id, presenter(game.game_type).title(loc), loc,
                             display_names.shown(user, lambda m: gettext(m, loc)),
                             reason % values if values else reason, settings.links)
    reply = chat_address.address(settings.secret, settings.domain, game.id, payload["channel"],
                                 user.id)
    return [dict(recipient=f"user:{user.id}", address=user.email, locale=loc,
                 kind="chat_answer", context=context, game_id=game.id, user_id=user.id,
                 answers=payload.get("reply_message_id"), reply_address=reply)]


# --- the templates' contexts (tests/mail/test_templates.py renders them with fixed inputs) ---
def talk_context(game_id: int, game_title: str, locale: str, spectators: bool,
                 lines: list[dict], links) -> dict:
    """``lines``: {"author", "seat" (its name, or ""), "when" (in the reader's zone), "body"}."""
    return {"game_id": game_id, "game_title": game_title, "locale": locale,
            "spectators": spectators, "lines": lines, "count": len(lines),
            "game_url": links.game(game_id) + "#table-talk",
            "preferences_url": links.preferences()}


def report_context(report_id: int, message_id: int, game_id: int, channel: str, author_id: int,
                   reporter_id: int, reason: str, body: str, posted, links) -> dict:
    return {"report_id": report_id, "message_id": message_id, "game_id": game_id,
            "channel": channel, "author_id": author_id, "reporter_id": reporter_id,
            "reason": reason, "body": body, "posted": times.iso(posted), "locale": "en",
            "game_url": links.game(game_id), "preferences_url": links.preferences()}


def answer_context(game_id: int, game_title: str, locale: str, player_name: str, reason: str,
                   links) -> dict:
    return {"game_id": game_id, "game_title": game_title, "locale": locale,
            "player_name": player_name, "reason": reason,
            "game_url": links.game(game_id) + "#table-talk",
            "preferences_url": links.preferences()}
