"""The pages only a signed-in reader may use (server/web/pages.py ``signed_in_only``): a
visitor who is not signed in is sent to sign in, with the way back, and nothing is done."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from server.models import ApiToken, CalendarFeed, User
from tests.web.pages_helpers import db_engine

PAGES = [
    ("GET", "/me/tokens", "/me/tokens"),
    ("POST", "/me/tokens", "/me/tokens"),
    ("GET", "/me/schedule", "/me/schedule"),
    ("POST", "/me/schedule", "/me/schedule"),
    ("GET", "/me/data", "/me/data"),
    ("GET", "/me/data/export.json", "/me/data"),
    ("POST", "/me/calendar", "/me/data"),
    ("POST", "/me/delete", "/me/data"),
    ("POST", "/games/7/schedule", "/games/7"),
    ("POST", "/games/7/absences", "/games/7"),                 # issue 46: absent seats
    ("POST", "/games/7/come-back", "/games/7"),
    ("POST", "/games/7/take-seat/abc", "/games/7/take-seat/abc"),
]


@pytest.mark.parametrize("method,path,back", PAGES)
def test_a_visitor_is_sent_to_sign_in_and_back(app, jack, method, path, back):
    with Session(db_engine(app)) as session:
        before = (session.exec(select(User)).all(), session.exec(select(ApiToken)).all(),
                  session.exec(select(CalendarFeed)).all())
    client = app.test_client()
    answer = client.open(path, method=method,
                         data={"action": "new", "confirm": jack.email, "schedule": "pause_ask"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/sign-in?next={back}"
    with Session(db_engine(app)) as session:
        after = (session.exec(select(User)).all(), session.exec(select(ApiToken)).all(),
                 session.exec(select(CalendarFeed)).all())
    assert [len(rows) for rows in after] == [len(rows) for rows in before]
