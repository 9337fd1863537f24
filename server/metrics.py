"""GET /metrics: Prometheus metrics read from the database at scrape time.

A custom collector counts stored rows when Prometheus scrapes, so the numbers are the same
whichever gunicorn worker answers, include what the Celery workers did, and survive restarts.
Totals of rows that only ever grow (applied orders, resolutions, outbox messages, task
failures) are counters; everything that can go down is a gauge. A scrape only reads.

Set METRICS_TOKEN (WHISTLESTOP_METRICS_TOKEN) to require ``Authorization: Bearer <token>``;
without it the metrics are served only when BASE_URL is a loopback address (403 otherwise).
"""

from __future__ import annotations

import hmac
from typing import Callable, Iterator

from flask import Flask, Response, current_app, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, select

from server import db
from server.models import Game, Order, OutboxMessage, TaskFailure, utcnow
from server.services.operator import age_seconds
from server.config import is_loopback_url

_EXTENSION_KEY = "whistlestop.metrics"

GAME_STATUSES = ("open", "active", "finished")
FINAL_ORDER_STATUSES = ("applied", "superseded")  # an order never leaves these


class DatabaseCollector(Collector):
    """Yields Whistlestop's metrics from the rows of the database, read at each scrape."""

    def __init__(self, get_engine: Callable[[], Engine]):
        self._get_engine = get_engine

    def describe(self) -> Iterator[Metric]:
        # The names, without touching the database (registration calls this).
        yield from self._families()[0].values()

    @staticmethod
    def _families():
        up = GaugeMetricFamily("whistlestop_database_up",
                               "1 if the metrics could be read from the database, else 0.")
        orders = CounterMetricFamily(
            "whistlestop_orders",
            "Orders that reached a final status: applied, or superseded (a game resigned "
            "while they were sealed).", labels=["status"])
        pending = GaugeMetricFamily("whistlestop_orders_pending",
                                    "Sealed orders waiting for their simultaneous step to resolve.")
        resolutions = CounterMetricFamily(
            "whistlestop_step_resolutions",
            "Simultaneous steps resolved (steps with more than one applied order).")
        games = GaugeMetricFamily("whistlestop_games", "Games by status.", labels=["status"])
        messages = CounterMetricFamily("whistlestop_outbox_messages",
                                       "Outbox rows written, by kind.", labels=["kind"])
        depth = GaugeMetricFamily("whistlestop_outbox_unconsumed",
                                  "Outbox rows whose task has not consumed them yet (the "
                                  "outbox depth).")
        oldest = GaugeMetricFamily("whistlestop_outbox_oldest_unconsumed_age_seconds",
                                   "Age of the oldest unconsumed outbox row (0 if none).")
        errors = GaugeMetricFamily("whistlestop_outbox_publish_errors",
                                   "Outbox rows whose last publish attempt failed "
                                   "(last_error set).")
        failures = CounterMetricFamily("whistlestop_task_failures",
                                       "Celery tasks that raised, by task name.",
                                       labels=["task"])
        named = {"up": up, "orders": orders, "pending": pending, "resolutions": resolutions,
                 "games": games, "messages": messages, "depth": depth, "oldest": oldest,
                 "errors": errors, "failures": failures}
        return named, up

    def collect(self) -> Iterator[Metric]:
        named, up = self._families()
        try:
            with Session(self._get_engine()) as session:
                db.reading(session)  # SQLite: no write lock for a scrape
                self._read(session, named)
                session.rollback()  # read only: nothing to commit
        except SQLAlchemyError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield from named.values()

    @staticmethod
    def _read(session: Session, m: dict) -> None:
        count = func.count()
        by_status = dict(session.exec(select(Order.status, count).group_by(Order.status)).all())
        for status in FINAL_ORDER_STATUSES:
            m["orders"].add_metric([status], by_status.get(status, 0))
        m["pending"].add_metric([], by_status.get("pending", 0))
        resolved_steps = (select(Order.game_id, Order.step).where(Order.status == "applied")
                          .group_by(Order.game_id, Order.step).having(count > 1).subquery())
        m["resolutions"].add_metric(
            [], session.exec(select(func.count()).select_from(resolved_steps)).one())
        games = dict(session.exec(select(Game.status, count).group_by(Game.status)).all())
        for status in sorted(set(GAME_STATUSES) | set(games)):
            m["games"].add_metric([status], games.get(status, 0))
        for kind, n in session.exec(select(OutboxMessage.kind, count)
                                    .group_by(OutboxMessage.kind)
                                    .order_by(OutboxMessage.kind)).all():
            m["messages"].add_metric([kind], n)
        depth, oldest = session.exec(
            select(count, func.min(OutboxMessage.created_at))
            .where(OutboxMessage.delivered_at.is_(None))).one()
        m["depth"].add_metric([], depth)
        m["oldest"].add_metric([], age_seconds(oldest, utcnow()) or 0.0)
        m["errors"].add_metric([], session.exec(
            select(count).select_from(OutboxMessage)
            .where(OutboxMessage.last_error.is_not(None),
                   OutboxMessage.delivered_at.is_(None))).one())
        for task, n in session.exec(select(TaskFailure.task_name, count)
                                    .group_by(TaskFailure.task_name)
                                    .order_by(TaskFailure.task_name)).all():
            m["failures"].add_metric([task], n)


def _authorized(token: str) -> bool:
    if not token:
        return True
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                              token.encode())


def metrics_view():
    token = current_app.config.get("METRICS_TOKEN", "")
    if not token and not is_loopback_url(current_app.config.get("BASE_URL", "")):
        # Open metrics are for a server only this machine reaches.
        return Response("/metrics needs WHISTLESTOP_METRICS_TOKEN on a server whose "
                        "WHISTLESTOP_BASE_URL is not a loopback address.\n", status=403,
                        mimetype="text/plain")
    if not _authorized(token):
        return Response("A bearer token is required.\n", status=401, mimetype="text/plain",
                        headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    body = generate_latest(current_app.extensions[_EXTENSION_KEY])
    return Response(body, headers={"Content-Type": CONTENT_TYPE_LATEST,
                                   "Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    """Register GET /metrics with a registry of its own (not the process-global one)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(db.get_engine))
    app.extensions[_EXTENSION_KEY] = registry
    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])
