"""Mails show every time in the recipient's zone with its offset (User.time_zone): a deadline
mailed to a Tokyo account and to a Madrid account, in English, Japanese and Spanish, Madrid in
winter and in summer; and the reply line ``timezone Asia/Tokyo``, which sets the zone, is told
in the answer, and refuses the whole reply when it names no zone."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import update
from sqlmodel import Session

from server import db
from server.games import presenter
from server.mail import recipients, render
from server.models import Game, OutboxMessage, User
from server.services import games as svc
from tests.mail.test_delivery import SETTINGS
from tests.mail.test_replies import answers, app, game, handle, reply, state_of  # noqa: F401
from tests.players import proven_user

UTC = timezone.utc
WINTER = datetime(2027, 1, 15, 9, 0, tzinfo=UTC)  # a Friday
SUMMER = datetime(2027, 7, 16, 9, 0, tzinfo=UTC)  # a Friday, Madrid on summer time


@pytest.fixture
def engine(tmp_path):
    """A migrated SQLite database of this test's own."""
    url = f"sqlite:///{tmp_path / 'zones.db'}"
    db.migrate(url)
    made = db.make_engine(url)
    yield made
    made.dispose()


def _started(engine) -> tuple[int, str, int, int]:
    """A started game: its id, the seat asked now, that seat's user and the other user."""
    with Session(engine) as s:
        jack = proven_user(s, "jack@example.org", "Jack")
        dick = proven_user(s, "dick@example.org", "Dick")
        game = svc.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": dick.id},
                               seed="zones", created_by=jack.id)
        seat = svc._load(game).active()[0]
        asked, other = (jack.id, dick.id) if seat == "kennedy" else (dick.id, jack.id)
        found = game.id, seat, asked, other
        s.commit()
    return found


def _mails(engine, kind: str, payload: dict) -> list:
    """The rendered mails an outbox row of ``kind`` makes now, with their envelopes."""
    with Session(engine) as s:
        row = OutboxMessage(kind=kind, payload=payload)
        s.add(row)
        s.commit()
        found = recipients.envelopes(s, row, SETTINGS)
    return [(e, render.render(e.kind, e.context, e.locale)) for e in found]


def _set(engine, user_id: int, **values) -> None:
    with Session(engine) as s:
        s.execute(update(User).where(User.id == user_id).values(**values))
        s.commit()


def _plain(text: str) -> str:
    return text.replace("\u202f", " ")


@pytest.mark.parametrize("zone, locale, deadline, shown, short", [
    # ``short``: how the subject's short form begins and ends (the year in it depends on today)
    ("Asia/Tokyo", "en", WINTER, "January 15, 2027, 6:00 PM UTC+09:00", ("Fri, Jan 15", "6:00 PM")),
    ("Asia/Tokyo", "ja", WINTER, "2027年1月15日 18:00 UTC+09:00", ("", "1月15日(金) 18:00")),
    ("Asia/Tokyo", "es", WINTER, "15 de enero de 2027, 18:00 UTC+09:00",
     ("vie, 15 ene", ", 18:00")),
    ("Europe/Madrid", "en", WINTER, "January 15, 2027, 10:00 AM UTC+01:00",
     ("Fri, Jan 15", "10:00 AM")),
    ("Europe/Madrid", "ja", WINTER, "2027年1月15日 10:00 UTC+01:00", ("", "1月15日(金) 10:00")),
    ("Europe/Madrid", "es", WINTER, "15 de enero de 2027, 10:00 UTC+01:00",
     ("vie, 15 ene", ", 10:00")),
    ("Europe/Madrid", "es", SUMMER, "16 de julio de 2027, 11:00 UTC+02:00",
     ("vie, 16 jul", ", 11:00")),
    ("Europe/Madrid", "en", SUMMER, "July 16, 2027, 11:00 AM UTC+02:00",
     ("Fri, Jul 16", "11:00 AM")),
])
def test_a_reminder_shows_the_deadline_in_the_recipients_zone(engine, zone, locale, deadline,
                                                               shown, short):
    gid, seat, asked, _other = _started(engine)
    _set(engine, asked, time_zone=zone, locale=locale)
    with Session(engine) as s:
        s.execute(update(Game).where(Game.id == gid).values(deadline_at=deadline))
        step = s.get(Game, gid).step
        s.commit()
    ((envelope, mail),) = _mails(engine, "reminder", {"game_id": gid, "seat": seat,
                                                      "step": step, "number": 1, "of": 1})
    assert envelope.user_id == asked
    assert shown in _plain(mail.text) and shown in _plain(mail.html)
    assert "UTC " not in _plain(mail.text)  # no time of the mail is left in UTC
    begins, ends = short
    assert _plain(envelope.context["deadline"]["short"]).startswith(begins)
    assert _plain(envelope.context["deadline"]["short"]).endswith(ends)


