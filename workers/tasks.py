"""Celery tasks: thin, named, id-only and idempotent.

Every task takes ids, re-reads the database and may run any number of times: a message is
published after its transaction commits *and* again by the relay or the sweep, and a message
taken by a worker that dies is delivered again (acks_late, reject_on_worker_lost, the Redis
visibility timeout). The database's compare-and-set on the game's step makes a resolution
happen once however often its task runs.
"""

from __future__ import annotations

import json
import logging
import threading

from celery.signals import task_failure, worker_process_init, worker_process_shutdown
from flask import current_app, has_app_context
from sqlalchemy import exc as sa_exc
from sqlmodel import Session

from server import db
from server.models import OutboxMessage, TaskFailure, utcnow
from server.mail import delivery, replies, smtp, webhook_queue
from server.mail.recipients import MailSettings
from server.services import absences, bots, deadlines, digests, games, outbox, ratings
from workers.app_context import FlaskTask, flask_app
from workers.celery_app import celery

log = logging.getLogger("whistlestop.tasks")

# Errors worth trying again later: the database is unreachable, restarting, locked (SQLite's
# busy timeout ran out), or chose this transaction as a deadlock or serialization victim.
TRANSIENT_DB_ERRORS = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError)

# Exponential backoff with full jitter: 1 s, 2 s, 4 s ... capped at RETRY_BACKOFF_MAX; about
# 8 minutes in all before the task fails (recorded as a TaskFailure) and the sweep takes over.
# The cap must stay below BROKER_VISIBILITY_TIMEOUT: a retry waits in the worker unacknowledged.
RETRY_BACKOFF_MAX = 120
# A mail server that is down or answers 4xx, or another run sending the same mail right now.
MAIL_RETRY = (smtp.TemporaryFailure, delivery.Busy)
RETRIES = dict(autoretry_for=TRANSIENT_DB_ERRORS, retry_backoff=True,
               retry_backoff_max=RETRY_BACKOFF_MAX, retry_jitter=True, max_retries=10)


@celery.task(base=FlaskTask, name="whistlestop.ping")
def ping() -> str:
    """Return "pong": a health check that a worker is consuming."""
    return "pong"


@celery.task(base=FlaskTask, name="whistlestop.resolve_step", ignore_result=True, **RETRIES)
def resolve_step(game_id: int, step: int, message_id: int | None = None) -> bool:
    """Resolve a simultaneous step once every seat has committed; a repeat does nothing.

    ``message_id``: the outbox row this task was sent for, marked consumed in the same
    transaction (None when the sweep sent it). Returns whether this run resolved the step. The
    outbox rows the resolution wrote are sent after its commit (server/services/outbox.py).
    """
    with Session(db.get_engine()) as session:
        return games.resolve_step(session, game_id, step, message_id=message_id)


@celery.task(base=FlaskTask, name="whistlestop.bot_move", ignore_result=True, **RETRIES)
def bot_move(game_id: int, seat: str, step: int, message_id: int | None = None) -> str | None:
    """A bot answers its seat's decision of ``step`` (server/services/bots.py); a repeat, or a
    step that has moved on, does nothing. The outbox rows its order wrote are sent after the
    commit."""
    with Session(db.get_engine()) as session:
        return bots.play(session, game_id, seat, step, message_id=message_id)


@celery.task(base=FlaskTask, name="whistlestop.rate_game", ignore_result=True, **RETRIES)
def rate_game(game_id: int, message_id: int | None = None) -> bool:
    """Update the ratings of a finished game's players, once (server/services/ratings.py);
    a repeat does nothing. Returns whether this run rated it."""
    with Session(db.get_engine()) as session:
        return ratings.rate(session, game_id, message_id=message_id)


@celery.task(base=FlaskTask, name="whistlestop.notify", ignore_result=True,
             **dict(RETRIES, autoretry_for=TRANSIENT_DB_ERRORS + MAIL_RETRY))
