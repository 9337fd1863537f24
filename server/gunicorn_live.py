"""Gunicorn settings for the `live` process, which serves the game pages' open streams of
live news (GET /games/<id>/events, server/web/live.py) beside the `web` process:
gunicorn -c python:server.gunicorn_live "server.app:create_app()". It serves nothing else
but /healthz (server/web/live_process.py: LIVE_PROCESS).

A stream waits on an event nearly all its life and holds a thread, not a process: one gthread
worker of WHISTLESTOP_LIVE_THREADS threads holds that many streams but 8 (past that it answers
204, and the page falls back to its version check). It loads the same app, told that it is the
`live` process, so every other request is a 404 there; the pages send it their streams
(LIVE_URL, server/config.py). Measured
(bench/README.md, live_streams.py): one such process held 600 streams at under 1 % of a core
and about 130 MB. The `web` process keeps its sync workers for everything else."""

import os

from server import config as _config
from server.gunicorn_conf import limit_streams

_cfg = _config.from_env()

bind = f"{os.environ.get('WHISTLESTOP_HOST', '127.0.0.1')}:{_cfg['LIVE_PORT']}"
workers = int(os.environ.get("WHISTLESTOP_LIVE_WORKERS", "1"))
worker_class = "gthread"
threads = int(os.environ.get("WHISTLESTOP_LIVE_THREADS", "256"))
# A stream's connection stays open; the workers' own timeout is not a request's in gthread.
# At a restart, open streams are cut after a few seconds: the browsers connect again.
graceful_timeout = 5
accesslog = None  # every open page connects again every two minutes: not worth a line each
control_socket = os.path.join(_cfg["VAR_DIR"], "gunicorn-live.ctl")


def post_worker_init(worker) -> None:
    limit_streams(worker)
    config = getattr(worker.wsgi, "config", None)
    if config is not None:
        config["LIVE_PROCESS"] = True  # the streams and /healthz only (live_process.py)
