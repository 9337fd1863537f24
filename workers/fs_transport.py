"""kombu's filesystem transport (the embedded broker), with each message file written whole
before it appears in the queue folder.

kombu's own ``_put`` creates the message file under its final name and then writes it, while a
consumer's ``_get`` takes any file with that name at once: a consumer can take the file between
the two, read it empty, fail to decode it and drop it (measured: about one message in 30,000
with two producers and one consumer; tests/workers/test_embedded_broker.py). Here the payload
goes to a hidden temporary name that ``_get`` skips, and a rename, atomic on POSIX, gives it its
queue name complete. Selected by workers.celery_app for ``filesystem://`` broker URLs.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `message` onto `queue`: write it under a name `_get` skips, then rename it."""
        name = "{}_{}.{}.msg".format(int(round(monotonic() * 1000)), uuid.uuid4(), queue)
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


class Transport(filesystem.Transport):
    Channel = Channel
