"""Notifications posted to webhooks, against a real local HTTP server: Discord and Slack shapes;
a webhook that fails (500, 429, unreachable) is recorded with its error and tried again when
its backoff is over, and posted once when it answers; a refusal (404) is recorded and not
retried; a user's webhook gets that user's notifications only; the notify task queues the
posts for the "webhooks" queue's task. (Bounds: tests/security/test_webhook_bounds.py.)"""

from __future__ import annotations

import base64
import json
import threading
from pathlib import Path
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from server import db
from server.app import create_app
from server.mail import delivery, public_http, recipients, render, webhook_queue, webhooks
from server.models import OutboxMessage, Webhook, WebhookSent, utcnow
from server.services import webhook_urls
from tests.mail.test_delivery import SETTINGS, new_game, play_random_step, transport


class HookServer:
    """An HTTP server on a free local port: answers each POST with the next status of
    ``answers`` (then 204) and keeps what was posted, by path."""

    def __init__(self):
        self.answers: list[int] = []
        self.posts: list[tuple[str, dict]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with outer._lock:
                    outer.posts.append((self.path, json.loads(body)))
                    status = outer.answers.pop(0) if outer.answers else 204
                self.send_response(status)
                payload = b"" if status == 204 else f"answer {status}".encode()
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, path: str) -> list[dict]:
        return [body for p, body in self.posts if p == path]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hooks():
    server = HookServer()
    yield server
    server.close()


def add_hook(engine, user_id: int, url: str, flavor: str = "discord") -> int:
    with Session(engine) as s:
        hook = Webhook(user_id=user_id, url=url, flavor=flavor)
        s.add(hook)
        s.commit()
        return hook.id


def rows(engine, kind: str | None = None) -> list[OutboxMessage]:
    with Session(engine) as s:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if kind:
            query = query.where(OutboxMessage.kind == kind)
        return list(s.exec(query).all())


def sent_rows(engine) -> list[WebhookSent]:
    with Session(engine) as s:
        return list(s.exec(select(WebhookSent).order_by(WebhookSent.id)).all())


def started(engine) -> int:
    """The game_started row (every seat gets its notification)."""
    return rows(engine, "game_started")[0].id


# The test's hooks listen on 127.0.0.1.
POLICY = webhook_queue.Policy(timeout=5, allow_private=True)


def deliver(engine, row_id: int, catcher, policy: webhook_queue.Policy = POLICY) -> str | None:
    """The outbox row's mails, then its webhook posts tried once each, as the notify task and
    the "webhooks" queue's post_webhook tasks do."""
    done = delivery.deliver(engine, row_id, SETTINGS, transport(catcher))
    for sent_id in webhook_queue.queued(engine, row_id):
        webhook_queue.attempt(engine, sent_id, policy)
    return done


def retry_due(engine, minutes: float = 60, policy: webhook_queue.Policy = POLICY) -> list:
    """Try again, as beat's sweep does, what is due ``minutes`` from now."""
    later = utcnow() + timedelta(minutes=minutes)
    return [webhook_queue.attempt(engine, i, policy, now=later)
            for i in webhook_queue.due(engine, now=later)]


