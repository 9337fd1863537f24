"""kombu's Redis transport (the production broker), with one redis-py client per channel for
its commands rather than a new one for every command.

kombu's Redis channel builds a new ``redis.Redis`` client for each command it sends outside
its poller (``conn_or_acquire``): every published task. Building one copies redis-py's table of
169 response callbacks, a fifth of a publish's time (bench/order_throughput.py publishes after
about one order in three). The clients share the channel's connection pool either way, and a
redis-py client is safe to share between threads (each command takes a pool connection), so
one client per pool does the same work. A channel whose pool was replaced (after a fork, or a
reconnection) gets a client of the new pool. Selected by workers.celery_app for ``redis://``
broker URLs.
"""

from __future__ import annotations

from contextlib import contextmanager

from kombu.transport import redis


class Channel(redis.Channel):
    _command_client = None

    @contextmanager
    def conn_or_acquire(self, client=None):
        if client:
            yield client
            return
        pool = self.pool
        cached = self._command_client
        if cached is None or cached.connection_pool is not pool:
            cached = self._command_client = self._create_client()
        yield cached


class Transport(redis.Transport):
    Channel = Channel
