"""Time zones on the pages: the game page shows the deadline in the signed-in reader's zone with
its offset; a new account takes the browser's zone when its sign-in link is used (never on a
GET, never over a zone the user chose, and a bad value is no error); the settings page changes
the zone under the signed-in session only (422 with the reason for a name that is no zone,
keeping what was typed), and a mail's settings link cannot change it."""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, User
from tests.web.pages_helpers import Reader, csrf, new_game, path_of, sign_in_link
from tests.web.test_preferences import ann, signed_in, snapshot, url_for, user  # noqa: F401

WINTER = datetime(2027, 1, 15, 9, 0, tzinfo=timezone.utc)


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True)).replace("\u202f", " ")


def words(response) -> str:
    """The page's text without its tags."""
    return re.sub(r"<[^>]+>", "", text(response))


def zone_of(store, email: str) -> str:
    with Session(store.engine) as s:
        return s.exec(select(User.time_zone).where(User.email == email)).one()


def set_user(store, email: str, **values) -> None:
    with Session(store.engine) as s:
        s.execute(update(User).where(User.email == email).values(**values))
        s.commit()


# --- the game page ------------------------------------------------------------------------------
@pytest.mark.parametrize("zone, locale, shown", [
    ("Asia/Tokyo", "en", "January 15, 2027, 6:00 PM UTC+09:00"),
    ("Asia/Tokyo", "ja", "2027年1月15日 18:00 UTC+09:00"),
    ("Europe/Madrid", "es", "15 de enero de 2027, 10:00 UTC+01:00"),
])
def test_the_game_page_shows_the_deadline_in_the_readers_zone(store, jack, dick, zone, locale,
                                                              shown):
    gid = new_game(jack, dick)
    with Session(store.engine) as s:
        s.execute(update(Game).where(Game.id == gid).values(deadline_at=WINTER))
        s.commit()
    page = text(jack.get(f"/games/{gid}"))
    assert "January 15, 2027, 9:00 AM UTC" in page  # UTC until the reader chooses a zone
    set_user(store, jack.email, time_zone=zone, locale=locale)
    page = text(jack.get(f"/games/{gid}"))
    # In a <time> that carries the moment in UTC (for a script to show the browser's time).
    assert f'<time datetime="2027-01-15T09:00:00Z">{shown}</time>' in page
    assert "January 15, 2027, 9:00 AM UTC" not in text(jack.get(f"/games/{gid}"))
    # The other player reads it in theirs.
    assert "January 15, 2027, 9:00 AM UTC" in text(dick.get(f"/games/{gid}"))


def test_the_tokens_page_shows_times_in_the_readers_zone(store, jack):
    jack.post_form("/me/tokens", "/me/tokens", {"action": "new"})
    assert re.search(r"made \w+ \d+, \d{4}, [\d:]+ [AP]M UTC\b", words(jack.get("/me/tokens")))
    set_user(store, jack.email, time_zone="Asia/Tokyo")
    assert re.search(r"made \w+ \d+, \d{4}, [\d:]+ [AP]M UTC\+09:00",
                     words(jack.get("/me/tokens")))


# --- the browser's zone at sign-in -----------------------------------------------------------
def sign_in(app, catcher, email: str, browser_zone: str | None):
    """Sign in by the mailed link, the confirmation page's script having read ``browser_zone``
    (None: no script ran)."""
    reader = Reader(app, catcher, email)
    before = len(catcher.to(email))
    reader.post_form("/sign-in", "/sign-in", {"email": email, "next": "/"})
    link = path_of(sign_in_link(catcher.wait_for_to(email, before + 1)[-1]))
    confirm = reader.get(link + ("?time_zone=Asia/Tokyo" if browser_zone else ""))
    assert confirm.status_code == 200
    form = {"csrf_token": csrf(confirm.data)}
    if browser_zone is not None:
        form["time_zone"] = browser_zone
    entered = reader.client.post(link, data=form)
    assert entered.status_code == 303, entered.data[:500]
    return reader, confirm


def test_a_new_account_takes_the_browsers_zone_when_the_link_is_used(app, store,
                                                                      smtp_catcher):
    email = "kim@example.org"
    reader, confirm = sign_in(app, smtp_catcher, email, "Asia/Tokyo")
    page = confirm.get_data(as_text=True)
    assert 'name="time_zone"' in page and "resolvedOptions().timeZone" in page
    assert zone_of(store, email) == "Asia/Tokyo"
    assert "UTC+09:00" in text(reader.get("/me/mail"))  # "Your time now" in the new zone
    # Another browser, elsewhere, does not move a zone the account has.
    sign_in(app, smtp_catcher, email, "Europe/Madrid")
    assert zone_of(store, email) == "Asia/Tokyo"


