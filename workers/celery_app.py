"""The Celery app: its settings, and the client that publishes tasks by name.

Start a worker with `celery -A workers.celery_app worker` (it imports workers/tasks.py, whose
tasks run inside the Flask app: workers/app_context.py). Settings come from the same
WHISTLESTOP_* variables as the web app (server/config.py). This module imports nothing of the
server but its settings: the outbox (server/services/outbox.py) publishes through this app by
the tasks' names, so the web app never imports the tasks, nor the tasks' module the web app's
request layers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from celery import Celery, signals
from kombu import Exchange, Queue

from server import config as server_config
from server.services.redis_sends import uses_redis
from workers import routine_logs


# Tasks wait in a queue of their kind, so that a kind waits only behind its own: a worker
# takes from its queues in turn (kombu's Redis transport rotates the queues it pops from, the
# filesystem transport cycles through them), so under a thousand bot games' moves a player's
# mail or resolution waits for one task of each other kind at most, not for the whole backlog
# (bench/README.md, told_latency.py). The Procfile's `worker` consumes WORKER_QUEUES (as does a
# worker started without -Q: they are the declared queues); its `hooks` the webhooks.
MAIL_QUEUE = "mail"  # the mails a game needs (a decision...), and mails received with orders
RESOLUTION_QUEUE = "resolutions"  # sealed steps resolved
NEWS_QUEUE = "news"  # the mails that only tell news (server/mail/kinds.py), table talk
DEFAULT_QUEUE = "celery"  # the rest: beat's relay and sweeps, ratings, ping
BOT_QUEUE = "bots"  # the bots' moves
WORKER_QUEUES = (MAIL_QUEUE, RESOLUTION_QUEUE, NEWS_QUEUE, DEFAULT_QUEUE, BOT_QUEUE)
WEBHOOK_QUEUE = "webhooks"
ROUTES = {"whistlestop.notify": MAIL_QUEUE, "whistlestop.handle_reply": MAIL_QUEUE,
          "whistlestop.resolve_step": RESOLUTION_QUEUE,
          "whistlestop.news": NEWS_QUEUE, "whistlestop.chat_mail": NEWS_QUEUE,
          "whistlestop.bot_move": BOT_QUEUE,
          "whistlestop.post_webhook": WEBHOOK_QUEUE}


def celery_settings(cfg: Mapping[str, Any]) -> dict:
    """Return Celery settings derived from Whistlestop's config."""
    settings: dict[str, Any] = {
        "broker_url": cfg["BROKER_URL"],
        # Set below for some brokers; always present, so that reconfigure() resets them.
        "broker_transport": None,
        "broker_transport_options": {},
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
        "broker_connection_max_retries": None,  # a worker waits out a broker outage, however long
        # When the broker connection drops, stop the acks_late tasks still running: their
        # messages cannot be acknowledged any more and come back anyway (Celery 6's default).
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        "result_extended": True,
        # A queue per kind of task (above). Webhook posts wait on their own queue, for their
        # own worker (Procfile "hooks"): a slow webhook never holds up mail, bot moves or
        # resolutions. Routes by queue name only: the outbox writes such messages itself on
        # Redis (server/services/task_messages.py).
        "task_routes": {name: {"queue": queue} for name, queue in ROUTES.items()},
        "task_default_queue": DEFAULT_QUEUE,
        "task_queues": [Queue(name, Exchange(name), routing_key=name) for name in WORKER_QUEUES],
        # The database, not the broker, makes delivery certain: the relay publishes outbox rows
        # that no request or task published (broker down, crash after commit), and the sweep
        # publishes resolve_step again for committed steps that are still unresolved (a message
        # the broker lost, a task that gave up).
        "beat_schedule": {
            "relay-outbox": {"task": "whistlestop.relay_outbox",
                             "schedule": float(cfg["OUTBOX_RELAY_SECONDS"]),
                             "options": {"expires": float(cfg["OUTBOX_RELAY_SECONDS"])}},
            "sweep-unresolved-steps": {"task": "whistlestop.sweep_unresolved",
                                       "schedule": float(cfg["RESOLVE_SWEEP_SECONDS"]),
                                       "options": {"expires": float(cfg["RESOLVE_SWEEP_SECONDS"])}},
            # Deadlines live in the database; one sweeper acts on those due (no countdowns).
            "sweep-deadlines": {"task": "whistlestop.sweep_deadlines",
                                "schedule": float(cfg["DEADLINE_SWEEP_SECONDS"]),
                                "options": {"expires": float(cfg["DEADLINE_SWEEP_SECONDS"])}},
            "sweep-silent-games": {"task": "whistlestop.sweep_silent_games",
                                   "schedule": float(cfg["SILENT_SWEEP_SECONDS"]),
                                   "options": {"expires": float(cfg["SILENT_SWEEP_SECONDS"])}},
            "sweep-webhooks": {"task": "whistlestop.sweep_webhooks",
                               "schedule": float(cfg["WEBHOOK_SWEEP_SECONDS"]),
                               "options": {"expires": float(cfg["WEBHOOK_SWEEP_SECONDS"])}},
            "write-digests": {"task": "whistlestop.write_digests",
                              "schedule": float(cfg["DIGEST_SWEEP_SECONDS"]),
                              "options": {"expires": float(cfg["DIGEST_SWEEP_SECONDS"])}},
        },
    }
    if uses_redis(cfg["BROKER_URL"]):
        # A message a worker took and never acknowledged (the worker was killed) is delivered
        # again after the visibility timeout; check for such messages often enough to honour it.
        # The check takes a mutex in Redis; a worker killed while taking it (its request still
        # in Redis's socket) would keep every worker from the check for kombu's 300 s: the
        # mutex expires after at most the visibility timeout (and at least 5 s).
        timeout = float(cfg["BROKER_VISIBILITY_TIMEOUT"])
        settings["broker_transport_options"] = {
            "visibility_timeout": timeout,
            "unacked_restore_interval": max(1, min(10, int(timeout // 4))),
            "unacked_restore_throttle": 1,
            "unacked_mutex_expire": max(5, min(300, int(timeout))),
        }
    if cfg["BROKER_URL"].startswith("redis://"):
        # kombu's Redis transport with one client per channel (workers/redis_transport.py).
        # Not for rediss://: kombu chooses its TLS defaults by the scheme's transport name.
        settings["broker_transport"] = "workers.redis_transport:Transport"
    if cfg["BROKER_URL"].startswith("filesystem://"):
        # kombu's filesystem transport, writing each message whole before it is visible.
        settings["broker_transport"] = "workers.fs_transport:Transport"
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
            # How often an idle worker looks for a task (workers/fs_transport.py): the wait
            # before an idle worker takes a task, 0 to this long.
            "polling_interval": float(cfg["BROKER_POLL_SECONDS"]),
        }
    return settings


def make_celery(cfg: Mapping[str, Any] | None = None) -> Celery:
    """Return a Celery app configured from cfg (default: the environment)."""
    cfg = server_config.from_env() if cfg is None else cfg
    app = Celery("whistlestop", include=["workers.tasks"])
    app.conf.update(celery_settings(cfg))
    return app


def reconfigure(cfg: Mapping[str, Any], app: Celery | None = None) -> Celery:
    """Point an existing app (default: this process's) at another configuration, dropping its
    broker connections; tests use it to publish to the broker their workers consume from."""
    app = celery if app is None else app
    app.conf.update(celery_settings(cfg))
    # The connection pool and the producers were made for the old broker; both are made
    # again from the settings when next used: ``close`` drops the pool, and ``amqp`` (the
    # publishing machinery, with its producer pool and routes) is a cached property.
    app.close()
    del app.amqp
    return app


celery = make_celery()


@signals.after_setup_logger.connect
def _quiet_routine_tasks(**_kwargs) -> None:
    """Beat's periodic tasks at DEBUG, once Celery has set its logging up in a worker or in
    beat (workers/routine_logs.py)."""
    routine_logs.quiet(celery.conf)
