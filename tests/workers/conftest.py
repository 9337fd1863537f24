"""Real worker processes on a real broker (Redis) and a real database (SQLite file or PostgreSQL).

``pipeline`` wires one test: a migrated database, the WHISTLESTOP_* environment of the workers it
starts, and this process's Celery app pointed at the same broker (so the outbox rows this process
commits are sent where the workers consume: server/services/outbox.py).
"""

from __future__ import annotations

import itertools
import os
import random
import socket
import uuid
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from engine.core import from_dict
from sqlalchemy import text
from sqlmodel import Session, select

from server import config, db
from server.models import Game, MailSent, Order, OutboxMessage, TaskFailure
from server.services import games as svc
from tests.conftest import stop_process
from tests.smtp_catcher import SmtpCatcher
from tests.players import proven_user

_players = itertools.count()


def players(session: Session) -> dict[str, int]:
    """Two new players (with mail addresses: the workers mail them) for the seats of a game.
    Their moves are not held (issue 27's hold would keep the next seat's mail back for
    minutes: tests/mail/held/test_retract_hold.py tests it)."""
    n = next(_players)
    out = {}
    for seat in ("kennedy", "nixon"):
        user = proven_user(session, f"{seat}-{n}-{uuid.uuid4().hex[:8]}@example.org",
                           seat.title())
        user.retract_hold_seconds = 0
        session.add(user)
        session.commit()
        out[seat] = user.id
    return out


