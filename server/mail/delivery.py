"""Send the mails of one outbox row: each recipient's mail at most once.

For every envelope (``recipients.envelopes``) the sender first *claims* the mail: a MailSent row
("sending") unique per outbox row and recipient, committed before the SMTP exchange. A second
run of the task (the relay sends a row again while the first run waits out an SMTP outage)
finds the claim and leaves the mail alone; a claim older than ``lease`` seconds belonged to a
run that died, and is taken over. After the exchange the row says "sent" (or "refused", with
the server's permanent answer). A temporary failure releases the claim and raises, so the task
retries with backoff. What remains is a crash between the server's 250 and our commit: the mail
is sent again after the lease, with the same Message-ID, which mail systems recognize.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Callable

from sqlalchemy import delete, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server import db
from server.mail import compose, recipients, render, smtp
from server.mail.recipients import Envelope, MailSettings
from server.models import AutoOrder, MailSent, OutboxMessage, Seat, aware, utcnow
from server.services import links, outbox

log = logging.getLogger("whistlestop.mail")

LEASE = 300.0  # seconds a claim keeps other runs off a mail (SMTP_TIMEOUT is far shorter)


class Busy(Exception):
    """Another run is sending one of this row's mails right now: try again later."""


def deliver(engine: Engine, message_id: int, settings: MailSettings,
            transport: smtp.SmtpSettings, lease: float = LEASE,
            before_consumed: Callable[[list[Envelope]], None] | None = None) -> str | None:
    """Send what the outbox row ``message_id`` calls for; then mark the row consumed.

    ``before_consumed(envelopes)`` runs after the mails, with the mails' envelopes, before the
    row is marked consumed (the webhooks): if it raises, the row stays unconsumed and is sent
    again, mails skipped.

    Returns "sent" (n mails), "duplicate" (the row was consumed already), or None (no such
    row). Raises smtp.TemporaryFailure (retry later) or Busy.
    """
    with Session(engine) as session:
        db.reading(session)
        row = session.get(OutboxMessage, message_id)
        if row is None:
            return None
        if row.delivered_at is not None:
            return "duplicate"
        mails = recipients.envelopes(session, row, settings)
        kind = row.kind
    tag = compose.install_tag(settings.secret)
    sent = 0
    with smtp.Connection(transport) as connection:
        for envelope in mails:
            if not _claim(engine, message_id, envelope, settings, tag, lease):
                continue
            message = _message(message_id, envelope, settings, tag)
            try:
                connection.send(message)
            except smtp.TemporaryFailure:
                _release(engine, message_id, envelope.recipient)
                raise
            except smtp.PermanentFailure as exc:
                log.warning("mail #%s to %s refused for good: %s", message_id,
                            envelope.address, exc)
                _done(engine, message_id, envelope, "refused", str(exc)[:2000])
                continue
            _done(engine, message_id, envelope, "sent", None)
            sent += 1
    if before_consumed is not None:
        before_consumed(mails)
    with Session(engine) as session:
        outbox.mark_delivered(session, message_id)
        session.commit()
    log.info("outbox #%s (%s): %s mail(s) sent", message_id, kind, sent)
    return "sent"


def _message(message_id: int, envelope: Envelope, settings: MailSettings, tag: str):
    rendered = render.render(envelope.kind, envelope.context, envelope.locale)
    thread = (compose.thread_id(envelope.game_id, envelope.seat, settings.domain, tag)
              if envelope.game_id is not None and envelope.seat else None)
    return compose.build(
        rendered, to=envelope.address, sender=settings.sender,
        sender_name=settings.sender_name,
        msg_id=_msgid(message_id, envelope.recipient, settings, tag),
        thread=thread, reply_to=recipients.reply_to(settings, envelope),
        unsubscribe_url=(links.preferences_url(settings.secret, settings.base_url,
                                               envelope.user_id)
                         if envelope.user_id is not None else settings.links.preferences()),
        unsubscribe_mailto=None,
        list_id=f"Whistlestop games <games.{settings.domain}>", date=utcnow())


def _safe(recipient: str) -> str:
    """A recipient key fit for a Message-ID's left part."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in recipient)


def _msgid(message_id: int, recipient: str, settings: MailSettings, tag: str) -> str:
    return compose.message_id(message_id, _safe(recipient), settings.domain, tag)


# --- the claim ------------------------------------------------------------------------------
def _claim(engine: Engine, message_id: int, envelope: Envelope, settings: MailSettings,
           tag: str, lease: float) -> bool:
    """Take the mail for this run; False when it is served already. Raises Busy when another
    run holds a live claim."""
    now = utcnow()
    with Session(engine) as session:
        session.add(MailSent(outbox_id=message_id, recipient=envelope.recipient,
                             address=envelope.address, kind=envelope.kind,
                             game_id=envelope.game_id, status="sending", sent_at=now,
                             step=envelope.step,
                             message_id=_msgid(message_id, envelope.recipient, settings, tag)))
        try:
            session.commit()
            return True
        except IntegrityError:
            session.rollback()
        held = session.exec(select(MailSent).where(
            MailSent.outbox_id == message_id, MailSent.recipient == envelope.recipient)).first()
        if held is None:  # released meanwhile by a run that met a temporary failure: retry
            raise Busy(f"mail #{message_id} to {envelope.recipient} was being sent")
        if held.status != "sending":
            return False
        if aware(held.sent_at) > now - timedelta(seconds=lease):
            raise Busy(f"mail #{message_id} to {envelope.recipient} is being sent")
        taken = session.execute(update(MailSent).where(
            MailSent.id == held.id, MailSent.status == "sending",
            MailSent.sent_at == held.sent_at).values(sent_at=now))
        session.commit()
        if taken.rowcount != 1:
            raise Busy(f"mail #{message_id} to {envelope.recipient} is being sent")
        return True


def _release(engine: Engine, message_id: int, recipient: str) -> None:
    with Session(engine) as session:
        session.execute(delete(MailSent).where(MailSent.outbox_id == message_id,
                                               MailSent.recipient == recipient,
                                               MailSent.status == "sending"))
        session.commit()


def _done(engine: Engine, message_id: int, envelope: Envelope, status: str,
          error: str | None) -> None:
    with Session(engine) as session:
        session.execute(update(MailSent).where(MailSent.outbox_id == message_id,
                                               MailSent.recipient == envelope.recipient)
                        .values(status=status, error=error, sent_at=utcnow()))
        if status == "sent" and envelope.notes_shown is not None:
            session.execute(update(Seat).where(Seat.game_id == envelope.game_id,
                                               Seat.seat == envelope.seat)
                            .values(notes_mailed=envelope.notes_shown))
        if status == "sent" and envelope.auto_orders:
            session.execute(update(AutoOrder).where(AutoOrder.id.in_(envelope.auto_orders),
                                                    AutoOrder.mailed_at.is_(None))
                            .values(mailed_at=utcnow()))
        session.commit()
