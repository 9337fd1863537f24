"""A queue per kind of task (workers/celery_app.py): each task waits in its kind's queue, and the
processes that start workers consume every queue (tests/workers/test_celery_starts.py runs one
task of each kind through the Procfile's workers)."""

from __future__ import annotations

import base64
import json
import shlex
from pathlib import Path

from server import config
from server.services import outbox
from workers.celery_app import (
    BOT_QUEUE,
    DEFAULT_QUEUE,
    MAIL_QUEUE,
    NEWS_QUEUE,
    RESOLUTION_QUEUE,
    WEBHOOK_QUEUE,
    WORKER_QUEUES,
    celery,
    make_celery,
    reconfigure,
)

ROOT = Path(__file__).parents[2]

# Each task the server sends, with arguments of its shape, and the queue it must wait in.
TASKS = [("whistlestop.notify", (1,), MAIL_QUEUE),
         ("whistlestop.news", (14,), NEWS_QUEUE),
         ("whistlestop.chat_mail", (2,), NEWS_QUEUE),
         ("whistlestop.handle_reply", (3, 4), MAIL_QUEUE),
         ("whistlestop.resolve_step", (5, 6, 7), RESOLUTION_QUEUE),
         ("whistlestop.bot_move", (8, "p2", 9, 10), BOT_QUEUE),
         ("whistlestop.rate_game", (11, 12), DEFAULT_QUEUE),
         ("whistlestop.relay_outbox", (), DEFAULT_QUEUE),
         ("whistlestop.sweep_unresolved", (), DEFAULT_QUEUE),
         ("whistlestop.sweep_deadlines", (), DEFAULT_QUEUE),
         ("whistlestop.sweep_silent_games", (), DEFAULT_QUEUE),
         ("whistlestop.write_digests", (), DEFAULT_QUEUE),
         ("whistlestop.sweep_webhooks", (), DEFAULT_QUEUE),
         ("whistlestop.ping", (), DEFAULT_QUEUE),
         ("whistlestop.post_webhook", (13,), WEBHOOK_QUEUE)]


def _waiting(folder: Path) -> dict[str, tuple[str, list]]:
    """task -> (queue, args) of each message in a filesystem broker's queue folder."""
    found = {}
    for path in (folder / "queue").glob("*.msg"):
        message = json.loads(path.read_text())
        queue = path.name.rsplit(".", 2)[-2]
        args = json.loads(base64.b64decode(message["body"]))[0]
        found[message["headers"]["task"]] = (queue, args)
    return found


def test_each_task_waits_in_the_queue_of_its_kind(tmp_path):
    """As the outbox and beat send them (by name, through this process's app)."""
    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": "filesystem://",
                                 "WHISTLESTOP_BROKER_DIR": str(tmp_path),
                                 "WHISTLESTOP_VAR_DIR": str(tmp_path / "var"),
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    try:
        for name, args, _queue in TASKS:
            outbox.publish(name, args)
        assert _waiting(tmp_path) == {name: (queue, list(args)) for name, args, queue in TASKS}
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())


def test_every_task_of_the_server_has_its_queue_here():
    """A task added to workers/tasks.py without a line in TASKS fails here."""
    import workers.tasks  # noqa: F401  (registers the tasks)

    ours = {name for name in celery.tasks if name.startswith("whistlestop.")}
    assert ours == {name for name, _a, _q in TASKS}


def _procfile_queues() -> dict[str, set[str]]:
    """The queues each Celery worker of the Procfile consumes (-Q)."""
    found = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        words = shlex.split(command)
        if words[:1] == ["celery"] and "worker" in words:
            found[name.strip()] = set(words[words.index("-Q") + 1].split(","))
    return found


def test_the_procfiles_workers_consume_every_queue_once():
    assert _procfile_queues() == {"worker": set(WORKER_QUEUES), "hooks": {WEBHOOK_QUEUE}}
    assert {queue for _n, _a, queue in TASKS} == set(WORKER_QUEUES) | {WEBHOOK_QUEUE}


def test_a_worker_started_without_queues_takes_every_task_but_the_webhook_posts(
        whistlestop_env):
    """The declared queues: what `celery worker` without -Q consumes (the tests' workers, the
    benches'), on either broker."""
    for url in ("filesystem://", "redis://127.0.0.1:1/0"):
        app = make_celery(config.from_env(dict(whistlestop_env, WHISTLESTOP_BROKER_URL=url)))
        assert set(app.amqp.queues) == set(WORKER_QUEUES)


def test_the_outbox_sends_the_mails_that_only_tell_news_to_their_own_queue(tmp_path):
    """A decision mail (a needed kind, server/mail/kinds.py) never waits behind the news of
    other games (a step resolved, a game started or over: under bot games, every resolution
    writes one)."""
    from server import db
    from server.mail import kinds

    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": "filesystem://",
                                 "WHISTLESTOP_BROKER_DIR": str(tmp_path),
                                 "WHISTLESTOP_VAR_DIR": str(tmp_path / "var"),
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    engine = db.make_engine(f"sqlite:///{tmp_path / 'unused.db'}")  # told of failed sends only
    rows = [outbox.Written(1, "your_decision", {"game_id": 1, "seat": "p1", "step": 2}),
            outbox.Written(2, "step_resolved", {"game_id": 1, "step": 1})]
    try:
        assert not kinds.informational("your_decision") and kinds.informational("step_resolved")
        assert outbox.send(engine, rows) == 2
        assert _waiting(tmp_path) == {"whistlestop.notify": (MAIL_QUEUE, [1]),
                                      "whistlestop.news": (NEWS_QUEUE, [2])}
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())
        engine.dispose()