def test_a_failing_webhook_is_recorded_retried_and_posted_once(db_engine, session, hooks,
                                                               smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    row = started(db_engine)
    hooks.answers = [500]
    assert deliver(db_engine, row, smtp_catcher) == "sent"  # the mails do not wait
    (claim,) = sent_rows(db_engine)
    assert (claim.status, claim.attempts) == ("retry", 1)
    assert "HTTP 500" in claim.last_error and "answer 500" in claim.last_error
    assert webhook_queue.due(db_engine) == []  # not before its backoff is over
    assert retry_due(db_engine) == ["sent"]
    (claim,) = sent_rows(db_engine)
    assert (claim.status, claim.attempts) == ("sent", 2)
    first, second = hooks.to("/jack")
    assert first == second  # the same post, tried again
    # The row is consumed: a run again posts nothing more, and each mail went once.
    assert deliver(db_engine, row, smtp_catcher) == "duplicate"
    assert retry_due(db_engine) == []
    assert len(hooks.to("/jack")) == 2
    assert len(smtp_catcher.to(jack.email)) == 1


@pytest.mark.parametrize("answer", [429, 503])
def test_busy_or_broken_webhooks_are_retried(db_engine, session, hooks, smtp_catcher, answer):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    hooks.answers = [answer]
    deliver(db_engine, started(db_engine), smtp_catcher)
    assert sent_rows(db_engine)[0].status == "retry"


def test_an_unreachable_webhook_is_retried_with_the_error(db_engine, session, hooks,
                                                          smtp_catcher):
    gid, jack, dick = new_game(session)
    url = hooks.url
    hooks.close()  # nobody listens there any more
    add_hook(db_engine, jack.id, url + "/gone")
    deliver(db_engine, started(db_engine), smtp_catcher)
    (claim,) = sent_rows(db_engine)
    assert claim.status == "retry" and "ConnectionError" in claim.last_error


def test_a_refusing_webhook_fails_and_is_not_retried(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    row = started(db_engine)
    hooks.answers = [404]
    assert deliver(db_engine, row, smtp_catcher) == "sent"
    (claim,) = sent_rows(db_engine)
    assert (claim.status, claim.attempts) == ("failed", 1)
    assert "HTTP 404" in claim.last_error
    assert deliver(db_engine, row, smtp_catcher) == "duplicate"
    assert retry_due(db_engine) == []
    assert len(hooks.to("/jack")) == 1


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_webhook_on_a_private_address_is_refused_for_good(db_engine, session, hooks,
                                                            smtp_catcher, host):
    """Without WEBHOOK_ALLOW_PRIVATE, a URL that leads to the server's own network (here its
    loopback, by address or by a name that resolves to it) gets nothing: the post fails for
    good with the reason, and the mail still goes."""
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url.replace("127.0.0.1", host) + "/inside")
    row = started(db_engine)
    assert deliver(db_engine, row, smtp_catcher,
                   webhook_queue.Policy(timeout=5)) == "sent"
    (claim,) = sent_rows(db_engine)
    assert claim.status == "failed" and "not a public internet address" in claim.last_error
    assert "127.0.0.1" in claim.last_error
    assert hooks.posts == []
    assert len(smtp_catcher.to(jack.email)) == 1


@pytest.mark.parametrize("address, public", [
    ("93.184.216.34", True), ("2606:2800:220:1::1", True), ("10.1.2.3", False),
    ("172.16.0.1", False), ("192.168.1.1", False), ("127.0.0.1", False), ("::1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False),
    ("fd00::1", False), ("fe80::1%eth0", False), ("::ffff:10.0.0.1", False),
    ("::ffff:93.184.216.34", True), ("224.0.0.251", False), ("255.255.255.255", False)])
def test_only_global_unicast_addresses_are_public(address, public):
    assert public_http.is_public(address) is public


def test_discord_and_slack_shapes(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/discord", "discord")
    add_hook(db_engine, jack.id, hooks.url + "/slack", "slack")
    row = rows(db_engine, "game_started")[0]
    with Session(db_engine) as s:
        (envelope,) = [e for e in recipients.envelopes(s, row, SETTINGS) if e.user_id == jack.id]
    mail = render.render(envelope.kind, envelope.context, envelope.locale)
    assert deliver(db_engine, row.id, smtp_catcher) == "sent"
    (discord,) = hooks.to("/discord")
    assert discord["content"] == mail.subject
    (embed,) = discord["embeds"]
    assert embed["title"] == mail.subject
    assert embed["url"] == f"{SETTINGS.base_url}/games/{gid}"
    assert embed["description"] == "Your game has started."   # what happened, not the mail
    assert discord["allowed_mentions"] == {"parse": []}
    (slack,) = hooks.to("/slack")
    assert set(slack) == {"text"}
    subject, news = slack["text"].split("\n", 1)
    assert subject == mail.subject and news == "Your game has started."


def test_a_long_mail_is_cut_to_an_excerpt():
    text = "word " * 1000
    body = webhooks.payload("discord", "Subject", text, None)
    (embed,) = body["embeds"]
    assert len(embed["description"]) == webhooks.EXCERPT and embed["description"].endswith("…")
    assert "url" not in embed
    assert len(webhooks.payload("slack", "S", text, None)["text"]) <= webhooks.EXCERPT + 2


def test_a_users_webhook_gets_only_that_users_notifications(db_engine, session, hooks,
                                                            smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    add_hook(db_engine, dick.id, hooks.url + "/dick")
    expected: dict[int, list[str]] = {jack.id: [], dick.id: []}
    for row in rows(db_engine):
        with Session(db_engine) as s:
            for e in recipients.envelopes(s, row, SETTINGS):
                expected[e.user_id].append(render.render(e.kind, e.context, e.locale).subject)
        deliver(db_engine, row.id, smtp_catcher)
    got = {jack.id: [b["content"] for b in hooks.to("/jack")],
           dick.id: [b["content"] for b in hooks.to("/dick")]}
    assert got == expected
    assert got[jack.id] and got[dick.id] and got[jack.id] != got[dick.id]


@pytest.mark.parametrize("url, allow_http, ok", [
    ("https://discord.com/api/webhooks/1/abc", False, True),
    ("  https://hooks.slack.com/services/T/B/x  ", False, True),
    ("http://127.0.0.1:9/hook", False, False),
    ("http://127.0.0.1:9/hook", True, True),
    ("ftp://example.org/hook", True, False),
    ("javascript:alert(1)", True, False),
    ("https://user:pw@example.org/hook", False, False),
    ("https://exa mple.org/hook", False, False),
    ("https://example.org:notaport/", False, False),
    ("", False, False),
])
def test_only_https_webhooks_are_taken(url, allow_http, ok):
    if ok:
        assert webhook_urls.check_url(url, allow_http) == url.strip()
    else:
        with pytest.raises(webhook_urls.BadWebhook):
            webhook_urls.check_url(url, allow_http)


def test_the_kind_is_guessed_from_the_url_or_checked():
    assert webhook_urls.check_flavor("", "https://hooks.slack.com/services/x") == "slack"
    assert webhook_urls.check_flavor(None, "https://discord.com/api/webhooks/x") == "discord"
    assert webhook_urls.check_flavor("Slack", "https://example.org/x") == "slack"
    with pytest.raises(webhook_urls.BadWebhook, match="discord and slack"):
        webhook_urls.check_flavor("teams", "https://example.org/x")


# --- through the notify task ----------------------------------------------------------------
def published(app, queue: str = "webhooks") -> list[tuple[str, str, list]]:
    """The messages waiting on the filesystem broker's ``queue`` (queue, task, arguments),
    taken off it."""
    folder = Path(app.config["BROKER_DIR"]) / "queue"
    found = []
    for path in sorted(folder.glob(f"*.{queue}.msg")):
        message = json.loads(path.read_text())
        args = json.loads(base64.b64decode(message["body"]))[0]
        found.append((path.name.split(".")[1], message["headers"]["task"], args))
        path.unlink()
    return found

@pytest.fixture
def task_app(tmp_path, smtp_catcher):
    url = f"sqlite:///{tmp_path / 'webhooks.db'}"
    db.migrate(url)
    app = create_app({"DATABASE_URL": url, "VAR_DIR": str(tmp_path / "var"),
                      "MAIL_SMTP_PORT": smtp_catcher.port, "BROKER_URL": "filesystem://",
                      "BROKER_DIR": str(tmp_path / "broker"), "WEBHOOK_TIMEOUT": 5,
                      "WEBHOOK_ALLOW_PRIVATE": True})
    with app.app_context():
        yield app
    app.extensions["whistlestop.db"].dispose()


@pytest.fixture
def broker(task_app):
    """This process's Celery app publishing to the task app's filesystem broker."""
    from server import config
    from workers.celery_app import reconfigure

    reconfigure(task_app.config)
    yield
    reconfigure(config.from_env())


def test_the_notify_task_queues_the_posts_for_the_webhook_queue(task_app, broker, hooks,
                                                                 smtp_catcher):
    from workers import tasks

    engine = db.get_engine()
    with Session(engine) as s:
        gid, jack, dick = new_game(s)
    add_hook(engine, jack.id, hooks.url + "/jack")
    row = started(engine)
    hooks.answers = [500, 502]
    result = tasks.notify.apply(args=(row,))
    assert result.successful(), result.traceback
    (claim,) = sent_rows(engine)
    # Published on the broker's "webhooks" queue, which its own worker consumes.
    assert claim.status == "queued"
    assert published(task_app) == [("webhooks", "whistlestop.post_webhook", [claim.id])]
    assert len([m for m in smtp_catcher.received() if m["To"] == jack.email]) == 1
    with Session(engine) as s:
        assert s.get(OutboxMessage, row).delivered_at is not None
    assert tasks.post_webhook.apply(args=(claim.id,)).get() == "retry"
    assert tasks.post_webhook.apply(args=(claim.id,)).get() is None  # not due yet
    assert tasks.sweep_webhooks.apply().get() == 0
    with Session(engine) as s:  # its backoff is over
        s.execute(update(WebhookSent).values(next_at=utcnow() - timedelta(seconds=1)))
        s.commit()
    assert tasks.sweep_webhooks.apply().get() == 1
    assert published(task_app) == [("webhooks", "whistlestop.post_webhook", [claim.id])]
    assert tasks.post_webhook.apply(args=(claim.id,)).get() == "retry"  # 502
    with Session(engine) as s:
        s.execute(update(WebhookSent).values(next_at=utcnow() - timedelta(seconds=1)))
        s.commit()
    assert tasks.post_webhook.apply(args=(claim.id,)).get() == "sent"
    (claim,) = sent_rows(engine)
    assert (claim.status, claim.attempts) == ("sent", 3)
    assert len(hooks.to("/jack")) == 3


def test_webhooks_only_a_user_who_takes_no_mail_still_gets_every_post(db_engine, session,
                                                                      hooks, smtp_catcher):
    """Jack takes no mail and has a webhook: every notification for him goes to the webhook,
    and no mail. Dick reads the digest and has no webhook: his decision mails stop (the
    digest lists them), the game's news still comes, and nothing is posted for him."""
    import random

    from server.models import User

    gid, jack, dick = new_game(session)
    session.execute(update(User).where(User.id == jack.id).values(mail_mode="none"))
    session.execute(update(User).where(User.id == dick.id).values(mail_mode="digest"))
    session.commit()
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    rng, kinds = random.Random(5), []
    for _ in range(12):  # a few decisions of each seat
        for row in rows(db_engine):
            if row.kind != "resolve_step" and row.delivered_at is None:
                kinds.extend((row.kind, e.user_id) for e in _envelopes(db_engine, row))
                deliver(db_engine, row.id, smtp_catcher)
        play_random_step(session, gid, rng)
    assert {m["To"] for m in smtp_catcher.received()} == {dick.email}
    assert {k for k, u in kinds if u == dick.id} == {"game_started"}
    jacks = [k for k, u in kinds if u == jack.id]
    assert "your_decision" in jacks and "game_started" in jacks
    assert len(hooks.to("/jack")) == len(jacks)
    with Session(db_engine) as s:
        assert len(s.exec(select(WebhookSent)).all()) == len(jacks)


def _envelopes(engine, row):
    with Session(engine) as s:
        return recipients.envelopes(s, s.get(OutboxMessage, row.id), SETTINGS)


def test_a_webhook_only_notification_counts_as_told(db_engine, session, hooks, smtp_catcher):
    """Jack takes no mail and reads his webhook: each post says what changed since the last
    post (his seat's notes told advance with the posts, as they do with mails), so no change is
    told twice; the orders given for him are marked told too."""
    import random

    from server.models import AutoOrder, Seat, User

    gid, jack, _dick = new_game(session)
    session.execute(update(User).where(User.id == jack.id).values(mail_mode="none"))
    session.commit()
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    rng, shown = random.Random(7), []
    for _ in range(40):
        for row in rows(db_engine):
            if row.kind == "resolve_step" or row.delivered_at is not None:
                continue
            mine = [e for e in _envelopes(db_engine, row)
                    if e.user_id == jack.id and e.notes_shown is not None]
            deliver(db_engine, row.id, smtp_catcher)
            if mine:
                with Session(db_engine) as s:
                    seat = s.exec(select(Seat).where(Seat.game_id == gid,
                                                     Seat.seat == mine[0].seat)).one()
                    assert seat.notes_mailed == mine[-1].notes_shown
                    assert not s.exec(select(AutoOrder).where(
                        AutoOrder.id.in_(mine[-1].auto_orders),
                        AutoOrder.mailed_at.is_(None))).all()
                shown.append(mine[-1].notes_shown)
        play_random_step(session, gid, rng)
    assert all(m["To"] != jack.email for m in smtp_catcher.received())
    assert len(shown) >= 3 and shown == sorted(shown) and shown[-1] > shown[0]
