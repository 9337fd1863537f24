"""The outbox on a real database and the embedded (filesystem) broker: what is sent after a
commit, what the relay sends again, and how a consumed row is left alone."""

from __future__ import annotations

import base64
import json
import random
import socket
import threading
import time
from datetime import timedelta

import redis
from kombu.exceptions import OperationalError
from sqlmodel import Session, select

from server import config
from server.models import OutboxMessage, utcnow
from server.services import games as svc
from server.services import outbox
from tests.server.test_fairness import both_choose, new_game, play
from tests.task_queue import queued, task_queue  # noqa: F401  (a fixture)
from workers.celery_app import MAIL_QUEUE, celery, reconfigure


def _row(session: Session, **values) -> int:
    row = OutboxMessage(kind=values.pop("kind", "probe"), payload={"game_id": 0}, **values)
    session.add(row)
    session.flush()
    row_id = row.id  # read before the commit: after it, reading would begin a transaction
    session.commit()
    return row_id


def test_committed_rows_are_sent_at_the_commit_once_rolled_back_rows_never(session,
                                                                          task_queue):
    first = _row(session)
    assert task_queue() == [("whistlestop.notify", [first])]
    session.add(OutboxMessage(kind="probe", payload={}))
    session.flush()  # it has an id, and is then rolled back: it never existed
    assert len(task_queue()) == 1  # not before the commit
    session.rollback()
    second = _row(session)
    session.commit()  # a transaction that wrote nothing sends nothing
    assert task_queue() == [("whistlestop.notify", [first]), ("whistlestop.notify", [second])]
    # Sending after the commit writes nothing: the row waits for its task to consume it.
    rows = session.exec(select(OutboxMessage)).all()
    assert all(r.published_at is None and r.delivered_at is None and r.attempts == 0
               for r in rows)


def test_a_savepoint_sends_nothing_until_its_transaction_commits(session, task_queue):
    with session.begin_nested():
        session.add(OutboxMessage(kind="probe", payload={}))
    assert task_queue() == []
    session.commit()
    assert [task for task, _args in task_queue()] == ["whistlestop.notify"]


def test_a_send_the_broker_refuses_is_left_to_the_relay(db_engine, session, tmp_path,
                                                         free_port):
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": f"redis://127.0.0.1:{free_port}/0",
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    try:
        row_id = _row(session)  # committed; its send finds no broker
    finally:
        reconfigure(config.from_env())
    row = session.get(OutboxMessage, row_id)
    assert row.attempts == 1 and row.last_error and row.delivered_at is None
    session.commit()  # end the read (on SQLite a transaction holds the write lock)
    with queued(tmp_path / "broker") as waiting:
        assert outbox.publish_pending(db_engine, redeliver_after=3600) == 1
        assert waiting() == [("whistlestop.notify", [row_id])]


def test_a_resolution_row_names_its_step_and_itself(session, task_queue):
    gid = new_game(session, "outbox")
    state = play(session, gid, random.Random(2), until=both_choose)
    step = svc.submit_order(session, gid, "kennedy", session.get(svc.Game, gid).step,
                            [state.legal_actions("kennedy")[0]]).step
    svc.submit_order(session, gid, "nixon", step, [state.legal_actions("nixon")[0]])
    row = session.exec(select(OutboxMessage).where(OutboxMessage.kind == "resolve_step")).one()
    assert ("whistlestop.resolve_step", [gid, step, row.id]) in task_queue()
    # Its task consumes it in the resolution's transaction ...
    assert svc.resolve_step(session, gid, step, message_id=row.id)
    session.refresh(row)
    consumed = row.delivered_at
    assert consumed is not None
    # ... and a repeat changes nothing, the row included.
    assert not svc.resolve_step(session, gid, step, message_id=row.id)
    session.refresh(row)
    assert row.delivered_at == consumed


def test_a_stale_resolution_row_is_consumed_too(db_engine, session):
    gid = new_game(session, "stale")
    row_id = _row(session, kind="resolve_step")
    assert not svc.resolve_step(session, gid, 999, message_id=row_id)
    assert session.get(OutboxMessage, row_id).delivered_at is not None


def test_the_relay_sends_failed_and_overdue_rows_only(db_engine, session, task_queue):
    now = utcnow()
    fresh = _row(session)
    overdue = _row(session, created_at=now - timedelta(seconds=120))
    failed = _row(session, attempts=1, last_error="ConnectionError: broker down")
    resent_lately = _row(session, created_at=now - timedelta(seconds=600),
                         published_at=now - timedelta(seconds=10), attempts=1)
    consumed = _row(session, created_at=now - timedelta(seconds=600), delivered_at=now)
    written = len(task_queue())  # each sent at its commit

    assert outbox.publish_pending(db_engine, redeliver_after=60) == 2
    assert [args for _, args in task_queue()[written:]] == [[overdue], [failed]]
    session.expire_all()
    for row_id, attempts in ((overdue, 1), (failed, 2)):
        row = session.get(OutboxMessage, row_id)
        assert row.published_at is not None and row.last_error is None
        assert row.attempts == attempts
    session.commit()  # end the read (on SQLite a transaction holds the write lock)
    # Just sent: not again until another redeliver_after has passed.
    assert outbox.publish_pending(db_engine, redeliver_after=60) == 0
    # With no wait, everything not consumed goes; a consumed row never does.
    assert outbox.publish_pending(db_engine, redeliver_after=0) == 4
    assert sorted(args[0] for _, args in task_queue()[written + 2:]) == sorted(
        [fresh, overdue, failed, resent_lately])
    assert consumed not in {args[0] for _, args in task_queue()[written:]}


