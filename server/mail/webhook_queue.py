"""Webhook posts on their own queue, bounded: a slow or dead webhook never delays mail, bot
moves or resolutions, and never takes the server's work for ever.

The notify task queues a notification's posts (``enqueue``, WebhookSent rows "queued", the JSON
fixed) in the transaction that marks its outbox row delivered, then publishes ``post_webhook``
for each on the Celery queue "webhooks", which its own worker consumes (Procfile). Beat
publishes again every post that is due and not taken (``due``): a lost message, a post backing
off. Each run of ``attempt`` claims its post ("sending", a lease against a second run), posts
once, and in one transaction records what came of it:

- taken (2xx): "sent"; the webhook's count of failures in a row goes back to 0; a post about
  a decision (``WebhookSent.reach``) has reached its player (services/reach.py);
- refused for good (a 4xx but 429, an address not public) or not taken WEBHOOK_ATTEMPTS times
  (a timeout, no connection, 429, 5xx): "failed", and the webhook's failures count one more;
- else "retry", due again after WEBHOOK_RETRY_SECONDS, doubled at each attempt (60 s, 2, 4, 8,
  16 minutes by default: about half an hour in all).

A webhook whose posts failed WEBHOOK_DISABLE_AFTER times in a row is turned off
(``Webhook.disabled_at``): its queued posts fail unsent, it gets no new ones, and its user gets
a mail ("webhook_disabled", written in the same transaction) saying so and how to turn it back
on (the mail settings, signed in).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from server.mail import webhooks
from server.models import Webhook, WebhookSent, aware, utcnow
from server.services import outbox, reach

log = logging.getLogger("whistlestop.webhooks")

_SENT = WebhookSent.__table__
WAITING = ("queued", "retry")
GRACE = 60.0  # seconds a queued post's own message has before the sweep publishes it again


@dataclass(frozen=True)
class Policy:
    timeout: float = 10.0  # seconds a webhook has to answer
    retry_seconds: float = 60.0  # the first wait; doubled at each attempt
    attempts: int = 6  # tries of one post before it fails
    disable_after: int = 5  # posts failed in a row that turn a webhook off
    allow_private: bool = False  # post to private and loopback addresses too
    lease: float = webhooks.LEASE  # seconds a claim keeps other runs off a post

    @classmethod
    def from_config(cls, cfg) -> "Policy":
        return cls(timeout=float(cfg["WEBHOOK_TIMEOUT"]),
                   retry_seconds=float(cfg["WEBHOOK_RETRY_SECONDS"]),
                   attempts=max(1, int(cfg["WEBHOOK_ATTEMPTS"])),
                   disable_after=max(1, int(cfg["WEBHOOK_DISABLE_AFTER"])),
                   allow_private=bool(cfg["WEBHOOK_ALLOW_PRIVATE"]))

    def wait(self, attempts: int) -> timedelta:
        """How long a post waits after its ``attempts``-th failed try."""
        return timedelta(seconds=self.retry_seconds * 2 ** max(0, attempts - 1))


def enqueue(connection: Connection, outbox_id: int, found: list[tuple[int, webhooks.Post]],
            now: datetime) -> None:
    """Queue the posts ``webhooks.posts`` found for outbox row ``outbox_id``, in the caller's
    transaction; a post queued already (a second run of the row) is left as it is."""
    if not found:
        return
    have = set(connection.execute(select(_SENT.c.webhook_id).where(
        _SENT.c.outbox_id == outbox_id)).scalars())
    rows = [dict(outbox_id=outbox_id, webhook_id=hook_id, status="queued", attempts=0,
                 updated_at=now, payload=post.json, next_at=now,
                 reach=list(post.reach) if post.reach else None)
            for hook_id, post in found if hook_id not in have]
    if rows:
        connection.execute(_SENT.insert(), rows)


def queued(engine: Engine, outbox_id: int) -> list[int]:
    """The posts of outbox row ``outbox_id`` waiting for their first try."""
    with engine.connect() as connection:
        return list(connection.execute(select(_SENT.c.id).where(
            _SENT.c.outbox_id == outbox_id, _SENT.c.status == "queued")
            .order_by(_SENT.c.id)).scalars())


def due(engine: Engine, lease: float = webhooks.LEASE, now: datetime | None = None,
        limit: int = 1000, grace: float = GRACE) -> list[int]:
    """The posts to try now that no message may be on its way for: backing off and due, queued
    ``grace`` seconds ago and still not taken (the notify task's message was lost), or claimed
    by a run that died (``lease`` over)."""
    now = now or utcnow()
    with engine.connect() as connection:
        return list(connection.execute(select(_SENT.c.id).where(or_(
            (_SENT.c.status == "retry") & (_SENT.c.next_at <= now),
            (_SENT.c.status == "queued")
            & (_SENT.c.next_at <= now - timedelta(seconds=grace)),
            (_SENT.c.status == "sending")
            & (_SENT.c.updated_at < now - timedelta(seconds=lease))))
            .order_by(_SENT.c.id).limit(limit)).scalars())


def attempt(engine: Engine, sent_id: int, policy: Policy, now: datetime | None = None
            ) -> str | None:
    """Try post ``sent_id`` once if it is due; return its status after the try ("sent",
    "retry", "failed"), or None when there was nothing to do (settled, not due, or another
    run holds it)."""
    now = now or utcnow()
    claimed = _claim(engine, sent_id, policy.lease, now)
    if claimed is None:
        return None
    payload, url, user_id = claimed
    if url is None:
        return _record(engine, sent_id, policy, now, "the webhook is switched off", final=True,
                       tried=False)
    error, final = webhooks.send(webhooks.Post(url, payload or {}, user_id), policy.timeout,
                                 policy.allow_private)
    if error is None:
        return _record(engine, sent_id, policy, now, None)
    return _record(engine, sent_id, policy, now, error, final=final)


def _claim(engine: Engine, sent_id: int, lease: float, now: datetime
           ) -> tuple[dict | None, str | None, int | None] | None:
    """Take the post for this run: (its JSON, the webhook's URL or None when the webhook is
    off or gone, its user), or None when it is not this run's to try."""
    with Session(engine) as session:
        row = session.get(WebhookSent, sent_id)
        if row is None or row.status in webhooks.DONE:
            return None
        if row.status in WAITING and row.next_at is not None and aware(row.next_at) > now:
            return None
        if row.status == "sending" and aware(row.updated_at) > now - timedelta(seconds=lease):
            return None
        taken = session.execute(update(WebhookSent).where(
            WebhookSent.id == row.id, WebhookSent.status == row.status,
            WebhookSent.updated_at == row.updated_at).values(status="sending", updated_at=now))
        hook = session.get(Webhook, row.webhook_id)
        session.commit()
        if taken.rowcount != 1:
            return None
        on = hook is not None and hook.disabled_at is None
        return row.payload, (hook.url if on else None), (hook.user_id if hook else None)


def _record(engine: Engine, sent_id: int, policy: Policy, now: datetime, error: str | None,
            final: bool = False, tried: bool = True) -> str:
    """In one transaction: the post's outcome, the webhook's failures in a row, and, when they
    reach ``policy.disable_after``, the webhook turned off and the mail telling its user.
    ``tried``: False for a post not tried at all (its webhook turned off or removed)."""
    with Session(engine) as session:
        row = session.get(WebhookSent, sent_id)
        hook = session.get(Webhook, row.webhook_id)
        row.attempts += 1 if tried else 0
        row.updated_at = now
        row.last_error = error
        if error is None:
            row.status, row.next_at = "sent", None
            if hook is not None:
                hook.failures, hook.last_error = 0, None
            if row.reach:  # the post told a player of their decision: it has reached them
                game_id, seat, step = row.reach
                reach.record(session.connection(), game_id, seat, step, "webhook", now)
        elif final or row.attempts >= policy.attempts:
            row.status, row.next_at = "failed", None
            log.warning("webhook #%s: post #%s failed for good: %s", row.webhook_id, sent_id,
                        error)
            if hook is not None and tried:
                _failed(session, hook, error, policy, now)
        else:
            row.status, row.next_at = "retry", now + policy.wait(row.attempts)
            log.info("webhook #%s: post #%s to be tried again at %s: %s", row.webhook_id,
                     sent_id, row.next_at.isoformat(), error)
        status = row.status
        session.commit()  # the caller publishes the mail it may have written
    return status


def _failed(session: Session, hook: Webhook, error: str, policy: Policy,
            now: datetime) -> None:
    hook.failures += 1
    hook.last_error = error[:2000]
    if hook.disabled_at is None and hook.failures >= policy.disable_after:
        hook.disabled_at = now
        log.warning("webhook #%s turned off after %s failed posts in a row", hook.id,
                    hook.failures)
        session.flush()
        outbox.write(session, "webhook_disabled", {"user_id": hook.user_id,
                                                   "webhook_id": hook.id})
