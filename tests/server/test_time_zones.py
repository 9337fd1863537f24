"""Times in the reader's zone (server/i18n/times.py): the full form with its offset in each
language, the short form for a subject, Madrid across its changes of summer time, and what a
user may write for a zone (services/time_zones.py: the same refusal everywhere)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from server.i18n import times
from server.services import time_zones

UTC = timezone.utc
DEADLINE = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)  # a Friday
NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)  # the Tuesday before


@pytest.mark.parametrize("zone, locale, shown", [
    ("Asia/Tokyo", "en", "November 27, 2026, 6:00 PM UTC+09:00"),
    ("Asia/Tokyo", "ja", "2026年11月27日 18:00 UTC+09:00"),
    ("Asia/Tokyo", "es", "27 de noviembre de 2026, 18:00 UTC+09:00"),
    ("Europe/Madrid", "en", "November 27, 2026, 10:00 AM UTC+01:00"),
    ("Europe/Madrid", "ja", "2026年11月27日 10:00 UTC+01:00"),
    ("Europe/Madrid", "es", "27 de noviembre de 2026, 10:00 UTC+01:00"),
    ("UTC", "en", "November 27, 2026, 9:00 AM UTC"),
    ("America/St_Johns", "en", "November 27, 2026, 5:30 AM UTC-03:30"),
    ("Asia/Kolkata", "es", "27 de noviembre de 2026, 14:30 UTC+05:30"),
])
def test_a_deadline_in_the_readers_zone_with_its_offset(zone, locale, shown):
    assert times.moment(DEADLINE, locale, zone).replace("\u202f", " ") == shown


def test_a_naive_moment_is_utc_and_an_unknown_zone_shows_utc():
    naive = DEADLINE.replace(tzinfo=None)  # as SQLite hands it back
    assert times.moment(naive, "en", "Asia/Tokyo") == times.moment(DEADLINE, "en", "Asia/Tokyo")
    assert times.moment(DEADLINE, "en", "Mars/Olympus") == times.moment(DEADLINE, "en", "UTC")
    assert times.offset(DEADLINE, None) == "UTC"


@pytest.mark.parametrize("moment, shown", [
    # Summer time begins on the last Sunday of March at 01:00 UTC: 02:00 CET becomes 03:00 CEST
    (datetime(2026, 3, 29, 0, 30, tzinfo=UTC), "01:30 UTC+01:00"),
    (datetime(2026, 3, 29, 1, 30, tzinfo=UTC), "03:30 UTC+02:00"),
    # ... and ends on the last Sunday of October at 01:00 UTC: 03:00 CEST becomes 02:00 CET
    (datetime(2026, 10, 25, 0, 30, tzinfo=UTC), "02:30 UTC+02:00"),
    (datetime(2026, 10, 25, 1, 30, tzinfo=UTC), "02:30 UTC+01:00"),
])
def test_madrid_across_its_changes_of_summer_time(moment, shown):
    day = f"{moment.day} de {'marzo' if moment.month == 3 else 'octubre'} de 2026"
    hour, offset = shown.split(" ")
    assert times.moment(moment, "es", "Europe/Madrid") == f"{day}, {hour.lstrip('0')} {offset}"
    assert times.offset(moment, "Europe/Madrid") == offset


@pytest.mark.parametrize("zone, locale, near, far, next_year", [
    ("Asia/Tokyo", "en", "Fri 6:00 PM", "Fri, Nov 27, 6:00 PM", "Fri, Nov 27, 2026, 6:00 PM"),
    ("Asia/Tokyo", "ja", "18:00 (金)", "11月27日(金) 18:00", "2026年11月27日(金) 18:00"),
    ("Asia/Tokyo", "es", "vie, 18:00", "vie, 27 nov, 18:00", "vie, 27 nov 2026, 18:00"),
    ("Europe/Madrid", "en", "Fri 10:00 AM", "Fri, Nov 27, 10:00 AM",
     "Fri, Nov 27, 2026, 10:00 AM"),
    ("Europe/Madrid", "es", "vie, 10:00", "vie, 27 nov, 10:00", "vie, 27 nov 2026, 10:00"),
])
def test_the_short_form_names_the_date_unless_within_six_days(zone, locale, near, far,
                                                              next_year):
    def short(now):
        return times.short(DEADLINE, locale, zone, now).replace("\u202f", " ")
    assert short(NOW) == near
    assert short(datetime(2026, 11, 21, 12, 0, tzinfo=UTC)) == near  # six days before, here
    assert short(datetime(2026, 11, 10, 12, 0, tzinfo=UTC)) == far
    assert short(datetime(2026, 11, 28, 12, 0, tzinfo=UTC)) == far  # passed: the date says so
    assert short(datetime(2025, 12, 30, 12, 0, tzinfo=UTC)) == next_year


def test_the_short_form_counts_days_in_the_readers_zone():
    # 20:00 UTC on Friday the 20th is Saturday in Tokyo, six days before the deadline's Friday;
    # in Madrid it is still Friday, a week before: "Fri" alone would name the wrong Friday.
    now = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    assert times.short(DEADLINE, "en", "Asia/Tokyo", now).replace("\u202f", " ") == "Fri 6:00 PM"
    assert times.short(DEADLINE, "en", "Europe/Madrid", now).startswith("Fri, Nov 27")


@pytest.mark.parametrize("text, zone", [
    ("Asia/Tokyo", "Asia/Tokyo"),
    ("asia/tokyo", "Asia/Tokyo"),
    ("  ASIA/TOKYO ", "Asia/Tokyo"),
    ("ａｓｉａ／ｔｏｋｙｏ", "Asia/Tokyo"),  # full-width, as a Japanese keyboard may type it
    ("tokyo", "Asia/Tokyo"),
    ("Madrid", "Europe/Madrid"),
    ("new york", "America/New_York"),
    ("America/New York", "America/New_York"),
    ("america/argentina/buenos_aires", "America/Argentina/Buenos_Aires"),
    ("Buenos Aires", "America/Argentina/Buenos_Aires"),  # two names of one zone
    ("utc", "UTC"),
    ("GMT", "UTC"),
    ("Z", "UTC"),
    ("JST", "Asia/Tokyo"),
    ("US/Eastern", "US/Eastern"),  # the database's old names are still zones
])
def test_what_a_user_may_write_for_a_zone(text, zone):
    assert time_zones.check(text) == zone


@pytest.mark.parametrize("text", ["Mars/Olympus", "Tokio", "localtime", "Factory", "", "   ",
                                  "+09:00", "EST5EDT" * 20])
def test_a_name_that_is_no_zone_is_refused_with_examples(text):
    with pytest.raises(time_zones.ZoneRefused) as refused:
        time_zones.check(text)
    words = str(refused.value)
    assert "Asia/Tokyo, Europe/Madrid" in words
    assert (text.strip() == "" and words.startswith("Name a time zone")) or \
        "is not a time zone" in words


def test_the_refusal_in_the_readers_language():
    with pytest.raises(time_zones.ZoneRefused) as refused:
        time_zones.check("Mars/Olympus")
    for locale in ("en", "ja", "es"):
        words = time_zones.told(refused.value.message, locale)
        assert "Mars/Olympus" in words and "Asia/Tokyo" in words


def test_the_offered_zones_are_places_sorted():
    offered = times.offered()
    assert offered[0] == "UTC" and list(offered[1:]) == sorted(offered[1:])
    assert {"Asia/Tokyo", "Europe/Madrid", "America/New_York"} <= set(offered)
    assert not any(z.startswith(("Etc/", "US/", "posix/")) for z in offered[1:])
    assert all(len(z) <= times.MAX_LENGTH for z in times.names())


def test_the_browsers_zone_is_taken_only_by_an_account_with_the_default():
    class Account:
        time_zone = "UTC"

    class Session:
        def add(self, _row):
            pass

    account = Account()
    assert not time_zones.take_browsers(Session(), account, "Mars/Olympus")
    assert not time_zones.take_browsers(Session(), account, "Etc/UTC")
    assert not time_zones.take_browsers(Session(), account, "asia/tokyo")  # as spelt only
    assert not time_zones.take_browsers(Session(), account, None)
    assert account.time_zone == "UTC"
    assert time_zones.take_browsers(Session(), account, "Asia/Tokyo")
    assert account.time_zone == "Asia/Tokyo"
    assert not time_zones.take_browsers(Session(), account, "Europe/Madrid")  # chosen stays
    assert account.time_zone == "Asia/Tokyo"
