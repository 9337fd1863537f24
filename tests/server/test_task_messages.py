"""The outbox's task messages written by hand (server/services/task_messages.py) are the ones
Celery and kombu write, on a real redis-server: if either library changes its messages, this
fails (pyproject.toml pins both; check here before widening the range)."""

from __future__ import annotations

import base64
import json
import os

import pytest
from flask import Flask

from server import config
from server.services import outbox, task_messages
from workers.celery_app import BOT_QUEUE, MAIL_QUEUE, ROUTES, celery, reconfigure

IDS = ("id", "root_id")


@pytest.fixture
def on_redis(redis_server, redis_url):
    """This process's Celery app on the test's Redis (database 0, emptied), not eager."""
    client = redis_server.client(0)
    client.flushdb()
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": redis_url,
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    try:
        yield client
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())


def _popped(client, queue: str) -> dict:
    """The oldest message in the queue (the worker's end of kombu's list), waited for a few
    seconds: ours is written on a connection that takes no answers, so Redis may read this
    client's command before it (a plain RPOP found nothing once, on a busy machine)."""
    popped = client.brpop([queue], timeout=5)
    assert popped is not None, f"nothing waits in {queue!r}"
    return json.loads(popped[1])


def _comparable(message: dict) -> dict:
    """The message with its random ids set aside (checked for their shape instead)."""
    message = json.loads(json.dumps(message))
    headers, properties = message["headers"], message["properties"]
    assert headers["root_id"] == headers["id"] == properties["correlation_id"]
    for key in IDS:
        headers[key] = "<id>"
    properties["correlation_id"] = properties["delivery_tag"] = "<id>"
    message["body"] = json.loads(base64.b64decode(message["body"]))
    return message


@pytest.mark.parametrize("name, args", [("whistlestop.notify", (42,)),
                                        ("whistlestop.resolve_step", (7, 12, 99)),
                                        ("whistlestop.post_webhook", (5,))])
def test_the_written_message_is_the_one_celery_writes(on_redis, name, args):
    queue = task_messages.queue_of(celery.conf, name)
    assert queue == ROUTES[name]
    # ignore_result as the outbox sends (else Celery subscribes to the result's channel, on
    # whatever result backend an earlier test left the app with: reconfigure keeps it); the
    # written message leaves the choice to the task, Celery's default (None).
    celery.send_task(name, args=args, argsrepr=repr(args), kwargsrepr="{}", ignore_result=True)
    celerys = _popped(on_redis, queue)
    assert celerys["headers"]["ignore_result"] is True
    celerys["headers"]["ignore_result"] = None
    task_messages.push(celery, name, args, queue)
    ours = _popped(on_redis, queue)
    assert on_redis.llen(queue) == 0
    assert ours["headers"]["origin"] == celerys["headers"]["origin"] == \
        f"gen{os.getpid()}@{os.uname().nodename}"
    assert _comparable(ours) == _comparable(celerys)
    assert ours["headers"]["id"] != celerys["headers"]["id"]


def test_the_outbox_writes_plain_tasks_and_leaves_the_rest_to_celery(on_redis, monkeypatch):
    """A request's task without options is written here; one with a countdown (a bot's move)
    goes through Celery, which writes when it is due, as does a task's follow-up (it waits for
    the broker's answer before its message is acknowledged); eager mode never writes."""
    pushed = []
    real = task_messages.push
    monkeypatch.setattr(task_messages, "push",
                        lambda app, name, args, queue: pushed.append(name) or
                        real(app, name, args, queue))
    with Flask(__name__).test_request_context():
        outbox.publish("whistlestop.notify", (1,))
        outbox.publish("whistlestop.bot_move", (1, "a", 2, 3), {"countdown": 30})
    assert pushed == ["whistlestop.notify"]
    notify = _popped(on_redis, MAIL_QUEUE)
    assert notify["headers"]["task"] == "whistlestop.notify"
    bot = _popped(on_redis, BOT_QUEUE)  # Celery's, with the moment it is due
    assert bot["headers"]["task"] == "whistlestop.bot_move" and bot["headers"]["eta"]
    outbox.publish("whistlestop.notify", (2,))  # a task's (no request): through Celery
    assert pushed == ["whistlestop.notify"]
    assert _popped(on_redis, MAIL_QUEUE)["headers"]["task"] == "whistlestop.notify"
    celery.conf.task_always_eager = True
    assert task_messages.queue_of(celery.conf, "whistlestop.notify") is None


def test_settings_the_written_messages_do_not_follow_go_through_celery():
    conf = {"broker_url": "redis://x/0", "task_routes": {"t": {"queue": "q"}}}
    assert task_messages.queue_of(conf, "t") == "q"
    assert task_messages.queue_of(conf, "other") == "celery"
    assert task_messages.queue_of(dict(conf, task_default_queue="main"), "other") == "main"
    for changed in ({"broker_url": "filesystem://"}, {"task_send_sent_event": True},
                    {"task_default_priority": 5},
                    {"broker_transport_options": {"global_keyprefix": "p:"}},
                    {"task_routes": {"t": {"queue": "q", "exchange": "e"}}},
                    {"task_routes": [lambda *a: None]}):
        assert task_messages.queue_of(dict(conf, **changed), "t") is None, changed