def test_notify_consumes_its_row_once(db_url, session, tmp_path, smtp_catcher):
    from server.app import create_app
    from workers import tasks

    row_id = _row(session)  # a kind no mail is written for
    app = create_app({"DATABASE_URL": db_url, "VAR_DIR": str(tmp_path / "var"),
                      "MAIL_SMTP_PORT": smtp_catcher.port})
    with app.app_context():
        assert tasks.notify.run(row_id) == "sent"
        assert tasks.notify.run(row_id) == "duplicate"
        assert tasks.notify.run(row_id + 1000) is None
    session.expire_all()
    assert session.get(OutboxMessage, row_id).delivered_at is not None
    assert smtp_catcher.received() == []


def test_rows_written_with_core_are_sent_after_the_commit_only(session, task_queue):
    """outbox.write (one INSERT, no unit of work) is sent like a row added to the session."""
    kept = outbox.write(session, "probe", {"game_id": 1})
    assert task_queue() == []  # not before the commit
    session.commit()
    outbox.write(session, "probe", {"game_id": 2})
    session.rollback()  # never existed
    assert task_queue() == [("whistlestop.notify", [kept])]
    assert session.exec(select(OutboxMessage.id)).all() == [kept]


def _waiting_on_redis(client, queue: str = MAIL_QUEUE, at_least: int = 0
                      ) -> list[tuple[str, list]]:
    """(task name, args) of each message waiting in a Redis queue (kombu's list), oldest first;
    once ``at_least`` are there, waited for a few seconds: the outbox writes on a connection
    that takes no answers, so Redis may read this client's command before the message."""
    deadline = time.monotonic() + 5
    while client.llen(queue) < at_least and time.monotonic() < deadline:
        time.sleep(0.01)
    found = []
    for raw in reversed(client.lrange(queue, 0, -1)):  # kombu pushes on the left
        message = json.loads(raw)
        found.append((message["headers"]["task"], json.loads(base64.b64decode(message["body"]))[0]))
    return found


def test_on_redis_a_row_is_queued_without_declaring_and_the_producer_follows_the_broker(
        session, redis_server, redis_url):
    """The outbox publishes on a producer of its thread's own without declaring the queue
    (server/services/outbox.py, for the order path's speed): on a Redis that no worker has
    touched (no binding declared) the message still waits in the queue its route names; a
    second broker gets the next message once the app is pointed at it; and a connection the
    server dropped is made again at once (the row sent, not left to the relay)."""
    first_db, second_db = redis_server.client(0), redis_server.client(1)
    redis_server.client(1).flushdb()
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": redis_url,
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    try:
        assert first_db.keys("_kombu.binding.*") == []  # nothing declared anywhere
        first = _row(session)
        assert _waiting_on_redis(first_db, at_least=1) == [("whistlestop.notify", [first])]
        assert first_db.keys("_kombu.binding.*") == []  # and still nothing declared
        reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": redis_server.url(1),
                                     "WHISTLESTOP_RESULT_BACKEND": ""}))
        second = _row(session)
        assert _waiting_on_redis(second_db, at_least=1) == [("whistlestop.notify", [second])]
        assert len(_waiting_on_redis(first_db)) == 1
        first_db.client_kill_filter(_type="normal", skipme=True)  # the server drops us
        third = _row(session)  # tried again at once on a new connection
        assert [args[0] for _task, args in _waiting_on_redis(second_db, at_least=2)] == \
            [second, third]
        assert session.exec(select(OutboxMessage.id).where(
            OutboxMessage.last_error.is_not(None))).all() == []
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())


def test_a_broker_that_never_answers_holds_a_send_for_seconds_not_for_ever():
    """A broker that takes the connection and never answers (a Redis stopped with SIGSTOP, a
    network that drops packets): the outbox's send gives up within seconds with the error that
    leaves its row to the relay. kombu's own default retries the connection without end (the
    send runs in a thread of its own so that, were it to hang, this test fails, not hangs)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)  # the kernel takes the connections; nobody reads or answers
    port = listener.getsockname()[1]
    reconfigure(config.from_env({"WHISTLESTOP_BROKER_URL": f"redis://127.0.0.1:{port}/0",
                                 "WHISTLESTOP_RESULT_BACKEND": ""}))
    eager, celery.conf.task_always_eager = celery.conf.task_always_eager, False
    raised: list[BaseException] = []

    def send() -> None:
        try:
            outbox.publish("whistlestop.notify", (1,))
        except Exception as exc:
            raised.append(exc)

    try:
        started = time.monotonic()
        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        sender.join(60)
        waited = time.monotonic() - started
        assert not sender.is_alive(), "the send still waits on a broker that never answers"
    finally:
        celery.conf.task_always_eager = eager
        reconfigure(config.from_env())
        listener.close()
    # kombu's connection error, raised from Redis's timeout (the relay keeps its text)
    assert len(raised) == 1 and isinstance(raised[0], OperationalError), raised
    assert isinstance(raised[0].__cause__ or raised[0].__context__, redis.TimeoutError), raised
    # two tries (a new connection for the second), each at most the socket's timeout or two
    assert waited < 4 * outbox.PUBLISH_CONNECTION["socket_timeout"] + 1, waited