def test_each_recipient_reads_the_deadline_in_their_own_zone(engine):
    """The deadline-passed mail and the digest of two accounts, one in Tokyo, one in Madrid."""
    gid, seat, asked, other = _started(engine)
    _set(engine, asked, time_zone="Asia/Tokyo", locale="ja", mail_mode="digest")
    _set(engine, other, time_zone="Europe/Madrid", locale="es", mail_mode="digest")
    with Session(engine) as s:
        s.execute(update(Game).where(Game.id == gid).values(deadline_at=WINTER))
        step = s.get(Game, gid).step
        s.commit()
    ((_e, tokyo),) = _mails(engine, "digest", {"user_id": asked, "day": "2027-01-14"})
    assert "2027年1月15日 18:00 UTC+09:00" in tokyo.text
    ((_e, passed),) = _mails(engine, "deadline_passed", {
        "game_id": gid, "seat": seat, "step": step - 1, "actions": ["pass"],
        "source": "default", "rule": ""})
    assert "2027年1月15日 18:00 UTC+09:00" in passed.text
    # The other seat is asked nothing: its digest is empty, so none is sent; its
    # deadline_passed mail (if the deadline were its) would be in Madrid time.
    assert _mails(engine, "digest", {"user_id": other, "day": "2027-01-14"}) == []
    _set(engine, asked, time_zone="Europe/Madrid", locale="es")
    ((_e, madrid),) = _mails(engine, "digest", {"user_id": asked, "day": "2027-01-14"})
    assert "15 de enero de 2027, 10:00 UTC+01:00" in madrid.text


# --- the reply line ----------------------------------------------------------------------------
def _zone_of(game) -> str:
    with Session(db.get_engine()) as s:
        return s.get(User, game["user"][game["seat"]]).time_zone


def test_a_timezone_line_alone_sets_the_zone_and_is_told(app, game, smtp_catcher):
    before = state_of(game)
    assert handle(app, reply(game, "timezone Asia/Tokyo")) == "order"
    assert _zone_of(game) == "Asia/Tokyo"
    assert state_of(game) == before  # no order: the decision is still asked
    (answer,) = answers(smtp_catcher, game)
    assert "Your time zone is now Asia/Tokyo" in answer and "UTC+09:00" in answer
    assert all(action in answer for action in game["legal"][:5])  # still asked


@pytest.mark.parametrize("line, zone", [
    ("Time zone: madrid", "Europe/Madrid"),
    ("TIMEZONE europe/madrid", "Europe/Madrid"),
    ("ｔｉｍｅｚｏｎｅ　Ａｓｉａ／Ｔｏｋｙｏ", "Asia/Tokyo"),  # full-width (NFKC)
    ("time-zone Tokyo", "Asia/Tokyo"),
])
def test_a_timezone_line_with_an_order_is_done_with_it(app, game, smtp_catcher, line, zone):
    order = game["legal"][0]
    assert handle(app, reply(game, f"{line}\n{order}")) == "order"
    assert state_of(game)[0] == game["step"] + 1
    assert _zone_of(game) == zone
    (answer,) = answers(smtp_catcher, game)
    said = presenter("tmotp").order_words(order, "en")  # the order in words (issue 47)
    assert f"Done: {said}." in answer and f"Your time zone is now {zone}" in answer


@pytest.mark.parametrize("text", ["timezone Mars/Olympus", "timezone", "time zone Tokio"])
def test_a_zone_not_taken_refuses_the_whole_reply(app, game, smtp_catcher, text):
    before = state_of(game)
    order = game["legal"][0]
    assert handle(app, reply(game, f"{order}\nstanding trigger never\n{text}")) == "order"
    assert state_of(game) == before and _zone_of(game) == "UTC"
    from tests.mail.test_replies import _standing
    assert _standing(game) == {}
    (answer,) = answers(smtp_catcher, game)
    assert "Nothing was changed" in answer and "Asia/Tokyo, Europe/Madrid" in answer


def test_a_refused_order_leaves_the_zone(app, game, smtp_catcher):
    before = state_of(game)
    assert handle(app, reply(game, "timezone Asia/Tokyo\nfly-to-the-moon")) == "order"
    assert state_of(game) == before and _zone_of(game) == "UTC"
