"""Send the mails of one outbox row: each recipient's mail at most once.

The row's mails (``recipients.envelopes``) are first *claimed*: a MailSent row ("sending")
unique per outbox row and recipient, all of the row's in one transaction committed before the
first SMTP exchange. A second run of the task (the relay sends a row again while the first run
waits out an SMTP outage) finds the claims and leaves those mails alone; a claim older than
``lease`` seconds belonged to a run that died, and is taken over. After the exchanges one
transaction says which mails were "sent" (or "refused", with the server's permanent answer)
and marks the row consumed. A temporary failure (or any error) records the mails sent so far,
releases the claims of the others and raises, so the task retries with backoff. What remains
is a crash between the server's 250 and that commit: the mail is sent again after the lease,
with the same Message-ID, which mail systems recognize.

The same notifications go to the recipients' webhooks: queued (webhook_queue.enqueue) in the
transaction that marks the row consumed, and posted on their own queue, so a slow webhook
never holds up a mail.

Two write transactions per row, whatever its number of mails, and one SMTP session per worker
process rather than per row (workers/tasks.py passes its open ``smtp.Connection``): what
bench/mail_throughput.py measures.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server import db, secret_keys
from server.mail import compose, recipients, render, smtp, webhook_queue, webhooks
from server.mail.recipients import Envelope, MailSettings
from server.models import AutoOrder, MailSent, OutboxMessage, Seat, aware, utcnow
from server.services import links, outbox, presence, reach

log = logging.getLogger("whistlestop.mail")

LEASE = 300.0  # seconds a claim keeps other runs off a mail (SMTP_TIMEOUT is far shorter)


class Busy(Exception):
    """Another run is sending one of this row's mails right now: try again later."""


Outcome = tuple[Envelope, str, "str | None"]  # the mail, "sent" or "refused", the refusal


def deliver(engine: Engine, message_id: int, settings: MailSettings,
            transport: smtp.SmtpSettings | smtp.Connection, lease: float = LEASE,
            now=None) -> str | None:
    """Send what the outbox row ``message_id`` calls for; queue its webhook posts and mark the
    row consumed (webhook_queue.queued names the posts to publish then).

    ``transport``: the SMTP server, or an open connection to it (kept open).

    A decision to a player whose game page is live (or was, less than the delay ago) is
    not sent yet: the row is held until the delay has passed (services/presence.py).
    ``now``: the clock (tests; the time now when None).

    Returns "sent", "duplicate" (the row was consumed already), "held", or None (no such
    row). Raises smtp.TemporaryFailure (retry later), or Busy.
    """
    now = now or utcnow()
    with Session(engine) as session:
        db.reading(session)
        row = session.get(OutboxMessage, message_id)
        if row is None:
            return None
        if row.delivered_at is not None:
            return "duplicate"
        if presence.early(row, now):
            return "held"
        found = recipients.envelopes(session, row, settings)
        found, held = presence.screen(session, row.kind, found, now, settings.presence_delay)
        if held is not None:
            found = []
        mails = [e for e in found if e.mail]  # the others go to the users' webhooks only
        posts = webhooks.posts(session, found)
        kind = row.kind
    if held is not None:
        presence.hold(engine, message_id, held)
        log.info("outbox #%s (%s): held until %s (its reader's page is live)", message_id,
                 kind, held.isoformat())
        return "held"
    # The newest key's: a rotation starts new threads in mail programs; replies still find
    # the mail they answer by its Message-ID, kept in MailSent.
    tag = compose.install_tag(secret_keys.newest(settings.secret))
    mine = _claim_all(engine, message_id, mails, settings, tag, lease)
    done: list[Outcome] = []
    connection = transport if isinstance(transport, smtp.Connection) else \
        smtp.Connection(transport)
    try:
        eight_bit = bool(mine) and connection.eight_bit()
        for envelope in mine:
            message = _message(message_id, envelope, settings, tag, eight_bit)
            try:
                connection.send(message, eight_bit)
            except smtp.PermanentFailure as exc:
                log.warning("mail #%s to %s refused for good: %s", message_id,
                            envelope.address, exc)
                done.append((envelope, "refused", str(exc)[:2000]))
                continue
            done.append((envelope, "sent", None))
    except BaseException:
        # What was sent is recorded; the claims of the mails not sent are given back.
        _settle_after_error(engine, message_id, done, mine[len(done):])
        raise
    finally:
        if connection is not transport:
            connection.close()
    sent = sum(status == "sent" for _mail, status, _error in done)
    # A notification its user takes on webhooks only is told there (queued now): the next one
    # says what changed since this one, as the next mail would after a mail.
    hooked = webhooks.users(posts)
    told = [e for e in found if not e.mail and e.user_id in hooked]
    _settle(engine, message_id, done, consumed=True, told=told, posts=posts)
    log.info("outbox #%s (%s): %s mail(s) sent", message_id, kind, sent)
    return "sent"


def _message(message_id: int, envelope: Envelope, settings: MailSettings, tag: str,
             eight_bit: bool = False):
    rendered = render.render(envelope.kind, envelope.context, envelope.locale)
    thread = (compose.thread_id(envelope.game_id, envelope.seat, settings.domain, tag)
              if envelope.game_id is not None and envelope.seat else None)
    return compose.build(
        rendered, to=envelope.address, sender=settings.sender,
        sender_name=settings.sender_name,
        msg_id=_msgid(message_id, envelope.recipient, settings, tag),
        thread=thread, answers=envelope.answers,
        reply_to=recipients.reply_to(settings, envelope),
        unsubscribe_url=_unsubscribe_url(message_id, envelope, settings),
        unsubscribe_mailto=None,
        list_id=f"Whistlestop games <games.{settings.domain}>", date=utcnow(),
        eight_bit=eight_bit)


