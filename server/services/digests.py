"""The daily digest: one mail a day, instead of one per decision, for the users who chose it
(User.mail_mode "digest"), listing every game waiting for them (server/mail/recipients.py).

``write_due`` runs from beat: once the day's DIGEST_HOUR (UTC) has come, it writes for each
such user a Digest row (unique per user and day) and the outbox row of the mail, in one
transaction: however often it runs, a user gets one digest a day. Whether anything is waiting
is decided when the mail is written, so a day with nothing to do sends nothing.

A digest describes only final moves (issue 27): a move handed to the reader that its mover may
still take back (services/retract.py: held, unseen) is not listed. So that such a move is not
left for the next day's digest, the row waits (``not_before``) until the last of those holds
ends (15 minutes at most: services/holds.py); a hold that starts after the row was written is
left out when the mail is built (server/mail/recipients.py).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import Digest, OutboxMessage, User
from server.services import retract


def write_due(engine: Engine, now: datetime, hour: int) -> int:
    if now.hour < hour:
        return 0
    day = now.date().isoformat()
    with Session(engine) as session:
        waiting = session.exec(select(User.id).where(User.mail_mode == "digest").where(
            User.id.not_in(select(Digest.user_id).where(Digest.day == day)))).all()
    written = 0
    for user_id in waiting:
        with Session(engine) as session:
            held = retract.holds_on(session, user_id, now)
            session.add(Digest(user_id=user_id, day=day))
            session.add(OutboxMessage(kind="digest", payload={"user_id": user_id, "day": day},
                                      not_before=held))
            try:
                session.commit()
                written += 1
            except IntegrityError:  # another run wrote it
                session.rollback()
    return written