class Worker:
    """`celery -A workers.celery_app worker` in its own process group, logging to a file."""

    def __init__(self, env: dict, folder: Path, name: str, concurrency: int = 1,
                 beat: bool = False):
        self.env, self.folder, self.name = env, folder, name
        self.concurrency, self.beat = concurrency, beat
        self.proc: subprocess.Popen | None = None
        self.logs: list[Path] = []

    @property
    def log(self) -> Path:
        return self.logs[-1]

    def start(self, wait: bool = True) -> "Worker":
        self.logs.append(self.folder / f"{self.name}-{len(self.logs)}.log")
        args = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
                "--concurrency", str(self.concurrency), "--loglevel", "INFO",
                "--without-heartbeat", "--without-gossip", "--without-mingle",
                "-n", f"{self.name}-{len(self.logs)}@%h"]
        if self.beat:
            args += ["--beat", "--schedule", str(self.folder / f"{self.name}-beat-schedule")]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(args, env=self.env, cwd=self.folder, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        if wait:
            self.wait_for(r" ready\.", timeout=60)
        return self

    def text(self, all_runs: bool = True) -> str:
        paths = self.logs if all_runs else self.logs[-1:]
        return "".join(p.read_text(errors="replace") for p in paths if p.exists())

    def wait_for(self, pattern: str, timeout: float = 30, count: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(re.findall(pattern, self.text(all_runs=False))) >= count:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"worker log never showed {pattern!r}:\n{self.text()[-4000:]}")

    def children(self) -> list[int]:
        """The pool processes (children of the worker's main process)."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()]

    def kill(self) -> None:
        """SIGKILL the main process and its pool processes at once: nothing gets to clean up."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)


class Pipeline:
    def __init__(self, db_url: str, env: dict, folder: Path, redis_server=None,
                 mail: SmtpCatcher | None = None):
        self.db_url, self.env, self.folder, self.redis = db_url, env, folder, redis_server
        self.mail = mail  # the SMTP server the workers send to
        self.engine = db.make_engine(db_url)
        self.workers: list[Worker] = []

    def worker(self, name: str = "w", **kwargs) -> Worker:
        worker = Worker(self.env, self.folder, name, **kwargs)
        self.workers.append(worker)
        return worker

    def session(self) -> Session:
        return Session(self.engine)

    @contextmanager
    def unpublished(self):
        """The outbox rows this process commits meanwhile are not sent: its Celery app points
        at a broker nobody listens on, so each send fails and its row waits with
        ``last_error`` for the relay, or for the test to publish what it needs."""
        from workers.celery_app import reconfigure

        unreachable = f"redis://127.0.0.1:{_free_port()}/0"
        reconfigure(config.from_env(dict(self.env, WHISTLESTOP_BROKER_URL=unreachable)))
        try:
            yield
        finally:
            reconfigure(config.from_env(self.env))

    def queue_empty(self) -> bool:
        from workers.celery_app import WORKER_QUEUES

        client = self.redis.client()
        return all(client.llen(queue) == 0 for queue in WORKER_QUEUES) and \
            client.hlen("unacked") == 0

    def drain(self, timeout: float = 60) -> None:
        """Wait until the broker holds no message, queued or being worked on."""
        deadline = time.monotonic() + timeout
        while not self.queue_empty():
            if time.monotonic() > deadline:
                raise AssertionError("the broker never drained")
            time.sleep(0.05)

    def unconsumed(self) -> list[OutboxMessage]:
        """Outbox rows no task has consumed yet."""
        with self.session() as s:
            return list(s.exec(select(OutboxMessage)
                               .where(OutboxMessage.delivered_at.is_(None))).all())

    def failures(self) -> list[TaskFailure]:
        with self.session() as s:
            return list(s.exec(select(TaskFailure)).all())

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        if self.mail is not None:
            self.mail.stop()
        self.engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def worker_db_url(request, tmp_path) -> str:
    """A migrated database: a SQLite file, or a fresh database on the PostgreSQL cluster."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'whistlestop.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    db.migrate(url)
    return url


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make_pipeline(tmp_path, whistlestop_env, db_url, redis_server, **settings) -> Pipeline:
    """The environment of the workers, this process's Celery app on the same broker, and a
    real SMTP server the workers send mail to."""
    from workers.celery_app import reconfigure

    mail = SmtpCatcher(_free_port()).start()
    env = dict(whistlestop_env,
               WHISTLESTOP_MAIL_SMTP_PORT=str(mail.port),
               # A worker killed while sending leaves its claim; the next run takes it soon.
               WHISTLESTOP_MAIL_SEND_LEASE_SECONDS="5",
               WHISTLESTOP_DATABASE_URL=db_url,
               WHISTLESTOP_BROKER_URL=redis_server.url(0),
               WHISTLESTOP_RESULT_BACKEND=redis_server.url(1),
               WHISTLESTOP_BROKER_VISIBILITY_TIMEOUT="3600",
               # Beat (when a test starts it) relays and sweeps only if the test asks.
               WHISTLESTOP_OUTBOX_RELAY_SECONDS="3600",
               WHISTLESTOP_RESOLVE_SWEEP_SECONDS="3600",
               # A whole game played by reply takes seconds here, days for real players.
               WHISTLESTOP_RATE_INBOUND_PER_SENDER="100000/hour")
    env.update({f"WHISTLESTOP_{k}": str(v) for k, v in settings.items()})
    reconfigure(config.from_env(env))
    return Pipeline(db_url, env, tmp_path, redis_server, mail)


@pytest.fixture
def pipeline_factory(tmp_path, whistlestop_env, redis_url, redis_server):
    from workers.celery_app import reconfigure

    made: list[Pipeline] = []

    def factory(db_url: str, redis=None, **settings) -> Pipeline:
        """A pipeline on ``db_url``, with the session's Redis or ``redis`` (a RedisServer the
        test started: stopped after the test); ``settings``: WHISTLESTOP_* values."""
        made.append(make_pipeline(tmp_path, whistlestop_env, db_url, redis or redis_server,
                                  **settings))
        return made[-1]

    yield factory
    for pipeline in made:
        pipeline.close()
        if pipeline.redis is not redis_server:
            pipeline.redis.stop()
    reconfigure(config.from_env())


# --- games -----------------------------------------------------------------------------------
def state_of(session: Session, gid: int):
    session.expire_all()
    game = session.get(Game, gid)
    return game, from_dict(game.state)


def pending_seats(session: Session, gid: int, step: int) -> set[str]:
    return set(session.exec(select(Order.seat).where(
        Order.game_id == gid, Order.step == step, Order.status == "pending")).all())


def play_to_simultaneous(pipeline: Pipeline, gid: int, rng: random.Random,
                         limit: int = 5000) -> tuple[int, object] | None:
    """Play random legal sequential orders until the game is at a simultaneous step; return
    (step, state) there, or None if the game ended first. Each order's outbox rows are sent
    at its commit, as the API's are."""
    with pipeline.session() as s:
        for _ in range(limit):
            game, state = state_of(s, gid)
            active = state.active()
            if not active or len(active) > 1:
                s.rollback()
                return (game.step, state) if active else None
            svc.submit_order(s, gid, active[0], game.step,
                             [rng.choice(state.legal_actions(active[0]))], by_player=False)
    raise AssertionError("no simultaneous step reached")


