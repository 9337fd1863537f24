"""What the `live` process (server/gunicorn_live.py) serves, and who may hold its streams.

It serves the game pages' streams (server/web/live.py) and /healthz, nothing else: every other
request there is a 404 (the pages, the API and the mail catcher are the `web` process's).

A stream holds one of the process's threads for minutes, so the slots are shared out:
- the process holds at most LIVE_STREAMS_MAX (its threads but 8: server/gunicorn_conf.py);
- one reader at most LIVE_STREAMS_PER_CLIENT: a signed-in reader per account, from wherever it
  connects, a reader not signed in per address (``rate_limits.client``: the client behind
  TRUSTED_PROXY_HOPS proxies, an IPv6 one by its /64);
- the readers not signed in, together, at most LIVE_ANONYMOUS_SHARE of the process's streams,
  so that the players' pages keep theirs however many addresses the others come from.
A page refused a slot falls back to its version check (the stream answers 204).

A slot is given back when its response closes, and a stream whose client closed its connection
ends at once (``Departures``, one thread a process listening on the streams' sockets), not at
its next heartbeat, when a write would first have failed.
"""

from __future__ import annotations

import selectors
import socket
import threading
from typing import Callable

from flask import Response, current_app, request

DEFAULT_STREAMS_MAX = 100  # no server said how many threads it has (development server, tests)
DEFAULT_PER_CLIENT = 8
DEFAULT_ANONYMOUS_SHARE = 0.5

# --- only the streams ---------------------------------------------------------------------------
STREAMS_ENDPOINT = "live.events"


def streams_only():
    """In the `live` process (LIVE_PROCESS, set by server/gunicorn_live.py): 404 for anything
    but a stream and /healthz."""
    if not current_app.config.get("LIVE_PROCESS"):
        return None
    if request.endpoint == STREAMS_ENDPOINT or request.path == "/healthz":
        return None
    return Response("This is Whistlestop's live news process: it serves only the game pages' "
                    "streams (/games/<id>/events) and /healthz; the pages and the API are at "
                    "WHISTLESTOP_BASE_URL.\n", status=404, mimetype="text/plain")


# --- slots -------------------------------------------------------------------------------------
class Slots:
    """The streams an app holds (one app per process in production): how many, how many of
    readers not signed in, and per reader. Kept on the app (``app.extensions``), not in the
    module, so that each app counts its own."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = self.anonymous = 0
        self.by_client: dict[str, int] = {}


def _slots(app=None) -> Slots:
    app = app or current_app._get_current_object()
    return app.extensions.setdefault("whistlestop.live_slots", Slots())


def open_streams(app=None) -> int:
    """How many streams this process (its app) holds now."""
    return _slots(app).open


class Slot:
    """One stream's place in the process; ``give_back`` once it ends (twice does nothing)."""

    def __init__(self, slots: Slots, client: str, anonymous: bool):
        self.slots, self.client, self.anonymous, self._held = slots, client, anonymous, True

    def give_back(self) -> None:
        slots = self.slots
        with slots.lock:
            if not self._held:
                return
            self._held = False
            slots.open -= 1
            slots.anonymous -= self.anonymous
            left = slots.by_client[self.client] - 1
            if left:
                slots.by_client[self.client] = left
            else:
                del slots.by_client[self.client]


def take(user) -> Slot | None:
    """A slot for a stream of ``user`` (None: a reader not signed in, counted by address), or
    None when the process, the reader or the anonymous readers hold all they may."""
    from server import rate_limits

    config = current_app.config
    most = int(config.get("LIVE_STREAMS_MAX", DEFAULT_STREAMS_MAX))
    per_client = int(config.get("LIVE_STREAMS_PER_CLIENT", DEFAULT_PER_CLIENT))
    share = float(config.get("LIVE_ANONYMOUS_SHARE", DEFAULT_ANONYMOUS_SHARE))
    anonymous = user is None
    client = f"address {rate_limits.client()}" if anonymous else f"user {user.id}"
    slots = _slots()
    with slots.lock:
        if slots.open >= most or slots.by_client.get(client, 0) >= per_client:
            return None
        if anonymous and slots.anonymous >= int(most * share):
            return None
        slots.open += 1
        slots.anonymous += anonymous
        slots.by_client[client] = slots.by_client.get(client, 0) + 1
    return Slot(slots, client, anonymous)


# --- departures ---------------------------------------------------------------------------------
def client_socket(environ: dict):
    """The connection's socket, where the server says it (gunicorn, werkzeug's), or None."""
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


class Departures:
    """Calls a stream's ``on_gone`` as soon as its client closes the connection: one thread
    waits on every open stream's socket (epoll: nothing is done while nobody leaves). A socket
    that turns readable is peeked at: the end of the stream (b"") is a departure; anything else
    (a client that sends more, a TLS socket that cannot be peeked at) is only watched no more,
    and its stream ends at its next write that fails, as before."""

    def __init__(self):
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread: threading.Thread | None = None

    def watch(self, sock, on_gone: Callable[[], None]):
        """Watch ``sock`` (None: nothing to watch); return what ``forget`` takes."""
        if sock is None:
            return None
        with self._lock:
            try:
                self._selector.register(sock, selectors.EVENT_READ, on_gone)
            except (KeyError, ValueError, OSError):  # closed already, or watched
                return None
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="live-departures",
                                                daemon=True)
                self._thread.start()
        self._wake_w.send(b"\0")  # a selector other than epoll looks at its sockets again
        return sock

    def forget(self, sock) -> None:
        if sock is None:
            return
        with self._lock:
            try:
                self._selector.unregister(sock)
            except (KeyError, ValueError):
                pass

    def _run(self) -> None:
        while True:
            for key, _events in self._selector.select():
                if key.data is None:
                    try:
                        while self._wake_r.recv(512):
                            pass
                    except BlockingIOError:
                        pass
                    continue
                sock = key.fileobj
                try:
                    gone = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
                except (BlockingIOError, InterruptedError):
                    continue  # not readable after all
                except ValueError:  # TLS: no peeking
                    gone = False
                except OSError:  # reset, or closed meanwhile
                    gone = True
                self.forget(sock)
                if gone:
                    try:
                        key.data()
                    except Exception:  # a stream's wake-up must not stop the others'
                        pass


_departures: list[Departures] = []
_departures_lock = threading.Lock()


def departures() -> Departures:
    """The process's Departures, made at its first stream."""
    if not _departures:
        with _departures_lock:
            if not _departures:
                _departures.append(Departures())
    return _departures[0]
