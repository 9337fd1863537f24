"""Live news of games: which game moved to which step, for the game page's open stream
(server/web/live.py), within about a second of the commit.

Writing: every change of a game's step (the order service's compare-and-set, which orders,
resolutions, bots, deadlines' defaults and the start of a game go through, and a resignation
or forfeit) calls ``changed`` in its transaction; the news is published only once that
transaction has committed (the session's hooks below, beside the outbox's), never before, and
a rollback forgets it. With a Redis broker (production) it is published on one Redis pub/sub
channel, by one send on a connection of the thread's own that takes no answers (the order
never waits for Redis); otherwise (the embedded default: SQLite and the filesystem://
transport) it is not sent anywhere, and the watchers read the games' rows instead.

Reading: each process serving streams (the `live` process) has one ``Watcher`` (made at its
first stream), which knows the games its open streams watch and wakes exactly the streams of
a game that moved on:
- with Redis, a thread subscribed to the channel (one connection per process; every process
  hears every game's news, a few dozen bytes each, and keeps only the games it watches), plus a
  read of the watched games' rows every ``SAFETY_SECONDS``, for news lost while Redis was away;
- without, a thread reading the watched games' (id, step, status) every ``POLL_SECONDS``: one
  SELECT by primary key per process and poll, however many streams are open (at most 500 ids a
  statement); measured on SQLite, 0.5 ms of CPU for one game and 1.6 ms for 300, so under
  0.4 % of a core at two reads a second, and nothing while no stream is open.
A stream thread costs nothing while it waits: it sleeps on its own ``threading.Event``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import NamedTuple
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.engine import Engine

from server.light_session import TransactionHooks, on_transaction_end
from server.models import Game
from server.services import redis_sends
from server.services.redis_sends import uses_redis

log = logging.getLogger("whistlestop.live")

POLL_SECONDS = 0.5  # without Redis: how often a watcher reads its games' steps
SAFETY_SECONDS = 15.0  # with Redis: how often it reads them anyway
BATCH = 500  # game ids per SELECT of a watcher's read
KNOWN_MAX = 50_000  # games whose last news a watcher keeps


class News(NamedTuple):
    """A game's step and status after a change."""
    game_id: int
    step: int
    status: str



def channel(url: str) -> str:
    """The channel of an installation's news: pub/sub channels are the Redis server's, not a
    database's, so the database number of the broker URL is part of the name."""
    number = urlsplit(url).path.strip("/") or "0"
    return f"whistlestop:{number}:games"


def encode(news: News) -> str:
    return f"{news.game_id} {news.step} {news.status}"


def decode(data) -> News | None:
    """The news of a channel message; None for anything else."""
    if isinstance(data, bytes):
        data = data.decode("ascii", "replace")
    parts = str(data).split()
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return News(int(parts[0]), int(parts[1]), parts[2])


# --- writing: published after the commit -----------------------------------------------------
_PENDING = "whistlestop.live.pending"
_COMMITTED = "whistlestop.live.committed"


def changed(session, game_id: int, step: int, status: str) -> None:
    """Record, in the session's transaction, that the game is now at ``step`` (``status``):
    published when the transaction commits, forgotten if it rolls back."""
    session.info.setdefault(_PENDING, {})[game_id] = News(game_id, step, status)


def _committed(info: dict) -> None:
    news = info.pop(_PENDING, None)
    if news:
        info.setdefault(_COMMITTED, {}).update(news)


def _rolled_back(info: dict) -> None:
    info.pop(_PENDING, None)


def _ended(info: dict, _bind) -> None:
    if _COMMITTED in info:
        publish(list(info.pop(_COMMITTED).values()))


on_transaction_end(TransactionHooks(_committed, _rolled_back, _ended))


_broker: list = [None, ""]  # (Celery's publishing machinery, its broker URL) last read


def _broker_url() -> str:
    """The process's broker, as the outbox publishes to it: read from Celery's settings once
    per configuration (``workers.celery_app.reconfigure`` makes the publishing machinery,
    ``amqp``, again). Reading the settings at every order cost as much as the rest of the
    news's making."""
    from workers.celery_app import celery

    amqp = celery.amqp
    if _broker[0] is not amqp:
        _broker[:] = [amqp, str(celery.conf.get("broker_url") or "")]
    return _broker[1]


_names: dict[str, bytes] = {}  # broker URL -> its channel's name (parsing the URL cost a tenth)


def publish(news: list[News], url: str | None = None) -> int:
    """Publish committed news on the installation's channel when its broker is Redis; return
    how many were published. Never raises: news that could not be sent reaches the pages by
    the watchers' safety read, or the page's version check."""
    url = _broker_url() if url is None else url
    if not news or not uses_redis(url):
        return 0
    name = _names.get(url)
    if name is None:
        name = _names[url] = channel(url).encode()
    message = b"".join(redis_sends.command(b"PUBLISH", name, encode(item).encode())
                       for item in news)
    try:
        redis_sends.send(url, message)
    except Exception as exc:  # Redis is away: the safety read finds the change
        log.warning("live: could not publish %s news: %s", len(news), exc)
        return 0
    return len(news)


