"""What the bench scripts share: the repository on sys.path, a free port, percentiles, a Redis
server of their own, waiting for a server's port and stopping the processes started."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values, q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation between closest ranks."""
    xs = sorted(values)
    if not xs:
        return float("nan")
    pos = (len(xs) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def start_redis(folder: Path) -> tuple[subprocess.Popen, int]:
    """A redis-server without persistence on a free port (the production broker): (process,
    port)."""
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def wait_for_port(port: int, what: str, seconds: float = 60) -> None:
    """Wait until something listens on 127.0.0.1:``port``; RuntimeError naming ``what`` after
    ``seconds``."""
    deadline = time.time() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.2)


def stop(procs) -> None:
    """Terminate the processes, the last started first; kill one that does not end in 30 s."""
    for proc in reversed(procs):
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def tree_cpu_seconds(pid: int, skip: frozenset[int] = frozenset()) -> float:
    """CPU seconds (user + system) of a process and its descendants, including the children
    they have reaped (so a child that ended meanwhile still counts); the processes in ``skip``
    (and theirs) left out; 0 when gone."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        if p in skip:
            continue
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(k) for k in (task / "children").read_text().split()]
        except OSError:  # ended meanwhile: its time is now its parent's
            continue
    return total / tick


def procfile(name: str) -> list[str]:
    """The Procfile's command of process ``name``, run by this Python (``-m celery`` or
    ``-m gunicorn``) from the repository root."""
    import shlex

    for line in (ROOT / "Procfile").read_text().splitlines():
        process, _, command = line.partition(":")
        if process.strip() == name:
            words = shlex.split(command)
            return [sys.executable, "-m", *words] if words[0] in ("celery", "gunicorn") \
                else words
    raise KeyError(f"no {name} process in the Procfile")
