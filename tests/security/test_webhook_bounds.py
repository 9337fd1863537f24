"""Webhook delivery is bounded (issue 23, item 5), each test written as the attack:

- a webhook that never answers well (a dead URL, or one set up to waste the server's work):
  each post is tried a stated number of times with exponential backoff, then fails; after a
  stated number of posts failed in a row the webhook is switched off and its user told by mail;
  it gets nothing more, and its user's other webhooks go on;
- a webhook that answers with words meant for the user's inbox: the mail names the failure's
  kind, never the webhook's own words nor its secret path;
- a slow webhook: the notification's mails go out without waiting for it (the notify task
  makes no request at all; the posts wait on their own queue).
"""
from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from server.mail import delivery, webhook_queue
from server.models import MailSent, OutboxMessage, Webhook, WebhookSent, utcnow
from tests.mail.test_delivery import SETTINGS, new_game, transport
from tests.mail.test_webhooks import add_hook, hooks, rows, sent_rows, started  # noqa: F401
from tests.server.conftest import db_engine, db_url, empty_db_url, session  # noqa: F401

POLICY = webhook_queue.Policy(timeout=5, allow_private=True, retry_seconds=60, attempts=4,
                              disable_after=3)


def hook_of(engine, hook_id: int) -> Webhook:
    with Session(engine) as s:
        return s.get(Webhook, hook_id)


def run_queue(engine, policy=POLICY, hours: int = 48) -> list[float]:
    """Run the "webhooks" queue as beat and its worker would, minute by minute for ``hours``
    (each post's backoff being the database's); return the waits, in seconds, between the
    tries of each post."""
    start = utcnow()
    tried: dict[int, list] = {}
    for minute in range(hours * 60):
        now = start + timedelta(minutes=minute)
        for sent_id in webhook_queue.due(engine, now=now):
            if webhook_queue.attempt(engine, sent_id, policy, now=now) is not None:
                tried.setdefault(sent_id, []).append(now)
    return [(b - a).total_seconds() for times in tried.values() for a, b in zip(times, times[1:])]


def news(engine, gid: int, count: int) -> list[int]:
    """``count`` notifications for every seat of the game (its "started" news again)."""
    with Session(engine) as s:
        found = [OutboxMessage(kind="game_started", payload={"game_id": gid})
                 for _ in range(count)]
        s.add_all(found)
        s.commit()
        return [row.id for row in found]


def deliver_only(engine, row_id, catcher):
    """The notify task's part: the row's mails, and its posts queued (none posted)."""
    return delivery.deliver(engine, row_id, SETTINGS, transport(catcher))


def test_a_dead_webhook_is_tried_with_backoff_then_turned_off_and_its_user_told(
        db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    dead = add_hook(db_engine, jack.id, hooks.url + "/dead/the-hooks-own-secret")
    hooks.answers = [500] * 1000
    for row in news(db_engine, gid, POLICY.disable_after + 2):
        deliver_only(db_engine, row, smtp_catcher)
    waits = run_queue(db_engine)
    # Each post: POLICY.attempts tries, 1, 2, 4 minutes apart.
    assert sorted(set(waits)) == [60.0, 120.0, 240.0]
    posts = sent_rows(db_engine)
    assert all(p.status == "failed" for p in posts)
    # Posts waiting at the same time are tried side by side: the first disable_after to fail
    # after every try turn the webhook off, and the others are not tried again.
    worn = [p for p in posts if p.attempts == POLICY.attempts]
    assert len(worn) == POLICY.disable_after
    assert all("HTTP 500" in p.last_error for p in worn)
    rest = [p for p in posts if p not in worn]
    assert rest and all(p.attempts < POLICY.attempts and "switched off" in p.last_error
                        for p in rest)
    assert len(hooks.to("/dead/the-hooks-own-secret")) == sum(p.attempts for p in posts)
    hook = hook_of(db_engine, dead)
    assert hook.disabled_at is not None and hook.failures == POLICY.disable_after
    (told,) = rows(db_engine, "webhook_disabled")
    assert deliver_only(db_engine, told.id, smtp_catcher) == "sent"
    (mail,) = [m for m in smtp_catcher.to(jack.email) if "switched off" in m["Subject"]]
    body = mail.get_body(("plain",)).get_content()
    assert "HTTP 500" in body and "127.0.0.1" in body and f"{POLICY.disable_after}" in body
    assert "the-hooks-own-secret" not in body and "answer 500" not in body
    assert f"{SETTINGS.base_url}/me/mail" in body
    # Switched off: a new notification queues nothing for it.
    before = len(sent_rows(db_engine))
    (row,) = news(db_engine, gid, 1)
    deliver_only(db_engine, row, smtp_catcher)
    assert len(sent_rows(db_engine)) == before


def test_one_good_post_starts_the_count_again(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    hook = add_hook(db_engine, jack.id, hooks.url + "/flaky")
    # Two posts fail for good (404), one goes through, two fail: never 3 in a row.
    hooks.answers = [404, 404, 204, 404, 404]
    for row in news(db_engine, gid, 5):
        deliver_only(db_engine, row, smtp_catcher)
        run_queue(db_engine, hours=1)
    assert hook_of(db_engine, hook).disabled_at is None
    assert hook_of(db_engine, hook).failures == 2
    assert rows(db_engine, "webhook_disabled") == []


def test_a_users_other_webhook_goes_on(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, "http://127.0.0.1:9/nobody-listens")
    good = add_hook(db_engine, jack.id, hooks.url + "/good")
    for row in news(db_engine, gid, 4):
        deliver_only(db_engine, row, smtp_catcher)
    run_queue(db_engine)
    assert hook_of(db_engine, good).disabled_at is None
    with Session(db_engine) as s:
        statuses = set(s.exec(select(WebhookSent.status).where(
            WebhookSent.webhook_id == good)).all())
    assert statuses == {"sent"}


def test_a_slow_webhook_holds_up_no_mail(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/slow")
    row = started(db_engine)
    assert deliver_only(db_engine, row, smtp_catcher) == "sent"
    assert hooks.posts == []  # nothing was asked of the webhook: its post waits on its queue
    with Session(db_engine) as s:
        assert s.get(OutboxMessage, row).delivered_at is not None
        mailed = s.exec(select(MailSent.address).where(MailSent.outbox_id == row)).all()
    assert jack.email in mailed and dick.email in mailed
    assert [p.status for p in sent_rows(db_engine)] == ["queued"]


def test_the_default_bounds_are_stated(app):
    policy = webhook_queue.Policy.from_config(app.config)
    assert (policy.retry_seconds, policy.attempts, policy.disable_after) == (60.0, 6, 5)
    assert [policy.wait(n).total_seconds() for n in range(1, 6)] == [60, 120, 240, 480, 960]


def test_a_post_whose_message_was_lost_is_sent_by_the_sweep_after_a_grace(
        db_engine, session, hooks, smtp_catcher):
    """The notify task publishes each queued post; beat's sweep publishes again only what is
    still queued a grace later (a lost message), so the queue is not flooded with repeats."""
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    deliver_only(db_engine, started(db_engine), smtp_catcher)
    (post,) = sent_rows(db_engine)
    now = utcnow()
    assert webhook_queue.due(db_engine, now=now) == []
    later = now + timedelta(seconds=webhook_queue.GRACE + 1)
    assert webhook_queue.due(db_engine, now=later) == [post.id]
    assert webhook_queue.attempt(db_engine, post.id, POLICY, now=later) == "sent"
    assert webhook_queue.due(db_engine, now=later + timedelta(days=1)) == []
