"""Gunicorn settings both servers of bench/order_throughput.py run with: the production
settings' worker hook (server/gunicorn_conf.py); the bind, the workers and the control socket
are given on the command line."""

from server.gunicorn_conf import post_worker_init  # noqa: F401
