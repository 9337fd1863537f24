"""The Celery app; every task runs inside a Flask app context.

Start a worker with `celery -A workers.celery_app worker`. Settings come from the same
WHISTLESTOP_* variables as the web app (server/config.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from celery import Celery, Task
from flask import Flask, has_app_context

from server import config as server_config


def celery_settings(cfg: Mapping[str, Any]) -> dict:
    """Return Celery settings derived from Whistlestop's config."""
    settings: dict[str, Any] = {
        "broker_url": cfg["BROKER_URL"],
        "result_backend": cfg["RESULT_BACKEND"] or None,
        "beat_schedule_filename": cfg["BEAT_SCHEDULE_FILE"],
        # Tasks are idempotent and take ids; a task lost with its worker runs again.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "timezone": "UTC",
        "enable_utc": True,
        "broker_connection_retry_on_startup": True,
        "result_extended": True,
        # Periodic tasks (deadline sweep, outbox relay) are added here by later issues.
        "beat_schedule": {},
    }
    if cfg["BROKER_URL"].startswith("filesystem://"):
        # Producers and consumers share one folder: the "queue" is its files.
        queue = Path(cfg["BROKER_DIR"]) / "queue"
        processed = Path(cfg["BROKER_DIR"]) / "processed"
        control = Path(cfg["BROKER_DIR"]) / "control"
        for folder in (queue, processed, control):
            folder.mkdir(parents=True, exist_ok=True)
        settings["broker_transport_options"] = {
            "data_folder_in": str(queue),
            "data_folder_out": str(queue),
            "processed_folder": str(processed),
            "store_processed": False,
            "control_folder": str(control),
        }
    return settings


class FlaskTask(Task):
    """A task base that runs each task inside the Flask app context (Flask's Celery pattern)."""

    abstract = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if has_app_context():
            return self.run(*args, **kwargs)
        with flask_app().app_context():
            return self.run(*args, **kwargs)


_flask_app: Flask | None = None


def flask_app() -> Flask:
    """Return this process's Flask app, created on first use."""
    global _flask_app
    if _flask_app is None:
        from server.app import create_app

        _flask_app = create_app()
    return _flask_app


def make_celery(cfg: Mapping[str, Any] | None = None) -> Celery:
    """Return a Celery app configured from cfg (default: the environment)."""
    cfg = server_config.from_env() if cfg is None else cfg
    app = Celery("whistlestop", task_cls=FlaskTask, include=["workers.tasks"])
    app.conf.update(celery_settings(cfg))
    return app


celery = make_celery()
