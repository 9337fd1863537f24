"""Real Redis and PostgreSQL servers for the tests, not mocks.

Each is started on a free port in a temporary folder, at most once per test process (each
pytest-xdist worker starts its own, lazily, when one of its tests asks for it) and stopped when
the process's session ends. A missing binary fails the test with the install step; it never skips.
"""

from __future__ import annotations

import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

REDIS_INSTALL = "apt-get install -y redis-server"
POSTGRES_INSTALL = "apt-get install -y postgresql  (PostgreSQL 15: initdb and postgres)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_binary(name: str, install: str, extra_globs: tuple[str, ...] = ()) -> str:
    """Return the path of an executable, or fail the test saying how to install it."""
    found = shutil.which(name)
    if not found:
        for pattern in extra_globs:
            matches = sorted(glob.glob(pattern), reverse=True)  # newest version first
            if matches:
                found = matches[0]
                break
    if not found:
        pytest.fail(f"`{name}` was not found on PATH. These tests need a real server: install it "
                    f"with `{install}` (.ci/run does this before running the tests).",
                    pytrace=False)
    return found


_LIBC = ctypes.CDLL(None)  # loaded here: the child of a fork should not load libraries


def _die_with_parent(sig: int):
    """preexec_fn: the server gets ``sig`` if the test process dies without stopping it.

    (Python calls preexec_fn after the uid change, which would otherwise clear the setting.)
    """
    def preexec():
        _LIBC.prctl(1, sig)  # PR_SET_PDEATHSIG
    return preexec


def _wait_for_port(port: int, proc: subprocess.Popen, what: str, log: Path,
                   timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}:\n{_tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {timeout}s:\n{_tail(log)}")


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class RedisServer:
    """A redis-server; stop() and start() again keep its port.

    Without ``durable`` it keeps nothing on disk: a stop loses every message it held (a crash
    of a Redis run without persistence). With ``durable`` every write is in its append-only
    file before it answers (appendfsync always), so a stop loses nothing.
    """

    def __init__(self, folder: Path, port: int | None = None, durable: bool = False):
        self.binary = find_binary("redis-server", REDIS_INSTALL)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.durable = durable
        self.log = self.folder / "redis.log"
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> "RedisServer":
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.durable else "no", "--appendfsync", "always",
             "--dir", str(self.folder), "--logfile", str(self.log),
             "--daemonize", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_die_with_parent(signal.SIGKILL))
        _wait_for_port(self.port, self.proc, "redis-server", self.log)
        return self

    def stop(self) -> None:
        """Stop at once, as a crash would (SIGKILL): what it held in memory is gone."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def client(self, db: int = 0):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, db=db, socket_timeout=10)


class PostgresServer:
    """A throwaway PostgreSQL cluster (initdb + postgres), trust auth on 127.0.0.1.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user
    (or `nobody`) and its folder lives under /tmp, where that user can reach it.
    """

    SUPERUSER = "postgres"

    def __init__(self, settings: dict[str, str] | None = None):
        globs = ("/usr/lib/postgresql/*/bin/{}",)
        self.initdb = find_binary("initdb", POSTGRES_INSTALL,
                                  tuple(g.format("initdb") for g in globs))
        self.postgres = find_binary("postgres", POSTGRES_INSTALL,
                                    tuple(g.format("postgres") for g in globs))
        self.folder = Path(tempfile.mkdtemp(prefix="whistlestop-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.user: str | None = None
        # Server settings over the throwaway ones below (a bench: durable writes, extensions).
        self.settings = dict(settings or {})
        if os.geteuid() == 0:
            self.user = next((name for name in ("postgres", "nobody") if _user_exists(name)))
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

    def _run_as(self) -> dict:
        if self.user is None:
            return {}
        entry = pwd.getpwnam(self.user)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def start(self) -> "PostgresServer":
        env = dict(os.environ, LC_ALL="C", LANG="C")
        out = subprocess.run(
            [self.initdb, "-D", str(self.data), "-U", self.SUPERUSER, "--auth=trust",
             "--no-sync", "-E", "UTF8", "--locale=C"],
            env=env, cwd=self.folder, capture_output=True, text=True, timeout=120,
            **self._run_as())
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        log = self.log.open("ab")
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.log, entry.pw_uid, entry.pw_gid)
        self.proc = subprocess.Popen(
            [self.postgres, "-D", str(self.data), "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.folder}",
             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=300", "-c", "shared_buffers=32MB",
             # A backend whose client died (a killed worker) ends without waiting for a query.
             "-c", "client_connection_check_interval=500",
             "-c", "log_min_messages=warning",
             *(arg for k, v in self.settings.items() for arg in ("-c", f"{k}={v}"))],
            env=env, cwd=self.folder, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=_die_with_parent(signal.SIGQUIT),
            **self._run_as())
        log.close()
        _wait_for_port(self.port, self.proc, "postgres", self.log)
        deadline = time.monotonic() + 30
        while True:  # listening is not yet accepting queries
            try:
                self.execute("SELECT 1")
                return self
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # immediate shutdown: a throwaway cluster
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres", autocommit: bool = True):
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.SUPERUSER,
                               dbname=database, autocommit=autocommit, connect_timeout=10)

    def execute(self, sql: str, database: str = "postgres") -> None:
        with self.connect(database) as conn:
            conn.execute(sql)

    def create_database(self) -> str:
        name = f"ws_{uuid.uuid4().hex[:16]}"
        self.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


# --- fixtures (imported by tests/conftest.py) ---------------------------------------------------
@pytest.fixture(scope="session")
def redis_server():
    """One redis-server per test process."""
    server = RedisServer(Path(tempfile.mkdtemp(prefix="whistlestop-redis-"))).start()
    yield server
    server.stop()
    shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def redis_url(redis_server) -> str:
    """The session's Redis, emptied for this test (database 0)."""
    if redis_server.proc is None or redis_server.proc.poll() is not None:
        redis_server.start()  # a test that stopped it failed before starting it again
    redis_server.client().flushall()
    return redis_server.url(0)


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL cluster per test process."""
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A new, empty database on the session's cluster; dropped after the test."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)
