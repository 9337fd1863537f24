"""GET /metrics: Prometheus metrics read from the database at scrape time.

A custom collector counts stored rows when Prometheus scrapes, so the numbers are the same
whichever gunicorn worker answers, include what the Celery workers did, and survive restarts.
Totals of rows that only ever grow (applied orders, resolutions, outbox messages, task
failures) are counters; everything that can go down is a gauge. A scrape only reads, and what
it reads grows with what is waiting and the last hour's rows, not with the history: each
process keeps the counts of the rows older than an hour (server/row_tallies.py), and the
orders not applied have their own partial index (bench/sweep_scale.py measures a scrape with
1,000 and 10,000 games).

Set METRICS_TOKEN (WHISTLESTOP_METRICS_TOKEN) to require ``Authorization: Bearer <token>``;
without it the metrics are served only when BASE_URL is a loopback address (403 otherwise).
"""

from __future__ import annotations

import hmac
import weakref
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
from server.models import ORDER_UNAPPLIED, Game, Order, OutboxMessage, TaskFailure, utcnow
from server.row_tallies import Tally, total
from server.services.operator import age_seconds
from server.config import is_loopback_url

_EXTENSION_KEY = "whistlestop.metrics"

GAME_STATUSES = ("open", "active", "finished")


class DatabaseCollector(Collector):
    """Yields Whistlestop's metrics from the rows of the database, read at each scrape."""

    def __init__(self, get_engine: Callable[[], Engine]):
        self._get_engine = get_engine
        self._kept: "weakref.WeakKeyDictionary[Engine, dict[str, Tally]]" = \
            weakref.WeakKeyDictionary()

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
            "Simultaneous steps resolved (one step_resolved outbox row each).")
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

    def _tallies(self, engine: Engine) -> dict[str, Tally]:
        """This process's tallies of the growing tables in ``engine``'s database."""
        tallies = self._kept.get(engine)
        if tallies is None:
            tallies = self._kept[engine] = {
                "orders": Tally(Order.__table__),
                "outbox": Tally(OutboxMessage.__table__, "kind"),
                "failures": Tally(TaskFailure.__table__, "task_name")}
        return tallies

    def _read(self, session: Session, m: dict) -> None:
        """What a scrape reads grows with what is waiting, not with the history: the totals
        of growing tables are kept by the process (server/row_tallies.py); the orders' other
        statuses than "applied" come from their partial index (ix_order_unapplied); the
        resolutions are the outbox's "step_resolved" rows, one per resolved step
        (games.resolve_step)."""
        now = utcnow()
        tallies = self._tallies(session.get_bind())
        connection = session.connection()
        count = func.count()
        unapplied = dict(session.exec(select(Order.status, count).where(ORDER_UNAPPLIED)
                                      .group_by(Order.status)).all())
        applied = total(tallies["orders"].read(connection, now)) - sum(unapplied.values())
        m["orders"].add_metric(["applied"], applied)
        m["orders"].add_metric(["superseded"], unapplied.get("superseded", 0))
        m["pending"].add_metric([], unapplied.get("pending", 0))
        kinds = tallies["outbox"].read(connection, now)
        m["resolutions"].add_metric([], kinds.get("step_resolved", 0))
        games = dict(session.exec(select(Game.status, count).group_by(Game.status)).all())
        for status in sorted(set(GAME_STATUSES) | set(games)):
            m["games"].add_metric([status], games.get(status, 0))
        for kind in sorted(kinds):
            m["messages"].add_metric([kind], kinds[kind])
        depth, oldest = session.exec(
            select(count, func.min(OutboxMessage.created_at))
            .where(OutboxMessage.delivered_at.is_(None))).one()
        m["depth"].add_metric([], depth)
        m["oldest"].add_metric([], age_seconds(oldest, now) or 0.0)
        m["errors"].add_metric([], session.exec(
            select(count).select_from(OutboxMessage)
            .where(OutboxMessage.last_error.is_not(None),
                   OutboxMessage.delivered_at.is_(None))).one())
        failures = tallies["failures"].read(connection, now)
        for task in sorted(failures):
            m["failures"].add_metric([task], failures[task])


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
