"""The daily digest: one mail a day, instead of one per decision, for the users who chose it
(User.mail_mode "digest"), listing every game waiting for them (server/mail/recipients.py).

``write_due`` runs from beat: once the day's DIGEST_HOUR (UTC) has come, it writes for each
such user a Digest row (unique per user and day) and the outbox row of the mail, in one
transaction: however often it runs, a user gets one digest a day. Whether anything is waiting
is decided when the mail is written, so a day with nothing to do sends nothing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import Digest, OutboxMessage, User


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
            session.add(Digest(user_id=user_id, day=day))
            session.add(OutboxMessage(kind="digest", payload={"user_id": user_id, "day": day}))
            try:
                session.commit()
                written += 1
            except IntegrityError:  # another run wrote it
                session.rollback()
    return written
