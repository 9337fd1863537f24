"""The embedded broker (kombu's filesystem transport): a consumer polling while a message is being
written must not take it half-written. kombu's own transport does (and loses the message);
workers.fs_transport does not. The race is made certain by polling from inside the write."""

from __future__ import annotations

import json
import socket
from queue import Empty

import pytest
from kombu import Connection, Consumer, Exchange, Producer, Queue
from kombu.transport import filesystem

from server import config
from workers import fs_transport
from workers.celery_app import celery_settings


def _channels(tmp_path, transport):
    opts = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path),
            "store_processed": False}
    producer = Connection("filesystem://", transport=transport, transport_options=opts)
    consumer = Connection("filesystem://", transport=transport, transport_options=opts)
    return producer, consumer, producer.default_channel, consumer.default_channel


def _poll_during_write(monkeypatch, module, consumer_channel) -> list:
    """Make the producer's serializer poll the queue (as a consumer would meanwhile)."""
    seen = []
    real = module.dumps

    def dumps_and_poll(payload):
        try:
            seen.append(consumer_channel._get("q"))
        except Empty:
            seen.append("empty")
        except ValueError as exc:  # the JSON of an empty file
            seen.append(exc)
        return real(payload)

    monkeypatch.setattr(module, "dumps", dumps_and_poll)
    return seen


def test_kombus_filesystem_transport_loses_a_message_taken_while_written(tmp_path, monkeypatch):
    """The defect the subclass fixes (if kombu fixes it, this fails: drop workers.fs_transport)."""
    producer, consumer, put, get = _channels(tmp_path, "filesystem")
    seen = _poll_during_write(monkeypatch, filesystem, get)
    try:
        put._put("q", {"n": 1})
        assert len(seen) == 1 and isinstance(seen[0], json.JSONDecodeError)
        with pytest.raises(Empty):
            get._get("q")  # the message is gone
    finally:
        producer.release()
        consumer.release()


def test_embedded_transport_shows_a_message_only_when_whole(tmp_path, monkeypatch):
    transport = "workers.fs_transport:Transport"
    producer, consumer, put, get = _channels(tmp_path, transport)
    assert isinstance(put, fs_transport.Channel)
    seen = _poll_during_write(monkeypatch, fs_transport, get)
    try:
        put._put("q", {"n": 1})
        put._put("q", {"n": 2})
        assert seen == ["empty", {"n": 1}]  # the second write saw the first, whole
        assert get._get("q") == {"n": 2}
        assert not list(tmp_path.iterdir())  # no partial file left behind
    finally:
        producer.release()
        consumer.release()


def test_celery_uses_the_embedded_transport_for_filesystem_urls(whistlestop_env):
    settings = celery_settings(config.from_env(whistlestop_env))
    assert settings["broker_url"] == "filesystem://"
    assert settings["broker_transport"] == "workers.fs_transport:Transport"


def test_the_embedded_workers_poll_every_broker_poll_seconds(whistlestop_env):
    settings = celery_settings(config.from_env(whistlestop_env))
    assert settings["broker_transport_options"]["polling_interval"] == 0.1  # the default
    faster = config.from_env(dict(whistlestop_env, WHISTLESTOP_BROKER_POLL_SECONDS="0.02"))
    assert celery_settings(faster)["broker_transport_options"]["polling_interval"] == 0.02
    with Connection("filesystem://", transport="workers.fs_transport:Transport",
                    transport_options=settings["broker_transport_options"]) as connection:
        assert connection.transport.polling_interval == 0.1


def test_a_consumer_waiting_for_its_task_looks_again_soon_an_idle_one_after_the_interval(
        tmp_path, monkeypatch):
    """kombu's loop sleeps its whole polling interval while the consumer's prefetch is full,
    so a worker of concurrency 1 took one task per interval; the embedded transport pauses
    BUSY_POLL_SECONDS then, and the polling interval only when the queue is empty."""
    opts = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path),
            "control_folder": str(tmp_path / "control"),  # kombu's default: the working folder
            "store_processed": False, "polling_interval": 7.0}
    pauses = []

    class Idle(Exception):
        pass

    def pause(seconds):  # counted, not slept; a pause longer than a busy one ends the drain
        pauses.append(seconds)
        if seconds > fs_transport.BUSY_POLL_SECONDS:
            raise Idle

    monkeypatch.setattr(fs_transport, "sleep", pause)
    queue = Queue("q", Exchange("q"), "q")
    got = []
    with Connection("filesystem://", transport="workers.fs_transport:Transport",
                    transport_options=opts) as connection:
        producer = Producer(connection)
        for body in ("one", "two"):
            producer.publish(body, exchange=queue.exchange, routing_key="q", declare=[queue])
        with Consumer(connection, [queue], callbacks=[lambda _body, m: got.append(m)]) as c:
            c.qos(prefetch_count=1)  # as a worker of concurrency 1
            connection.drain_events(timeout=1)
            assert [m.payload for m in got] == ["one"] and not pauses  # taken at once
            with pytest.raises(socket.timeout):  # "two" waits: "one" is not acknowledged
                connection.drain_events(timeout=0.05)
            assert pauses and max(pauses) <= fs_transport.BUSY_POLL_SECONDS
            got[0].ack()
            pauses.clear()
            connection.drain_events(timeout=1)
            assert [m.payload for m in got] == ["one", "two"] and not pauses
            got[1].ack()
            with pytest.raises(Idle):  # nothing waits: the polling interval
                connection.drain_events(timeout=30)
            assert pauses == [7.0]


def test_a_queue_takes_its_own_messages_oldest_first_among_the_others(tmp_path):
    """Several queues share the folder (workers/celery_app.py): each takes its own, in order,
    whatever else waits there, and never a file still being written."""
    producer, consumer, put, get = _channels(tmp_path, "workers.fs_transport:Transport")
    try:
        for n in range(6):
            put._put("bots" if n % 3 else "mail", {"n": n})
        (tmp_path / ".1_x.mail.msg.partial").write_text("{")  # another producer's, unfinished
        assert [get._get("mail") for _ in range(2)] == [{"n": 0}, {"n": 3}]
        with pytest.raises(Empty):
            get._get("mail")
        assert [get._get("bots")["n"] for _ in range(4)] == [1, 2, 4, 5]
        assert [p.name for p in tmp_path.iterdir()] == [".1_x.mail.msg.partial"]
    finally:
        producer.release()
        consumer.release()
