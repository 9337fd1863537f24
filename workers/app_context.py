"""The Flask app a worker's tasks run in: every task of workers/tasks.py runs inside its app
context (Flask's Celery pattern), so ``db.get_engine()`` and ``current_app.config`` work there
as in a request.

The Celery app (workers/celery_app.py) knows nothing of Flask: the web app publishes through it
(server/services/outbox.py), so it must not import the web app back. The tasks name this
module's ``FlaskTask`` as their base, and a worker process builds its Flask app on first use.
"""

from __future__ import annotations

from typing import Any

from celery import Task
from celery.signals import worker_process_init
from flask import Flask, has_app_context

from server import db
from server.app import create_app

_flask_app: Flask | None = None


def flask_app() -> Flask:
    """Return this process's Flask app, created on first use."""
    global _flask_app
    if _flask_app is None:
        _flask_app = create_app()
    return _flask_app


class FlaskTask(Task):
    """A task base that runs each task inside the Flask app context, this process's app unless
    one is pushed already (a test's, or an eager task run inside a request)."""

    abstract = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if has_app_context():
            return self.run(*args, **kwargs)
        with flask_app().app_context():
            return self.run(*args, **kwargs)


@worker_process_init.connect
def _fresh_database_connections_after_fork(**_kwargs) -> None:
    """A pool process must not share the parent's database connections."""
    if _flask_app is not None:
        with _flask_app.app_context():
            db.get_engine().dispose(close=False)
