"""Times as their reader reads them: in the reader's own zone (``User.time_zone``, an IANA name
such as "Asia/Tokyo") with its offset from UTC, written the way the reader's language writes
dates and times (Babel, CLDR). Every time a mail or a page shows goes through here.

- ``moment``: the full form, for a mail's or a page's text: the locale's long date and short
  time and the offset ("November 27, 2026, 6:00 PM UTC+09:00", "2026年11月27日 18:00
  UTC+09:00", "27 de noviembre de 2026, 18:00 UTC+01:00"); UTC itself is "UTC".
- ``short``: the short form, for a subject that says "your time": the weekday and time when the
  moment falls within the next NEAR_DAYS days ("Fri 6:00 PM", "18:00 (金)", "vie, 18:00"), else
  with the date too ("Fri, Nov 27, 6:00 PM"), and the year when it is not this year's.
- ``zone_name``: what a user wrote, as a zone's name, or UnknownZone (case-insensitive; spaces
  for underscores; a city alone when it names one zone: "tokyo"; UTC, GMT, Z).
"""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from babel import Locale
from babel.dates import (format_date, format_datetime, format_skeleton, get_date_format,
                         get_datetime_format, get_time_format)

from server.i18n import supported

DEFAULT_ZONE = "UTC"
MAX_LENGTH = 64  # User.time_zone
EXAMPLES = ("Asia/Tokyo", "Europe/Madrid", "America/New_York", "UTC")
# A weekday alone names a day unambiguously within the next six days (today is the seventh).
NEAR_DAYS = 6
# The zones people are offered (and the folders of the database that hold real places); the
# database's other names (its old links "Japan", "US/Eastern", "Etc/GMT-9") are still taken.
REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia",
           "Europe", "Indian", "Pacific")
# Names that are not places: the system's own and the database's placeholder.
NOT_ZONES = ("localtime", "Factory", "posixrules")
ALIASES = {"utc": "UTC", "gmt": "UTC", "z": "UTC", "zulu": "UTC", "universal": "UTC",
           "jst": "Asia/Tokyo", "kst": "Asia/Seoul"}


class UnknownZone(ValueError):
    """Text that names no time zone; ``candidates``: the zones it might mean (a city that
    several regions have), else none."""

    def __init__(self, text: str, candidates: tuple[str, ...] = ()):
        super().__init__(text)
        self.text, self.candidates = text, candidates


@lru_cache(maxsize=1)
def names() -> frozenset[str]:
    """Every zone name the time zone database has."""
    return frozenset(n for n in available_timezones()
                     if n not in NOT_ZONES and not n.startswith(("posix/", "right/")))


@lru_cache(maxsize=1)
def _folded() -> dict[str, str]:
    """Each name, case-folded with spaces for underscores, to the name."""
    return {_fold(name): name for name in names()}


@lru_cache(maxsize=1)
def _cities() -> dict[str, tuple[str, ...]]:
    """Each place's own name (the last part: "tokyo", "new york") to the offered zones."""
    found: dict[str, list[str]] = {}
    for name in offered():
        found.setdefault(_fold(name.rsplit("/", 1)[-1]), []).append(name)
    return {city: tuple(sorted(zones)) for city, zones in found.items()}


def _fold(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).casefold()


def zone_name(text: str | None) -> str:
    """The database's name of the zone ``text`` names; raise UnknownZone."""
    cleaned = unicodedata.normalize("NFKC", text or "").strip()
    if not cleaned or len(cleaned) > MAX_LENGTH:
        raise UnknownZone(cleaned[:MAX_LENGTH])
    folded = _fold(cleaned)
    if folded in ALIASES:
        return ALIASES[folded]
    folded = "/".join(part.strip() for part in folded.split("/"))
    if folded in _folded():
        return _folded()[folded]
    zones = _cities().get(folded, ())
    if zones and _alike(zones):  # one zone under several names ("Asia/Istanbul")
        return max(zones, key=lambda z: (z.count("/"), z))
    raise UnknownZone(cleaned, zones)


