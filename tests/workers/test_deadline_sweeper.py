"""The beat sweeper acts on deadlines kept in the database: with a real worker running beat
and real Redis, a decision whose time has run out gets its default and the seat its mail; a
reminder goes out once. No countdown task is involved: the alarm is a column."""

from __future__ import annotations

import time
from datetime import timedelta

from engine.core import from_dict
from sqlalchemy import update
from sqlmodel import select

from server.models import AutoOrder, Game, MailSent, OutboxMessage, utcnow
from server.services import games as svc
from tests.workers.conftest import players


def _wait(predicate, timeout=60.0, what="the sweeper to act"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


def test_beat_sends_the_reminder_and_applies_the_default(pipeline_factory, worker_db_url):
    pipeline = pipeline_factory(worker_db_url, DEADLINE_SWEEP_SECONDS="1")
    with pipeline.session() as session:
        seats = players(session)
        gid = svc.create_game(session, "tmotp", {}, seats, seed="sweeper",
                              timing={"decision_hours": 24, "reminder_hours": [12],
                                      "on_deadline": "default"}).id
        game = session.get(Game, gid)
        state, step = from_dict(game.state), game.step
        seat = state.active()[0]
        expected = state.default_action(seat)
        # The first reminder's time has come (12 hours before the deadline, which is later).
        session.execute(update(Game).where(Game.id == gid).values(
            deadline_at=utcnow() + timedelta(hours=1), alarm_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    pipeline.worker("sweeper", beat=True).start()

    def reminded():
        with pipeline.session() as session:
            return session.exec(select(MailSent).where(MailSent.kind == "reminder",
                                                       MailSent.status == "sent")).all()
    _wait(reminded, what="the reminder mail")
    with pipeline.session() as session:
        # The time runs out.
        session.execute(update(Game).where(Game.id == gid).values(
            deadline_at=utcnow() - timedelta(seconds=1), alarm_at=utcnow() - timedelta(seconds=1)))
        session.commit()

    def moved():
        with pipeline.session() as session:
            return session.get(Game, gid).step > step
    _wait(moved, what="the default to be applied")
    _wait(lambda: pipeline.unconsumed() == [],
          what=lambda: f"the outbox to drain: {[(r.kind, r.payload) for r in pipeline.unconsumed()]}")
    time.sleep(2)  # more sweeps: nothing more happens
    with pipeline.session() as session:
        auto = session.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
        assert [(a.seat, a.source, a.actions[0]) for a in auto] == [(seat, "default", expected)]
        kinds = [r.kind for r in session.exec(select(OutboxMessage)).all()]
        assert kinds.count("reminder") == 1 and kinds.count("deadline_passed") == 1
        sent = session.exec(select(MailSent).where(MailSent.kind.in_(
            ("reminder", "deadline_passed")))).all()
        assert sorted((m.kind, m.recipient, m.status) for m in sent) == [
            ("deadline_passed", seat, "sent"), ("reminder", seat, "sent")]
        assert svc.rebuild(session, gid)
    assert pipeline.failures() == []
    ids = {m.message_id for m in sent}
    assert len([m for m in pipeline.mail.received() if m["Message-ID"] in ids]) == 2
