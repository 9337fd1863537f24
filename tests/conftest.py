"""Fixtures shared by the server and worker tests (the engine tests keep their own)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.games import sealedbid

# The game that lives only in the tests is one of the server's games for the whole suite: every
# shared page, mail and check (tests/engine/test_conformance.py) runs with a third game.
sealedbid.register()


@pytest.fixture
def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def whistlestop_env(tmp_path: Path) -> dict[str, str]:
    """Return os.environ with every WHISTLESTOP_* path pointed into tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHISTLESTOP_")}
    env.update(
        WHISTLESTOP_VAR_DIR=str(tmp_path / "var"),
        WHISTLESTOP_DATABASE_URL=f"sqlite:///{tmp_path / 'test.db'}",
        WHISTLESTOP_BROKER_URL="filesystem://",
        WHISTLESTOP_BROKER_DIR=str(tmp_path / "broker"),
        WHISTLESTOP_RESULT_BACKEND=f"db+sqlite:///{tmp_path / 'results.db'}",
        PYTHONUNBUFFERED="1",
    )
    return env


def stop_process(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Terminate a process started with start_new_session=True, and its children."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


from tests.services import (  # noqa: E402,F401  (fixtures: real Redis and PostgreSQL)
    postgres_server,
    postgres_url,
    redis_server,
    redis_url,
)
from tests.smtp_catcher import smtp_catcher  # noqa: E402,F401  (a real SMTP server)


# --- tiers (python3 scripts/test --fast) ---------------------------------------------------------
# A test is sorted by what it needs, from its fixtures and parameters, so a new test lands in the
# right tier by itself; a module that starts processes of its own says so with
# ``pytestmark = pytest.mark.processes``. The fast tier (scripts/test --fast) deselects every one
# of these: it is the engine, the services and the API on SQLite, in process.
_NEEDS = {
    "browser": "browser",  # real Chromium (tests/web/browser.py)
    "postgres_server": "postgresql",
    "postgres_url": "postgresql",
    "redis_server": "redis",
    "redis_url": "redis",
    "pipeline_factory": "processes",  # Celery workers, beat and SMTP as processes
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in _NEEDS.items():
            if fixture in names:
                item.add_marker(marker)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.id.split("-"):
            item.add_marker("postgresql")