def _alike(zones: tuple[str, ...]) -> bool:
    """Whether the zones keep the same time (the database's links of one zone), as far as a
    few moments a year apart tell."""
    moments = [datetime(year, month, 1, tzinfo=timezone.utc)
               for year in (2000, 2013, 2026) for month in (1, 7)]
    return len({tuple(m.astimezone(ZoneInfo(z)).utcoffset() for m in moments)
                for z in zones}) == 1


def is_zone(text: str | None) -> bool:
    """Whether ``text`` is a zone's name exactly as the database spells it."""
    return text in names()


def is_utc(name: str | None) -> bool:
    """Whether ``name`` is one of UTC's own names ("UTC", "Etc/UTC", "GMT", "Zulu", ...)."""
    return (name or "").rsplit("/", 1)[-1].casefold() in (
        "utc", "uct", "gmt", "gmt0", "gmt+0", "gmt-0", "universal", "zulu", "greenwich")


def zone(name: str | None) -> tzinfo:
    """The zone of a stored name; UTC for none or one the database does not have (any more)."""
    if name and name != DEFAULT_ZONE and name in names():
        return ZoneInfo(name)
    return timezone.utc


@lru_cache(maxsize=1)
def offered() -> tuple[str, ...]:
    """The zones a user picks from: UTC, then every place's zone, sorted."""
    return (DEFAULT_ZONE, *sorted(n for n in names() if n.split("/", 1)[0] in REGIONS))


def _aware(moment: datetime) -> datetime:
    """An aware moment (SQLite hands back naive UTC datetimes)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def offset(moment: datetime, name: str | None) -> str:
    """The zone's offset from UTC at ``moment``: "UTC+09:00", "UTC-03:30", or "UTC" (none)."""
    delta = _aware(moment).astimezone(zone(name)).utcoffset() or timedelta(0)
    minutes = round(delta.total_seconds() / 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def moment(when: datetime, locale: str | None, name: str | None) -> str:
    """``when`` in the zone ``name``, the full form: the locale's long date and short time,
    joined as the locale joins them, and the offset."""
    loc = supported(locale)
    literal = offset(when, name)
    pattern = (get_datetime_format("long", locale=loc)
               .replace("{1}", get_date_format("long", locale=loc).pattern)
               .replace("{0}", f"{get_time_format('short', locale=loc).pattern} '{literal}'"))
    return format_datetime(_aware(when), pattern, tzinfo=zone(name), locale=loc)


def _twelve_hours(loc: str) -> bool:
    """Whether the locale writes the time of day with AM/PM (en) rather than 0-23."""
    pattern = Locale.parse(loc).time_formats["short"].pattern
    return "h" in pattern or "K" in pattern


def short(when: datetime, locale: str | None, name: str | None,
          now: datetime | None = None) -> str:
    """``when`` in the zone ``name``, the short form (no offset: for a sentence that says
    "your time"): the weekday and time within the next NEAR_DAYS days of ``now``, else the
    date (with the year when not ``now``'s) and time."""
    loc = supported(locale)
    tz = zone(name)
    local = _aware(when).astimezone(tz)
    today = _aware(now or datetime.now(timezone.utc)).astimezone(tz).date()
    hours = "hm" if _twelve_hours(loc) else "Hm"
    if 0 <= (local.date() - today).days <= NEAR_DAYS:
        return format_skeleton("E" + hours, local, tzinfo=tz, locale=loc)
    day = format_skeleton("MMMEd" if local.year == today.year else "yMMMEd", local,
                          tzinfo=tz, locale=loc)
    time = format_skeleton(hours, local, tzinfo=tz, locale=loc)
    return get_datetime_format("short", locale=loc).replace("{1}", day).replace("{0}", time)


def day(when: datetime, locale: str | None, name: str | None) -> str:
    """The date of ``when`` in the zone ``name``, the locale's long form."""
    return format_date(local_date(when, name), "long", locale=supported(locale))


def calendar_day(when: date, locale: str | None) -> str:
    """A calendar date (a vacation's first or last day), the locale's long form."""
    return format_date(when, "long", locale=supported(locale))


def local_date(when: datetime, name: str | None) -> date:
    return _aware(when).astimezone(zone(name)).date()


def iso(when: datetime) -> str:
    """``when`` as ISO 8601 in UTC (a page's ``<time datetime>``, for a script to show it in
    the browser's zone)."""
    return _aware(when).astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