# --- reading: one watcher per web process ----------------------------------------------------
class Watcher:
    """Wakes the streams waiting for a game when it moves on (see the module's docstring)."""

    def __init__(self, engine: Engine, url: str = "", poll_seconds: float | None = None):
        self.engine = engine
        self.url = url if uses_redis(url) else ""
        self.poll_seconds = poll_seconds if poll_seconds is not None else \
            SAFETY_SECONDS if self.url else POLL_SECONDS
        self._lock = threading.Lock()
        self._known: dict[int, News] = {}  # the last news of every watched game
        self._waiting: dict[int, set[threading.Event]] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.reads = 0  # how many times it read the games' rows (tests, benches)
        # Set once the channel is heard and what changed before was read (cleared on an outage).
        self.listening = threading.Event()

    def start(self) -> "Watcher":
        targets = [self._poll] + ([self._listen] if self.url else [])
        for target in targets:
            thread = threading.Thread(target=target, name=f"live-{target.__name__}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)

    @property
    def streams(self) -> int:
        """How many streams are waiting now."""
        with self._lock:
            return sum(len(events) for events in self._waiting.values())

    def wait(self, game_id: int, step: int, timeout: float,
             gone: threading.Event | None = None) -> News | None:
        """The game's news once its step is past ``step`` (at once if it is already known
        to be), or None after ``timeout`` seconds without, or as soon as ``gone`` is set and
        the game's waits are woken (``wake``: the stream's client left)."""
        woken = threading.Event()
        with self._lock:
            self._waiting.setdefault(game_id, set()).add(woken)
        try:
            deadline = time.monotonic() + timeout
            while True:
                with self._lock:
                    news = self._known.get(game_id)
                if news is not None and news.step > step:
                    return news
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set() or (gone is not None and gone.is_set()):
                    return None
                woken.wait(left)
                woken.clear()
        finally:
            with self._lock:
                events = self._waiting.get(game_id)
                if events is not None:
                    events.discard(woken)
                    if not events:
                        del self._waiting[game_id]

    def wake(self, game_id: int) -> None:
        """Wake the game's waits without news (each looks at its ``gone`` and waits on)."""
        with self._lock:
            events = list(self._waiting.get(game_id, ()))
        for woken in events:
            woken.set()

    def saw(self, news: News) -> None:
        """Take news (from the channel or a read): wake the game's streams if it moved on."""
        with self._lock:
            known = self._known.get(news.game_id)
            if known is not None and known.step >= news.step:
                return  # old news (a read and a message crossing)
            if len(self._known) >= KNOWN_MAX:  # forget the games nobody waits for
                self._known = {g: n for g, n in self._known.items() if g in self._waiting}
            # Kept for games nobody waits for too: news heard between a stream's read of its
            # game and its wait is not lost. Steps only grow, so what is kept of a game nobody
            # watched for a while is only ever older than what a stream knows.
            self._known[news.game_id] = news
            events = list(self._waiting.get(news.game_id, ()))
        for woken in events:
            woken.set()

    def read(self) -> None:
        """Read the watched games' steps from the database."""
        with self._lock:
            ids = sorted(self._waiting)
        if not ids:
            return
        self.reads += 1
        games = Game.__table__
        with self.engine.connect() as connection:
            # A read: on SQLite it must not take the write lock (db.py begins IMMEDIATE).
            connection.execution_options(sqlite_begin="DEFERRED")
            for i in range(0, len(ids), BATCH):
                rows = connection.execute(select(games.c.id, games.c.step, games.c.status)
                                          .where(games.c.id.in_(ids[i:i + BATCH]))).all()
                for game_id, step, status in rows:
                    self.saw(News(game_id, step, status))

    def _poll(self) -> None:
        while not self._stop.wait(self.poll_seconds):
            try:
                self.read()
            except Exception as exc:  # the database away a moment: read again next time
                log.warning("live: could not read the games' steps: %s", exc)

    def _listen(self) -> None:
        """Hear the channel; after an outage, subscribe again and read the rows once."""
        import redis

        name, pause = channel(self.url), 0.5
        while not self._stop.is_set():
            try:
                client = redis.Redis.from_url(self.url, socket_connect_timeout=5,
                                              health_check_interval=30)
                with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    pubsub.subscribe(name)
                    self.read()  # what changed while not subscribed
                    self.listening.set()
                    pause = 0.5
                    while not self._stop.is_set():
                        message = pubsub.get_message(timeout=1.0)
                        if message and message.get("type") == "message":
                            news = decode(message.get("data"))
                            if news is not None:
                                self.saw(news)
            except Exception as exc:
                self.listening.clear()
                log.warning("live: Redis pub/sub lost (%s); again in %.1f s", exc, pause)
                self._stop.wait(pause)
                pause = min(pause * 2, 10.0)


_WATCHERS_LOCK = threading.Lock()


def watcher_of(extensions: dict, engine: Engine, url: str) -> Watcher:
    """The app's watcher (``extensions``: the Flask app's), started at its first use."""
    found = extensions.get("whistlestop.live")
    if found is None:
        with _WATCHERS_LOCK:
            found = extensions.get("whistlestop.live")
            if found is None:
                found = extensions["whistlestop.live"] = Watcher(engine, url).start()
    return found