def notify(message_id: int) -> str | None:
    """Send the mails of one notification row, each at most once however often the task runs
    (server/mail/delivery.py); then mark the row consumed. An SMTP server that is down or
    answers 4xx makes the task retry with backoff; after the retries the relay sends the row
    again. Returns "sent", "duplicate" (consumed already) or None (no such row)."""
    cfg = current_app.config
    # (The relay does not wait for this task's retries: after an outage a fresh task sends at
    # once, rather than when this one's backoff, up to RETRY_BACKOFF_MAX, comes due.)
    engine = db.get_engine()
    done = delivery.deliver(engine, message_id, MailSettings.from_config(cfg),
                            _smtp_connection(smtp.SmtpSettings.from_config(cfg)),
                            lease=float(cfg["MAIL_SEND_LEASE_SECONDS"]))
    # The same notifications go to the recipients' webhooks, on their own queue: a slow or
    # dead webhook holds up no mail, bot move or resolution (server/mail/webhook_queue.py).
    for sent_id in webhook_queue.queued(engine, message_id):
        _publish_post(sent_id)
    return done


@celery.task(base=FlaskTask, name="whistlestop.news", ignore_result=True,
             **dict(RETRIES, autoretry_for=TRANSIENT_DB_ERRORS + MAIL_RETRY))
def news(message_id: int) -> str | None:
    """``notify`` for a mail that only tells news (server/mail/kinds.py: a step resolved, a
    game started or over), sent on a queue of its own: the mails that ask a player to act never
    wait behind them (under a thousand bot games, every resolution writes one)."""
    return notify.run(message_id)


@celery.task(base=FlaskTask, name="whistlestop.chat_mail", ignore_result=True,
             **dict(RETRIES, autoretry_for=TRANSIENT_DB_ERRORS + MAIL_RETRY))
def chat_mail(message_id: int) -> str | None:
    """Send a table-talk mail (server/services/chat.py) once its ``not_before`` has come: a
    run before that ("early") leaves the row unconsumed, and the relay sends it again. Then
    as ``notify``."""
    with Session(db.get_engine()) as session:
        db.reading(session)
        row = session.get(OutboxMessage, message_id)
        early = row is not None and row.delivered_at is None and outbox._wait(row.payload) > 0
    if early:
        return "early"
    return notify.run(message_id)


def _publish_post(sent_id: int) -> None:
    try:
        post_webhook.apply_async(args=(sent_id,))
    except Exception as exc:  # the broker is down: the sweep publishes it when it is due
        log.warning("webhook post #%s not published: %s", sent_id, exc)


@celery.task(base=FlaskTask, name="whistlestop.post_webhook", ignore_result=True, **RETRIES)
def post_webhook(sent_id: int) -> str | None:
    """Try one queued webhook post once, if it is due (server/mail/webhook_queue.py): its
    backoff, and turning a failing webhook off, are the database's; beat's sweep_webhooks
    publishes it again when it is next due. Runs on the "webhooks" queue."""
    return webhook_queue.attempt(db.get_engine(), sent_id,
                                 webhook_queue.Policy.from_config(current_app.config))


@celery.task(base=FlaskTask, name="whistlestop.sweep_webhooks", ignore_result=True)
def sweep_webhooks() -> int:
    """Publish post_webhook for every post that is due (backing off, or its message lost);
    run by beat every WEBHOOK_SWEEP_SECONDS."""
    found = webhook_queue.due(db.get_engine())
    for sent_id in found:
        _publish_post(sent_id)
    return len(found)


# One SMTP session per worker process (per thread, for a threaded pool), kept open across
# notify tasks: see smtp.Connection.
_smtp = threading.local()


def _smtp_connection(settings: smtp.SmtpSettings) -> smtp.Connection:
    connection = getattr(_smtp, "connection", None)
    if connection is None or connection.settings != settings:
        if connection is not None:
            connection.close()
        connection = _smtp.connection = smtp.Connection(settings)
    return connection