def wait_for_step(pipeline: Pipeline, gid: int, past: int, timeout: float = 60) -> int:
    """Wait until the game's step is past ``past`` (or the game is over); return the step."""
    deadline = time.monotonic() + timeout
    with pipeline.engine.connect() as conn:
        while True:
            row = conn.execute(text("SELECT step, status FROM game WHERE id = :g"),
                               {"g": gid}).one()
            conn.rollback()
            if row.step > past:
                return row.step
            if time.monotonic() > deadline:
                raise AssertionError(f"game {gid} never got past step {past} (at {row.step})")
            time.sleep(0.02)


def delivered(pipeline: Pipeline) -> set[int]:
    """Ids of the notification rows their task has consumed (sent its mails, or found none to
    send); fails at once if any mail reached the SMTP server twice."""
    ids = [m["Message-ID"].strip() for m in pipeline.mail.received()]
    twice = {i for i in ids if ids.count(i) > 1}
    assert not twice, f"mails sent twice: {sorted(twice)}"
    with pipeline.session() as s:
        return set(s.exec(select(OutboxMessage.id).where(
            OutboxMessage.kind != "resolve_step", OutboxMessage.delivered_at.is_not(None))).all())


def assert_mailed_once(pipeline: Pipeline, settle: float = 30.0) -> int:
    """Every mail recorded as sent reached the SMTP server exactly once, and nothing else did;
    return how many. A mail the server has taken is recorded by its worker a moment later (the
    commit after the SMTP exchange): up to ``settle`` seconds are given for that. A mail sent
    twice never settles."""
    until = time.monotonic() + settle
    while True:
        with pipeline.session() as s:
            recorded = s.exec(select(MailSent.message_id).where(MailSent.status == "sent")).all()
        # .strip(): a long id (an invitation's names the address) is folded onto a line of
        # its own, which the parsed header keeps as a leading space
        received = [m["Message-ID"].strip() for m in pipeline.mail.received()]
        if sorted(received) == sorted(recorded) or time.monotonic() > until:
            break
        time.sleep(0.1)
    assert sorted(received) == sorted(recorded)
    assert len(set(received)) == len(received)
    return len(received)


def commit_all(pipeline: Pipeline, gid: int, step: int, state, rng: random.Random) -> None:
    """Seal a random legal order for every active seat that has not committed yet."""
    with pipeline.session() as s:
        done = pending_seats(s, gid, step)
        results = [svc.submit_order(s, gid, seat, step, [rng.choice(state.legal_actions(seat))],
                                    by_player=False)
                   for seat in state.active() if seat not in done]
    assert results and results[-1].all_committed


def resolutions(log: str, outcome: str = "True") -> list[str]:
    """Ids of the resolve_step runs in a worker log that returned ``outcome``."""
    return re.findall(r"resolve_step\[([^\]]+)\] succeeded in [^:]+: " + outcome, log)
