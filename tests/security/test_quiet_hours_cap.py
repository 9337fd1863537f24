"""Quiet hours are a night, not a day (issue 45, L12), written as the attack.

Quiet hours of 23 h 59 min (07:01 to 07:00) put every deadline and reminder a player owes into
one minute of the day. They are capped at 12 hours (QUIET_HOURS_MAX: a night's sleep with room
to spare, while half of every day stays open to the deadlines the other players wait on), by
the API and on the settings page (where the mail settings lead) alike, with the reason; and
quiet hours stored longer before the cap count only their first 12 hours.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlmodel import Session, select

from server.models import QuietHours
from server.services import quiet_hours
from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import Reader

LONG = [("07:01", "07:00"), ("08:00", "20:01"), ("22:00", "10:01"), ("00:00", "23:59")]


@pytest.mark.parametrize(("start", "end"), LONG)
def test_the_api_refuses_quiet_hours_longer_than_12_hours(client, store, players, start, end):
    ann = players["kennedy"]
    r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth,
                      json={"start": start, "end": end})
    body = is_problem(r, 422)
    assert "at most 12 hours" in body["detail"], body
    with store.session() as s:
        assert s.get(QuietHours, ann.id) is None


def test_twelve_hours_are_taken(client, store, players):
    ann = players["kennedy"]
    r = client.tc.put("/api/v1/users/me/quiet-hours", headers=ann.auth,
                      json={"start": "22:00", "end": "10:00"})
    assert r.status_code == 200, r.get_json()


@pytest.mark.parametrize(("start", "end"), LONG[:2])
def test_the_settings_page_refuses_quiet_hours_longer_than_12_hours(app, store, smtp_catcher,
                                                                    start, end):
    jack = Reader(app, smtp_catcher, "jack@example.org")
    jack.sign_in()
    bad = jack.post_form("/me/schedule", "/me/schedule", {
        "action": "quiet", "quiet_start": start, "quiet_end": end})
    page = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "at most 12 hours" in page
    with store.session() as s:
        assert s.exec(select(QuietHours)).all() == []


def test_quiet_hours_stored_before_the_cap_count_12_hours(client, store, players):
    ann = players["kennedy"]
    with store.session() as s:
        s.add(QuietHours(user_id=ann.id, start="07:01", end="07:00"))
        s.commit()
    gid = client.two_player_game(store, ann, players["nixon"])
    with Session(store.engine) as s:
        windows = quiet_hours.windows(s, gid, ["kennedy"])
    assert [(w.start.isoformat("minutes"), w.end.isoformat("minutes")) for w in windows] == [
        ("07:01", "19:01")]
    noon = datetime(2026, 12, 7, 20, 0, tzinfo=timezone.utc)       # after the 12 hours
    assert quiet_hours.later(noon, windows) == noon