@celery.task(base=FlaskTask, name="whistlestop.handle_reply", ignore_result=True, **RETRIES)
def handle_reply(inbound_id: int, message_id: int | None = None) -> str | None:
    """Act once on a mail received for the server (an order by reply) and answer it
    (server/mail/replies.py); the answer goes out through the outbox like every mail."""
    return replies.handle(db.get_engine(), inbound_id, message_id,
                          MailSettings.from_config(current_app.config))


@celery.task(base=FlaskTask, name="whistlestop.relay_outbox", ignore_result=True)
def relay_outbox() -> int:
    """Send again what the outbox holds unconsumed (run by beat every OUTBOX_RELAY_SECONDS)."""
    return outbox.publish_pending(db.get_engine(),
                                  float(current_app.config["OUTBOX_REDELIVER_SECONDS"]))


@celery.task(base=FlaskTask, name="whistlestop.sweep_unresolved", ignore_result=True)
def sweep_unresolved() -> int:
    """Publish resolve_step again for every step whose seats have all committed and that is
    still unresolved RESOLVE_SWEEP_SECONDS after its last commit (run by beat that often)."""
    return outbox.republish_unresolved(db.get_engine(),
                                       float(current_app.config["RESOLVE_SWEEP_SECONDS"]))


@celery.task(base=FlaskTask, name="whistlestop.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Send the reminders due and act on the deadlines passed (run by beat every
    DEADLINE_SWEEP_SECONDS); returns how many games it looked at."""
    engine = db.get_engine()
    now = utcnow()
    with Session(engine) as session:
        due = deadlines.due(session, now)
    for game_id in due:
        try:
            deadlines.ring(engine, game_id, now)
        except TRANSIENT_DB_ERRORS:
            log.exception("deadline of game %s: will be tried at the next sweep", game_id)
    return len(due)


@celery.task(base=FlaskTask, name="whistlestop.sweep_silent_games", ignore_result=True)
def sweep_silent_games() -> int:
    """End, unrated, the games nobody has played for SILENT_GAME_DAYS (issue 46; run by beat
    every SILENT_SWEEP_SECONDS); returns how many it ended."""
    return len(absences.sweep(db.get_engine(), utcnow(),
                              days=int(current_app.config["SILENT_GAME_DAYS"])))


@celery.task(base=FlaskTask, name="whistlestop.write_digests", ignore_result=True)
def write_digests() -> int:
    """Write today's digest of every user who asked for one, once a day from DIGEST_HOUR UTC
    (run by beat every DIGEST_SWEEP_SECONDS); returns how many were written."""
    return digests.write_due(db.get_engine(), utcnow(), int(current_app.config["DIGEST_HOUR"]))


# --- worker signals -----------------------------------------------------------------------
@task_failure.connect
def record_task_failure(sender=None, task_id=None, exception=None, args=None, **_kwargs):
    """Record a task that failed for good (after its retries) in the TaskFailure table."""
    try:
        app = current_app if has_app_context() else flask_app()
        with app.app_context(), Session(db.get_engine()) as session:
            session.add(TaskFailure(
                task_name=getattr(sender, "name", None) or str(sender), task_id=task_id or "",
                args=json.loads(json.dumps(list(args or []), default=repr)),
                error=f"{type(exception).__name__}: {exception}"[:2000]))
            session.commit()
    except Exception:  # the database may be what failed; the worker's log still has it
        log.exception("could not record the failure of task %s[%s]", sender, task_id)


@worker_process_init.connect
def _fresh_smtp_session_after_fork(**_kwargs):
    """A pool process must not share the parent's SMTP session, if it had one (nor its
    database connections: workers/app_context.py)."""
    _smtp.connection = None


@worker_process_shutdown.connect
def _close_smtp_session(**_kwargs):
    """Say QUIT to the mail server as a pool process ends."""
    connection = getattr(_smtp, "connection", None)
    if connection is not None:
        connection.close()