def test_a_zone_the_user_chose_is_kept_at_sign_in(app, store, smtp_catcher, players):
    set_user(store, players["kennedy"].email, time_zone="Europe/Madrid")
    sign_in(app, smtp_catcher, players["kennedy"].email, "Asia/Tokyo")
    assert zone_of(store, players["kennedy"].email) == "Europe/Madrid"


@pytest.mark.parametrize("browser_zone", [None, "", "Mars/Olympus", "Etc/UTC", "asia/tokyo",
                                          "<script>", "x" * 500])
def test_no_zone_or_a_bad_one_from_the_browser_is_ignored(app, store, smtp_catcher,
                                                          browser_zone):
    email = "lee@example.org"
    sign_in(app, smtp_catcher, email, browser_zone)  # signed in all the same
    assert zone_of(store, email) == "UTC"


def test_opening_the_link_changes_nothing(app, store, smtp_catcher):
    email = "pat@example.org"
    reader = Reader(app, smtp_catcher, email)
    reader.post_form("/sign-in", "/sign-in", {"email": email, "next": "/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to(email, 1)[-1]))
    for _ in range(2):  # a mail scanner, then a preview
        assert reader.get(link + "?time_zone=Asia/Tokyo").status_code == 200
    assert zone_of(store, email) == "UTC"


# --- the settings page --------------------------------------------------------------------
def test_the_signed_in_user_changes_the_zone(store, ann, signed_in):
    page = text(signed_in.get())
    assert 'name="time_zone"' in page and 'value="UTC"' in page and 'list="time-zones"' in page
    assert '<option value="Asia/Tokyo">' in page and "Your time now:" in page
    r = signed_in.post({"action": "settings", "mail_mode": "every", "locale": "en",
                        "time_zone": "asia/tokyo"})
    assert r.status_code == 200, text(r)
    assert user(store, ann.id).time_zone == "Asia/Tokyo"
    page = text(r)
    assert 'id="notice"' in page and 'value="Asia/Tokyo"' in page
    assert re.search(r"Your time now: \w+ \d+, \d{4}, [\d:]+ [AP]M UTC\+09:00", page)
    r = signed_in.post({"action": "settings", "mail_mode": "every", "locale": "es",
                        "time_zone": "Madrid"})
    assert r.status_code == 200 and user(store, ann.id).time_zone == "Europe/Madrid"
    assert re.search(r"\d+ de \w+ de \d{4}, [\d:]+ UTC\+0[12]:00", text(r))


@pytest.mark.parametrize("typed, words", [
    ("Mars/Olympus", "Mars/Olympus is not a time zone"),
    ("Tokio", "Tokio is not a time zone"),
    ("", "Name a time zone"),
])
def test_a_name_that_is_no_zone_is_refused_and_kept(store, ann, signed_in, typed, words):
    before = snapshot(store)
    r = signed_in.post({"action": "settings", "mail_mode": "digest", "locale": "ja",
                        "time_zone": typed})
    assert r.status_code == 422
    page = text(r)
    assert "Nothing was changed." in page and words in page
    assert "Asia/Tokyo, Europe/Madrid" in page  # what to write instead
    assert f'name="time_zone" list="time-zones" value="{typed}"' in page  # as typed
    assert snapshot(store) == before and user(store, ann.id).time_zone == "UTC"


def test_a_mails_settings_link_cannot_change_the_zone(app, store, ann):
    client = app.test_client()
    page = text(client.get(url_for(app, ann.id)))
    assert "Time zone: UTC." in page and 'name="time_zone"' not in page
    before = snapshot(store)
    for zone in ("Asia/Tokyo", "Mars/Olympus"):
        r = client.post(url_for(app, ann.id), data={"action": "settings", "mail_mode": "every",
                                                    "time_zone": zone})
        assert r.status_code == 403
        assert "cannot change your time zone" in text(r)
    assert snapshot(store) == before and user(store, ann.id).time_zone == "UTC"
    # The zone the user has may be posted back unchanged with less mail.
    r = client.post(url_for(app, ann.id), data={"action": "settings", "mail_mode": "digest",
                                                "time_zone": "UTC"})
    assert r.status_code == 200 and user(store, ann.id).mail_mode == "digest"
