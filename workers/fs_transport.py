"""kombu's filesystem transport (the embedded broker), with each message file written whole
before it appears in the queue folder, and a worker that takes its next task as soon as it can.

kombu's own ``_put`` creates the message file under its final name and then writes it, while a
consumer's ``_get`` takes any file with that name at once: a consumer can take the file between
the two, read it empty, fail to decode it and drop it (measured: about one message in 30,000
with two producers and one consumer; tests/workers/test_embedded_broker.py). Here the payload
goes to a hidden temporary name that ``_get`` skips, and a rename, atomic on POSIX, gives it its
queue name complete. Selected by workers.celery_app for ``filesystem://`` broker URLs.

The transport polls: a consumer that finds nothing sleeps its polling interval
(``BROKER_POLL_SECONDS``, server/config.py) and looks again. kombu's loop also sleeps that
long when the consumer may not take a message yet (its prefetch is full: a worker of
concurrency 1 running a task), so such a worker took at most one task per interval however
many were waiting (measured: 1.0 task/s at kombu's default of 1 s; bench/README.md,
told_latency.py). Here a consumer that is only waiting for its running task looks again every
``BUSY_POLL_SECONDS``, which reads no folder (the prefetch is checked in memory); only an
empty queue folder waits the polling interval.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import uuid
from queue import Empty
from time import monotonic, monotonic_ns, sleep

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

# How soon a consumer whose prefetch is full (its tasks running) looks again: a look costs no
# disk read, about 20 µs of CPU, so 2 % of a core while a task runs. Measured (1,500 pings
# waiting, the Procfile's worker): 83-118 tasks/s at 5 ms, 153-154 at 1 ms.
BUSY_POLL_SECONDS = 0.001


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `message` onto `queue`: write it under a name `_get` skips, then rename it."""
        # Named by the moment in microseconds (kombu: milliseconds), so that the messages of
        # one producer are taken in the order it put them: _get takes the first name sorted.
        name = "{}_{}.{}.msg".format(monotonic_ns() // 1000, uuid.uuid4(), queue)
        final = os.path.join(self.data_folder_out, name)
        # "_get" takes files whose name after the first dot is "<queue>.msg"; this one's is not.
        partial = os.path.join(self.data_folder_out, f".{name}.partial")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            try:
                os.unlink(partial)
            except OSError:
                pass
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        """Take the oldest message of ``queue``: kombu's ``_get``, with the folder's names
        filtered to the queue's before they are sorted. kombu sorted the whole folder and took
        its names off the front one by one: with 1,500 bot moves waiting, a look at another,
        empty queue cost 1.07 ms, now 0.72 ms (the listing itself), and a worker looks at each
        of its five queues in turn."""
        wanted = f"{queue}.msg"  # the name after the first dot; a partial file's is not
        names = sorted(name for name in os.listdir(self.data_folder_in)
                       if name.partition(".")[2] == wanted)
        processed = self.processed_folder if self.store_processed else tempfile.gettempdir()
        for name in names:
            try:  # another consumer may have taken it meanwhile
                shutil.move(os.path.join(self.data_folder_in, name), processed)
            except OSError:
                continue
            path = os.path.join(processed, name)
            try:
                with open(path, "rb") as f:
                    payload = f.read()
                if not self.store_processed:
                    os.remove(path)
            except OSError as exc:
                raise ChannelError(f"Cannot read file {path!r} from queue.") from exc
            return loads(bytes_to_str(payload))
        raise Empty()

    @property
    def waits_for_its_tasks(self) -> bool:
        """Whether this channel consumes but may take no message now (its prefetch is full)."""
        return bool(self._consumers) and not self.qos.can_consume()


class Transport(filesystem.Transport):
    Channel = Channel

    def drain_events(self, connection, timeout=None):
        """Deliver one message, polling until one comes or ``timeout`` seconds have passed
        (socket.timeout): kombu's loop (virtual.Transport.drain_events), with a short pause
        instead of the polling interval while a consumer only waits for its running tasks."""
        started = monotonic()
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                waited = monotonic() - started
                if timeout is not None and waited >= timeout:
                    raise socket.timeout()
                busy = any(channel.waits_for_its_tasks for channel in self.channels)
                pause = BUSY_POLL_SECONDS if busy else self.polling_interval
                if pause is None:
                    continue  # no polling interval: look again at once, as kombu does
                if timeout is not None:
                    pause = min(pause, timeout - waited)
                sleep(pause)
