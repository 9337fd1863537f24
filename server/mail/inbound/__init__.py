"""Inbound mail: a player's reply read from its raw bytes, with no database and no I/O.

`read_reply(raw, domain)` tells a person's reply (kind "order", with the lines they wrote above
the quoted mail, or below it when nothing stands above it) from auto-replies, bounces and mail
with no readable text, and gives the reply token of its r+TOKEN@domain recipient and the ids to
thread an answer. What mail programs write around a reply is one table: reply_markers.py.
"""

from server.mail.inbound.read import read_reply
from server.mail.inbound.reply import Kind, Reply

__all__ = ["Kind", "Reply", "read_reply"]
