"""Gunicorn settings for the `web` process: gunicorn -c python:server.gunicorn_conf."""

import os

from server import config as _config
from server import db as _db

_cfg = _config.from_env()

bind = f"{os.environ.get('WHISTLESTOP_HOST', '127.0.0.1')}:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WHISTLESTOP_WEB_WORKERS", "2"))
# Sync workers: one request at a time each, taken only when free, which is what the CPU-bound
# order path runs best on. The game pages' open streams of live news (server/web/live.py),
# which would each hold a whole sync worker, are served by the `live` process instead
# (server/gunicorn_live.py); a stream request that reaches a sync worker is answered 204 at
# once (the page falls back to its version check). Measured (bench/README.md,
# live_streams.py --order-path): gthread workers here took a fifth fewer orders a second
# (0.69-0.85 of sync in other runs, even running one request at a time).
worker_class = os.environ.get("WHISTLESTOP_WEB_WORKER_CLASS", "sync")
threads = int(os.environ.get("WHISTLESTOP_WEB_THREADS", "1"))
# A request running longer is killed with its worker. The database's lock waits end a third
# of the way (server/db.py BUSY_TIMEOUT_MS), and the request answers 503 with Retry-After.
timeout = _db.WORKER_TIMEOUT_SECONDS
accesslog = "-"
# The access log without the links' tokens and codes (server/access_log.py).
logger_class = "server.access_log.AccessLogger"
# Newer gunicorns open a control socket, by default one per user in ~/.gunicorn; keep ours
# beside the other runtime files so that two servers (a test and a dev run) never share it.
control_socket = os.path.join(_cfg["VAR_DIR"], "gunicorn.ctl")


def post_worker_init(_worker) -> None:
    """Once the app is loaded, move everything it made so far to the garbage collector's
    permanent generation (``gc.freeze``): the modules, the app, the statements and the card
    data live as long as the worker, and each full collection would walk them all again.
    Measured on the order path: the collector took about 5 % of an order's time, and freezing
    took most of that away.

    The youngest generation is then collected every 50,000 new objects instead of 700: a
    request makes a few thousand, nearly all freed by reference counting, so the default
    threshold ran a collection every other order and pushed survivors on to older
    generations, whose collections walked them again. Measured on the order path (CPU time
    in the collector per order, gunicorn workers): 0.21 ms with the default thresholds,
    0.04 ms with these; the garbage they let wait is a few megabytes at most."""
    import gc

    limit_streams(_worker)
    # The routes, for the access log to know which parts of a path are secrets.
    _worker.log.url_map = getattr(_worker.wsgi, "url_map", None)
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


STREAMS_RESERVE = 8  # threads of a threaded worker kept for requests other than streams


def limit_streams(worker) -> None:
    """Tell the worker's app how many live streams it may hold (server/web/live.py): its
    threads but STREAMS_RESERVE in a threaded worker, none in a sync one (where a stream
    would hold the whole worker)."""
    from gunicorn.workers.gthread import ThreadWorker

    config = getattr(worker.wsgi, "config", None)
    if config is not None:
        config["LIVE_STREAMS_MAX"] = max(0, worker.cfg.threads - STREAMS_RESERVE) \
            if isinstance(worker, ThreadWorker) else 0
