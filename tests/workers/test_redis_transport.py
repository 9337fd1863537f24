"""The production broker's transport (workers.redis_transport): kombu's Redis transport with one
redis-py client per channel for the commands it sends, against a real redis-server."""

from __future__ import annotations

import threading

from kombu import Connection
from kombu.transport import redis as kombu_redis

from server import config
from workers import redis_transport
from workers.celery_app import celery_settings

TRANSPORT = "workers.redis_transport:Transport"


def _count_clients(monkeypatch) -> list:
    made = []
    real = kombu_redis.Channel._create_client

    def counted(self, asynchronous=False):
        made.append(asynchronous)
        return real(self, asynchronous)

    monkeypatch.setattr(kombu_redis.Channel, "_create_client", counted)
    return made


def test_kombus_transport_builds_a_client_for_every_message(redis_url, monkeypatch):
    """What the subclass saves (if kombu stops doing it, this fails: drop the subclass)."""
    with Connection(redis_url, transport="redis") as connection:
        channel = connection.default_channel
        made = _count_clients(monkeypatch)
        for n in range(5):
            channel._put("q", {"n": n})
        assert made.count(False) == 5


def test_one_client_sends_every_message_and_all_arrive_in_order(redis_url, monkeypatch):
    with Connection(redis_url, transport=TRANSPORT) as producer, \
            Connection(redis_url, transport=TRANSPORT) as consumer:
        put, get = producer.default_channel, consumer.default_channel
        assert isinstance(put, redis_transport.Channel)
        made = _count_clients(monkeypatch)
        for n in range(50):
            put._put("q", {"n": n})
        assert made.count(False) == 1
        assert put._size("q") == 50
        assert [get._get("q")["n"] for _ in range(50)] == list(range(50))


def test_threads_share_the_client_and_lose_nothing(redis_url):
    with Connection(redis_url, transport=TRANSPORT) as connection:
        channel = connection.default_channel

        def send(k: int) -> None:
            for n in range(200):
                channel._put("q", {"k": k, "n": n})

        threads = [threading.Thread(target=send, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        got = [channel._get("q") for _ in range(800)]
        for k in range(4):  # each thread's messages, all of them, in its order
            assert [m["n"] for m in got if m["k"] == k] == list(range(200))
        assert channel._size("q") == 0


def test_a_channel_whose_pool_was_replaced_sends_through_the_new_pool(redis_url):
    """After a fork (kombu drops the channel's pools) the next command uses a client of the new
    pool, not the old one."""
    with Connection(redis_url, transport=TRANSPORT) as connection:
        channel = connection.default_channel
        channel._put("q", {"n": 1})
        old_pool = channel.pool
        channel._after_fork()  # what kombu does in a forked child
        channel._put("q", {"n": 2})
        assert channel.pool is not old_pool
        with channel.conn_or_acquire() as client:
            assert client.connection_pool is channel.pool
        assert [channel._get("q")["n"] for _ in range(2)] == [1, 2]


def test_celery_uses_it_for_redis_urls_only(whistlestop_env):
    for url, transport in (("redis://127.0.0.1:6379/0", TRANSPORT),
                           # kombu picks its TLS defaults by the transport's name "rediss"
                           ("rediss://127.0.0.1:6380/0", None),
                           ("filesystem://", "workers.fs_transport:Transport")):
        settings = celery_settings(config.from_env({**whistlestop_env,
                                                    "WHISTLESTOP_BROKER_URL": url}))
        assert settings["broker_transport"] == transport, url
