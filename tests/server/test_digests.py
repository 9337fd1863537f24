"""The daily digest is written once per user and day, from the hour set, only for the users who
chose it (the mail itself: tests/mail/test_notifications.py)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlmodel import Session, select

from server.models import Digest, OutboxMessage, User
from server.services import digests, users


def test_one_digest_a_day_from_the_hour(db_engine):
    with Session(db_engine) as session:
        ann = users.create_user(session, "ann@example.org", "Ann")
        users.create_user(session, "bob@example.org", "Bob")  # every decision: no digest
        ann.mail_mode = "digest"
        session.add(ann)
        session.commit()
        ann_id = ann.id
    morning = datetime(2026, 11, 21, 6, 59, tzinfo=timezone.utc)
    assert digests.write_due(db_engine, morning, hour=7) == 0
    assert digests.write_due(db_engine, morning + timedelta(minutes=1), hour=7) == 1
    assert digests.write_due(db_engine, morning + timedelta(hours=5), hour=7) == 0
    assert digests.write_due(db_engine, morning + timedelta(days=1, minutes=1), hour=7) == 1
    with Session(db_engine) as session:
        rows = session.exec(select(OutboxMessage).where(OutboxMessage.kind == "digest")).all()
        assert [r.payload for r in rows] == [{"user_id": ann_id, "day": "2026-11-21"},
                                             {"user_id": ann_id, "day": "2026-11-22"}]
        assert len(session.exec(select(Digest)).all()) == 2
        assert session.exec(select(User).where(User.mail_mode == "digest")).one().id == ann_id
