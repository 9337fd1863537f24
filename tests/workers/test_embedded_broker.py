"""The embedded broker (kombu's filesystem transport): a consumer polling while a message is being
written must not take it half-written. kombu's own transport does (and loses the message);
workers.fs_transport does not. The race is made certain by polling from inside the write."""

from __future__ import annotations

import json
from queue import Empty

import pytest
from kombu import Connection
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