def _unsubscribe_url(message_id: int, envelope: Envelope, settings: MailSettings) -> str | None:
    """The List-Unsubscribe (one-click) address of a mail: its own settings link. None for the
    confirmation of an unsubscribe: a one-click on it could only confirm again."""
    if envelope.kind == "unsubscribed":
        return None
    if envelope.user_id is None:
        return settings.links.preferences()
    return links.preferences_url(settings.secret, settings.base_url, envelope.user_id,
                                 message_id)


def _safe(recipient: str) -> str:
    """A recipient key fit for a Message-ID's left part."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in recipient)


def _msgid(message_id: int, recipient: str, settings: MailSettings, tag: str) -> str:
    return compose.message_id(message_id, _safe(recipient), settings.domain, tag)


# --- the claims -----------------------------------------------------------------------------
# The statements of every run, built once: a mail server's worth of mails a second would spend
# as long building SQLAlchemy expressions as the database spends running them.
_MAILS, _SEATS, _AUTO = MailSent.__table__, Seat.__table__, AutoOrder.__table__
_CLAIM = insert(_MAILS)
_RECORD = (update(_MAILS).where(_MAILS.c.outbox_id == bindparam("o"),
                                _MAILS.c.recipient == bindparam("r"))
           .values(status=bindparam("status"), error=bindparam("error"),
                   sent_at=bindparam("at")))
_NOTES = (update(_SEATS).where(_SEATS.c.game_id == bindparam("g"),
                               _SEATS.c.seat == bindparam("s"))
          .values(notes_mailed=bindparam("n")))
_MAILED = (update(_AUTO).where(_AUTO.c.id.in_(bindparam("ids", expanding=True)),
                               _AUTO.c.mailed_at.is_(None))
           .values(mailed_at=bindparam("at")))
_RELEASE = delete(_MAILS).where(_MAILS.c.outbox_id == bindparam("o"),
                                _MAILS.c.status == "sending",
                                _MAILS.c.recipient.in_(bindparam("rs", expanding=True)))


def _claim_all(engine: Engine, message_id: int, mails: list[Envelope], settings: MailSettings,
               tag: str, lease: float) -> list[Envelope]:
    """Take the row's mails for this run, in one transaction when no run came before; return
    those taken (a mail served already is not). Raises Busy when another run holds a live
    claim (giving back what this run took)."""
    if not mails:
        return []
    now = utcnow()
    try:
        with engine.begin() as connection:
            connection.execute(_CLAIM, [
                dict(outbox_id=message_id, recipient=e.recipient, address=e.address,
                     kind=e.kind, game_id=e.game_id, status="sending", sent_at=now,
                     step=e.step, error=None,
                     message_id=_msgid(message_id, e.recipient, settings, tag))
                for e in mails])
        return list(mails)
    except IntegrityError:  # an earlier run claimed some: one by one
        pass
    taken: list[Envelope] = []
    try:
        for envelope in mails:
            if _claim(engine, message_id, envelope, settings, tag, lease):
                taken.append(envelope)
    except Busy:
        _settle(engine, message_id, [], release=taken)
        raise
    return taken


def _claim(engine: Engine, message_id: int, envelope: Envelope, settings: MailSettings,
           tag: str, lease: float) -> bool:
    """Take one mail for this run; False when it is served already. Raises Busy when another
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


def _settle(engine: Engine, message_id: int, done: list[Outcome],
            release: list[Envelope] = (), consumed: bool = False,
            told: list[Envelope] = (), posts: list[tuple[int, webhooks.Post]] = ()) -> None:
    """In one transaction: record each mail sent or refused (and, for a mail sent and each
    notification ``told`` on webhooks only, the notes and automatic orders it told of), give
    back the claims of ``release``, queue the webhook ``posts``, and mark the row consumed if
    ``consumed``. A mail the SMTP server took has reached its reader for the decisions it tells
    of (services/reach.py)."""
    now = utcnow()
    mailed = [e for e, status, _error in done if status == "sent"]
    sent = mailed + list(told)
    with engine.begin() as connection:
        for game_id, seat, step in sorted({d for e in mailed for d in e.decisions}):
            reach.record(connection, game_id, seat, step, "mail", now)
        if done:
            connection.execute(_RECORD, [dict(o=message_id, r=e.recipient, status=status,
                                              error=error, at=now)
                                         for e, status, error in done])
        notes = [dict(g=e.game_id, s=e.seat, n=e.notes_shown)
                 for e in sent if e.notes_shown is not None]
        if notes:
            connection.execute(_NOTES, notes)
        told = [i for e in sent for i in e.auto_orders]
        if told:
            connection.execute(_MAILED, dict(ids=told, at=now))
        if release:
            connection.execute(_RELEASE, dict(o=message_id, rs=[e.recipient for e in release]))
        if consumed:
            webhook_queue.enqueue(connection, message_id, list(posts), now)
            outbox.mark_delivered(connection, message_id)


def _settle_after_error(engine: Engine, message_id: int, done: list[Outcome],
                        unsent: list[Envelope]) -> None:
    """``_settle`` as a run ends on an error; its own failure (the database may be what
    failed) is logged, the run's error is what the task sees."""
    try:
        _settle(engine, message_id, done, release=unsent)
    except Exception:
        log.exception("outbox #%s: could not record its mails after an error", message_id)
