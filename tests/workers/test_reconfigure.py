"""``reconfigure`` points a Celery app at another broker through Celery's public API alone
(``close`` drops the connection pool; ``amqp``, the publishing machinery with its producer pool
and routes, is a cached property made again): every task published after it goes to the new
broker, its routes included. Fails if Celery keeps a connection or producer somewhere else."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from server import config
from workers.celery_app import make_celery, reconfigure


def _settings(folder: Path) -> dict:
    return config.from_env({"WHISTLESTOP_BROKER_URL": "filesystem://",
                            "WHISTLESTOP_BROKER_DIR": str(folder),
                            "WHISTLESTOP_VAR_DIR": str(folder / "var"),
                            "WHISTLESTOP_RESULT_BACKEND": ""})


def _waiting(folder: Path) -> list[tuple[str, str, list]]:
    """(task, queue, args) of each message in the folder's queue."""
    found = []
    for path in sorted((folder / "queue").glob("*.msg")):
        message = json.loads(path.read_text())
        queue = path.name.rsplit(".", 2)[-2]
        found.append((message["headers"]["task"], queue,
                      json.loads(base64.b64decode(message["body"]))[0]))
    return found


def test_every_publish_after_it_goes_to_the_new_broker(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    app = make_celery(_settings(first))
    app.send_task("whistlestop.notify", args=(1,))
    reconfigure(_settings(second), app)
    app.send_task("whistlestop.notify", args=(2,))
    app.send_task("whistlestop.post_webhook", args=(3,))
    reconfigure(_settings(first), app)
    app.send_task("whistlestop.notify", args=(4,))
    assert sorted(_waiting(first)) == [("whistlestop.notify", "mail", [1]),
                                       ("whistlestop.notify", "mail", [4])]
    assert sorted(_waiting(second)) == [("whistlestop.notify", "mail", [2]),
                                        ("whistlestop.post_webhook", "webhooks", [3])]
