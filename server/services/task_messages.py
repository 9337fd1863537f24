"""Celery task messages for a Redis broker, written here and pushed in one answerless send.

The outbox publishes a task after about one order in three (the next player's mail, a
resolution). Through Celery (``send_task``: the task's headers and options, kombu's producer
and channel, redis-py's LPUSH and its answer) a publish cost about 250 µs of CPU, a tenth of an
order's (bench/order_throughput.py); written here and sent by ``redis_sends`` it costs a few.

The message is exactly what Celery 5.x and kombu 5.x put on a Redis list for ``send_task(name,
args)`` without options: Celery's task message protocol, version 2 (documented:
https://docs.celeryq.dev/en/stable/internals/protocol.html), in kombu's Redis envelope (body
base64, properties with the delivery info and tag), pushed on the left of the list its queue
names, the worker popping from the right. ``tests/server/test_task_messages.py`` holds the two
to the same message, field by field, against a real redis-server, so a Celery or kombu that
changes its messages fails there; pyproject.toml pins both to the major version.

Only the plain case is written here (``written``): a Redis broker with kombu's default key
layout, a task without options (a countdown goes through Celery), a route by queue name in the
app's settings, no "task sent" events; everything else goes through ``send_task``.
"""

from __future__ import annotations

import base64
import os
import socket
import threading
import uuid

import orjson

from server.services import redis_sends

_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}
_HOST = socket.gethostname()
_local = threading.local()


def queue_of(conf, name: str) -> str | None:
    """The queue Celery routes the task ``name`` to with these settings, or None when this
    module does not write its messages (see the module's docstring)."""
    if conf.get("task_always_eager") or conf.get("task_send_sent_event") or \
            conf.get("task_default_priority") is not None:
        return None
    url = str(conf.get("broker_url") or "")
    if not redis_sends.uses_redis(url):
        return None
    transport = conf.get("broker_transport_options") or {}
    if {"global_keyprefix", "sep", "priority_steps", "queue_order_strategy"} & set(transport):
        return None  # kombu would name or order the lists otherwise
    routes = conf.get("task_routes") or {}
    if not isinstance(routes, dict):
        return None  # a router function: only Celery knows
    route = routes.get(name, {})
    if not isinstance(route, dict) or set(route) - {"queue"} or \
            not isinstance(route.get("queue", ""), str):
        return None
    return route.get("queue") or conf.get("task_default_queue") or "celery"


def message(name: str, args: tuple, queue: str, reply_to: str) -> bytes:
    """The message of ``send_task(name, args)`` as kombu puts it on the Redis list ``queue``."""
    task_id = str(uuid.uuid4())
    argsrepr = repr(args)
    body = orjson.dumps([list(args), {}, _EMBED])
    return orjson.dumps({
        "body": base64.b64encode(body).decode("ascii"),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": {
            "lang": "py", "task": name, "id": task_id, "shadow": None, "eta": None,
            "expires": None, "group": None, "group_index": None, "retries": 0,
            "timelimit": [None, None], "root_id": task_id, "parent_id": None,
            "argsrepr": argsrepr, "kwargsrepr": "{}", "origin": f"gen{os.getpid()}@{_HOST}",
            "ignore_result": None, "replaced_task_nesting": 0, "stamped_headers": None,
            "stamps": {}},
        "properties": {
            "correlation_id": task_id, "reply_to": reply_to, "argsrepr": argsrepr,
            "kwargsrepr": "{}", "delivery_mode": 2,
            "delivery_info": {"exchange": "", "routing_key": queue}, "priority": 0,
            "body_encoding": "base64", "delivery_tag": str(uuid.uuid4())}})


def push(app, name: str, args: tuple, queue: str) -> None:
    """Send the task ``name`` with ``args`` to ``queue`` on the app's Redis broker; raises
    when it could not be written (the outbox leaves the row to its relay)."""
    url = str(app.conf.get("broker_url"))
    payload = message(name, args, queue, _reply_to(app))
    redis_sends.send(url, redis_sends.command(b"LPUSH", queue.encode(), payload))


def _reply_to(app) -> str:
    """Celery's reply address of this thread (``app.thread_oid``), kept per thread."""
    held = getattr(_local, "reply_to", None)
    if held is None or held[0] is not app:
        held = _local.reply_to = (app, str(app.thread_oid))
    return held[1]
