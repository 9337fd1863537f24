"""One-way sends to Redis: commands written on a connection of the thread's own on which Redis
sends no answers (``CLIENT REPLY OFF``), so a send is one write and never waits for Redis.

Used after a commit by what must not hold up the request that committed: the live news
(``PUBLISH``, server/services/live.py) and the outbox's task messages (``LPUSH``,
server/services/task_messages.py). Neither needs Redis's answer: news lost reaches the pages
by the watchers' safety read, and a task message lost is sent again by the outbox's relay (a
row is done when its task consumed it, not when it was sent). Measured on the order path
(bench/order_throughput.py): redis-py's client and its pool took 60 µs of CPU a command, and
on a busy machine the wait for Redis's answer waited for Redis to be scheduled; one write
costs a few µs.

A connection Redis has closed (it restarted, or dropped idle clients) is seen before the send
(anything to read on a connection that gets no answers is its end) and made again; a failed
write is tried once more at once on a new connection. A connection made in another process
(before a fork) is never used: each process makes its own.
"""

from __future__ import annotations

import os
import threading

# The broker URLs that name a Redis server: kombu's Redis transport takes these, and the live
# news, the outbox's own task messages and the worker settings all ask ``uses_redis``.
REDIS_SCHEMES = ("redis://", "rediss://", "redis+socket://")


def uses_redis(url: str | None) -> bool:
    """Whether the broker URL ``url`` is a Redis server's."""
    return (url or "").startswith(REDIS_SCHEMES)


_clients: dict[str, object] = {}
_clients_lock = threading.Lock()
_local = threading.local()


def command(*parts: bytes) -> bytes:
    """One command in Redis's protocol (RESP), made here: redis-py's packing cost more than
    the send."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


def send(url: str, payload: bytes) -> None:
    """Write ``payload`` (commands made by ``command``) to Redis at ``url``; raises the error
    of the second try when it could not be written."""
    for attempt in (1, 2):
        try:
            connection = _connection(url)
            if _closed(connection):  # else the first send after would vanish without an error
                _drop_connection(url)
                connection = _connection(url)
            connection.send_packed_command([payload], check_health=False)
            return
        except Exception:
            # A connection Redis dropped: once more at once on a new one; then Redis is away.
            _drop_connection(url)
            if attempt == 2:
                raise


def _client(url: str):
    """One Redis client (a pool of connections) per URL and process."""
    key = (url, os.getpid())
    client = _clients.get(key)
    if client is None:
        import redis

        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = redis.Redis.from_url(
                    url, socket_timeout=2, socket_connect_timeout=2)
    return client


def _connection(url: str):
    """This thread's own answerless connection to Redis at ``url``, made in this process."""
    connections = getattr(_local, "connections", None)
    pid = os.getpid()
    if connections is None or getattr(_local, "pid", None) != pid:
        connections = _local.connections = {}  # made before a fork: the parent's, not ours
        _local.pid = pid
    connection = connections.get(url)
    if connection is None:
        connection = _client(url).connection_pool.make_connection()
        connection.connect()  # authenticated and its database selected, answers read
        connection.send_packed_command([command(b"CLIENT", b"REPLY", b"OFF")],
                                       check_health=False)
        connections[url] = connection
    return connection


def _closed(connection) -> bool:
    """Whether Redis has closed this connection: with answers off it sends nothing, so
    anything to read (its end of the stream) means closed. One poll of the socket."""
    try:
        return bool(connection.can_read(timeout=0))
    except Exception:  # the end of the stream, read as an error
        return True


def _drop_connection(url: str) -> None:
    connection = getattr(_local, "connections", {}).pop(url, None)
    if connection is not None:
        connection.disconnect()
