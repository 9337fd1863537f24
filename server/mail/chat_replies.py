"""Replies to table-talk mails: posted to the chat (issue 27, item 1).

The rule: a reply to a table-talk mail's address (``r+c<game>-<p|s>-<user>-<mac>``,
server/mail/chat_address.py) is posted, as written above the quoted mail, as a line of that
game's chat channel by that user - whatever it says: a line that looks like an order is talk,
never applied. A reply to a decision mail's address (``r+<game>-<seat>-<mac>``) is read as
orders only (server/mail/replies.py), never posted. Quoted text, attribution lines, client
footers and a closing signature are left out by the same reader as orders'
(server/mail/inbound). As for orders, the mail must come From the user's proven address with
no DMARC, DKIM or SPF failure reported; anything else is neither posted nor answered. An
empty reply, or one the chat refuses (the game is over, too long), is answered in the mail's
thread saying that nothing was posted and why.
"""

from __future__ import annotations

import logging

from flask import current_app, has_app_context
from sqlalchemy.engine import Engine
from sqlmodel import Session

from server import db
from server.catalogue import N_
from server.mail import chat_address
from server.mail.inbound import Reply
from server.models import Game, OutboxMessage, User
from server.services import chat, users

log = logging.getLogger("whistlestop.replies")

ANSWER_KIND = "chat_answer"


def is_chat(reply: Reply) -> bool:
    """Whether the reply went to a table-talk address (then it is never read as orders)."""
    return chat_address.parse(reply.token) is not None


def handle(engine: Engine, inbound_id: int, message_id: int | None, reply: Reply,
           secret, finish, mark) -> str:
    """Post the reply to the chat, or say why not; ``finish`` and ``mark`` are the reply
    handler's (server/mail/replies.py): mark the mail handled, with its outcome, once."""
    parsed = chat_address.parse(reply.token)
    if not chat_address.verify(secret, parsed):
        finish(engine, inbound_id, message_id, {"kind": "unknown", "token": reply.token,
                                                "answered": False}, [])
        return "unknown"
    with Session(engine) as session:
        db.reading(session)
        user = session.get(User, parsed.user_id)
        proven = user is not None and users.proven(user) and not chat.deleted(user)
        email = user.email if user is not None else None
    if not proven or reply.sender is None or users.normalize_email(reply.sender) != email \
            or reply.auth_failed:
        log.info("inbound #%s: chat reply for game %s not from its user", inbound_id,
                 parsed.game_id)
        finish(engine, inbound_id, message_id, {"kind": "foreign", "chat": True,
                                                "game_id": parsed.game_id}, [])
        return "foreign"
    body = "\n".join(reply.lines)
    answer = {"user_id": parsed.user_id, "game_id": parsed.game_id, "channel": parsed.channel,
              "reply_message_id": reply.message_id}
    with Session(engine) as session:
        game = session.get(Game, parsed.game_id)
        user = session.get(User, parsed.user_id)
        try:
            if not body.strip():
                raise chat.ChatRefused("invalid", N_("The reply had no text above the quoted "
                                                     "mail."))
            if game is None:
                raise chat.ChatRefused("not_found", N_("There is no such chat for you in this "
                                                       "game."))
            mark(session, inbound_id, message_id, {"kind": "chat", "status": "posted"})
            row = chat.post(session, game, user, parsed.channel, body, _delay())
            session.flush()
            posted = row.id
            session.commit()
        except chat.ChatRefused as exc:
            session.rollback()
            finish(engine, inbound_id, message_id, {"kind": "chat", "status": "refused",
                                                    "reason": exc.reason},
                   [OutboxMessage(kind=ANSWER_KIND, payload={
                       **answer, "template": exc.template, "values": exc.values})])
            return "chat"
    log.info("inbound #%s posted as chat line %s", inbound_id, posted)
    return "chat"


def _delay() -> float:
    if has_app_context():
        return float(current_app.config.get("CHAT_MAIL_DELAY_SECONDS", chat.DEFAULT_MAIL_DELAY))
    return chat.DEFAULT_MAIL_DELAY
