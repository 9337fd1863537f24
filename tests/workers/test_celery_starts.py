"""A real Celery worker consumes from the filesystem broker and returns results."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from engine.core import from_dict
from sqlmodel import Session, select

from server import config
from server.models import OutboxMessage
from tests.conftest import stop_process
from workers.celery_app import make_celery
from workers.tasks import ping

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)


def test_ping_runs_in_process_inside_app_context(whistlestop_env, monkeypatch):
    for key, value in whistlestop_env.items():
        monkeypatch.setenv(key, value)
    assert ping.apply().get(timeout=5) == "pong"


def test_real_worker_answers_ping(tmp_path, whistlestop_env):
    client = make_celery(config.from_env(whistlestop_env))
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
         "--concurrency", "1", "--loglevel", "INFO", "--without-heartbeat",
         "--without-gossip", "--without-mingle"],
        env=whistlestop_env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # Sent before the worker is ready on purpose: the broker must hold the message.
        result = client.send_task("whistlestop.ping")
        try:
            assert result.get(timeout=60) == "pong"
        except Exception:
            log.flush()
            print((tmp_path / "worker.log").read_text())
            raise
    finally:
        stop_process(worker)
        log.close()


def _procfile_worker(name: str) -> list[str]:
    """The Procfile's command of process ``name`` (a Celery worker), run by this Python."""
    from pathlib import Path

    for line in (Path(__file__).parents[2] / "Procfile").read_text().splitlines():
        process, _, command = line.partition(":")
        if process.strip() == name:
            words = command.split()
            assert words[0] == "celery", line
            return [sys.executable, "-m", *words, "--without-heartbeat", "--without-gossip",
                    "--without-mingle"]
    raise AssertionError(f"no {name} process in the Procfile")


def _decision_mail_row(engine, gid: int, seat: str, step: int) -> int | None:
    """The outbox row of the seat's decision mail at ``step``, once written."""
    with Session(engine) as s:
        rows = s.exec(select(OutboxMessage.id, OutboxMessage.payload).where(
            OutboxMessage.kind == "your_decision")).all()
    return next((i for i, p in rows if (p["game_id"], p["seat"], p["step"]) == (gid, seat, step)),
                None)


def test_the_procfiles_workers_run_each_kind_of_task_from_its_queue(tmp_path, whistlestop_env):
    """On the embedded default, with the Procfile's `worker` and `hooks` and nothing else: a
    person's sealed round against a bot is resolved (queue "resolutions"), the bot moves
    ("bots"), the person is mailed the next decision ("mail") and a ping answers ("celery");
    post_webhook goes to "webhooks", which `hooks` consumes and `worker` does not: a slow
    webhook holds up nothing else (tests/workers/test_queues.py: each task's queue)."""
    from sqlalchemy import func

    from server import db
    from server.models import Game, Order
    from server.services import games
    from tests.players import proven_user
    from tests.smtp_catcher import SmtpCatcher
    from workers.celery_app import celery, reconfigure

    mail = SmtpCatcher(_free_port()).start()
    env = dict(whistlestop_env, WHISTLESTOP_MAIL_SMTP_PORT=str(mail.port))
    db.migrate(env["WHISTLESTOP_DATABASE_URL"])
    engine = db.make_engine(env["WHISTLESTOP_DATABASE_URL"])
    client = make_celery(config.from_env(env))
    logs = {name: (tmp_path / f"{name}.log").open("wb") for name in ("worker", "hooks")}
    workers = {name: subprocess.Popen(
        _procfile_worker(name), env=env, cwd=tmp_path, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True) for name, log in logs.items()}
    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    reconfigure(config.from_env(env))  # this process's outbox sends where the workers take
    try:
        with Session(engine) as s:
            ann = proven_user(s, "ann@example.org", "Ann")
            gid = games.create_game(s, "mrpresident", {"edition": "chalkboard", "players": 2},
                                    {"p1": ann.id, "p2": None}, seed="queues").id
            game = s.get(Game, gid)
            game.bots = {"p2": "random"}  # from the second round on: asked by bot_move tasks
            s.commit()
            step, state = game.step, from_dict(game.state)
            assert state.active() == ["p1", "p2"]
            for seat in ("p1", "p2"):  # the round's last order: resolve_step is sent
                games.submit_order(s, gid, seat, step, [str(state.legal_actions(seat)[0])])
        deadline = time.monotonic() + 90
        row = bot_sealed = None
        while time.monotonic() < deadline:
            with Session(engine) as s:
                now = s.get(Game, gid).step
                bot_sealed = now > step and s.exec(select(func.count()).select_from(Order).where(
                    Order.game_id == gid, Order.step == now, Order.seat == "p2")).one()
            row = _decision_mail_row(engine, gid, "p1", now) if now > step else None
            if bot_sealed and row and any(f"<wso.{row}." in m["Message-ID"]
                                          for m in mail.to("ann@example.org")):
                break
            time.sleep(0.1)
        post = client.send_task("whistlestop.post_webhook", args=(987654,))  # no such post
        ping = client.send_task("whistlestop.ping")
        assert ping.get(timeout=90) == "pong"
        done = f"whistlestop.post_webhook[{post.id}] succeeded"  # it keeps no result: its log
        while done not in (tmp_path / "hooks.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        hooks_log = (tmp_path / "hooks.log").read_text()
        worker_log = (tmp_path / "worker.log").read_text()
        assert bot_sealed and row, worker_log[-3000:]  # resolved, then the bot's move
        assert any(f"<wso.{row}." in m["Message-ID"] for m in mail.to("ann@example.org"))
        for task in ("resolve_step", "bot_move", "notify", "ping"):
            assert f"whistlestop.{task}[" in worker_log and \
                f"whistlestop.{task}[" not in hooks_log, task
        assert done in hooks_log, hooks_log
        assert "whistlestop.post_webhook[" not in worker_log, worker_log
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())
        for worker in workers.values():
            stop_process(worker)
        for log in logs.values():
            log.close()
        mail.stop()
        engine.dispose()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
