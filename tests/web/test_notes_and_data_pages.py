"""Issue 27, items 2, 7, 8 on the pages: private notes on the game page (saved with the
page's CSRF token, a refusal keeping what was typed; never on the other seat's, a spectator's
or a stranger's page, nor in their replay; the writer's replay shows them), the "Your data"
page (the export's download, the calendar feed read back with icalendar, a revoked address
refused, deleting the account refused then allowed)."""

from __future__ import annotations

import json
import re
from datetime import timezone

import engine.core as engine
from icalendar import Calendar
from markupsafe import escape
from sqlmodel import Session

from server.models import Game, aware
from tests.web.pages_helpers import Reader, csrf, db_engine, new_game, path_of
from tests.web.test_replay import finish

SECRET = "Dick bluffs <b>Ohio</b> & holds card 17"


def _save(reader, gid: int, text: str):
    return reader.post_form(f"/games/{gid}", f"/games/{gid}/notes", {"notes": text})


def test_notes_are_saved_and_shown_to_their_writer_only(app, smtp_catcher, jack, dick):
    gid = new_game(jack, dick, public="on")
    saved = _save(jack, gid, SECRET)
    assert saved.status_code == 303 and saved.headers["Location"].endswith("?notes=saved#notes")
    mine = jack.get(f"/games/{gid}?notes=saved").get_data(as_text=True)
    assert str(escape(SECRET)) in mine and "<b>Ohio</b>" not in mine   # escaped
    assert 'id="notes-text"' in mine and "Your notes are saved." in mine
    theirs = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="notes-text"' in theirs and "Dick bluffs" not in theirs
    carl = Reader(app, smtp_catcher, "carl@example.org")
    carl.sign_in()
    for reader in (carl, Reader(app, smtp_catcher, "nobody@example.org")):
        page = reader.get(f"/games/{gid}").get_data(as_text=True)
        assert "Dick bluffs" not in page and 'id="notes-text"' not in page
    # a spectator cannot write notes into the game either
    assert carl.post_form(f"/games/{gid}", f"/games/{gid}/notes",
                          {"notes": "mine"}).status_code == 403


def test_a_refused_save_keeps_what_was_typed(app, jack, dick):
    gid = new_game(jack, dick)
    _save(jack, gid, "first")
    long = "z" * 20_001
    refused = _save(jack, gid, long)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "Your notes were not saved" in page and long in page and 'id="notes-error"' in page
    forged = jack.client.post(f"/games/{gid}/notes", data={"notes": "forged text",
                                                             "csrf_token": "x"})
    assert forged.status_code == 400 and "forged text" in forged.get_data(as_text=True)
    assert ">first</textarea>" in jack.get(f"/games/{gid}").get_data(as_text=True)


def test_the_replay_shows_the_notes_to_their_writer_only(app, jack, dick):
    gid = new_game(jack, dick)
    _save(jack, gid, SECRET)
    finish(app, gid)
    mine = jack.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert 'id="your-notes"' in mine and str(escape(SECRET)) in mine
    theirs = dick.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert "Dick bluffs" not in theirs and 'id="your-notes"' not in theirs
    # the finished game's page keeps the notepad for its writer, no one else
    assert str(escape(SECRET)) in jack.get(f"/games/{gid}").get_data(as_text=True)
    assert "Dick bluffs" not in dick.get(f"/games/{gid}").get_data(as_text=True)


def test_the_export_downloads_from_the_page(app, jack, dick):
    gid = new_game(jack, dick)
    _save(jack, gid, SECRET)
    page = jack.get("/me/data").get_data(as_text=True)
    assert 'action="/me/data/export.json"' in page
    answer = jack.get("/me/data/export.json")
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    data = json.loads(answer.get_data(as_text=True))
    assert data["account"]["email"] == "jack@example.org"
    assert [(g["game_id"], g["seat"]) for g in data["games"]] == [(gid, "kennedy")]
    assert data["notes"][0]["text"] == SECRET
    assert "dick@example.org" not in answer.get_data(as_text=True)
    assert "/me/data" in jack.get("/me/mail").get_data(as_text=True)   # from the settings


def _feed_url(reader) -> str:
    made = reader.post_form("/me/data", "/me/calendar", {})
    assert made.status_code == 303
    page = reader.get("/me/data").get_data(as_text=True)
    start = page.index('id="feed-url"')
    return page[start:].split('value="', 1)[1].split('"', 1)[0]


def test_the_calendar_feed_lists_the_pending_deadlines(app, smtp_catcher, jack, dick):
    gid = new_game(jack, dick)
    with Session(db_engine(app)) as session:
        game = session.get(Game, gid)
        deadline = aware(game.deadline_at)
        asked = [s for s in engine.from_dict(game.state).active() if s != engine.CHANCE]
    [seat] = asked   # the game opens with one seat's decision (whose depends on the seed)
    readers = {"kennedy": jack, "nixon": dick}
    player, idle = readers[seat], readers[next(s for s in readers if s != seat)]
    _save(player, gid, SECRET)
    url = _feed_url(player)
    calendar_app = app.test_client()   # no session: a calendar app fetching the address
    answer = calendar_app.get(path_of(url))
    assert answer.status_code == 200 and answer.content_type.startswith("text/calendar")
    [event] = Calendar.from_ical(answer.data).walk("VEVENT")   # one decision pending
    assert event.decoded("dtstart").astimezone(timezone.utc) == deadline.replace(microsecond=0)
    assert event.decoded("dtstart").utcoffset().total_seconds() == 0
    assert f"#{gid}" in str(event["summary"])
    assert seat.capitalize() in str(event["summary"])   # the seat's name
    assert str(event["url"]).endswith(f"/games/{gid}")
    assert "Dick bluffs" not in answer.get_data(as_text=True)
    # the other player is asked nothing now: their feed has no event
    assert Calendar.from_ical(calendar_app.get(path_of(_feed_url(idle))).data
                              ).walk("VEVENT") == []
    # a new address voids the old one; a forged one is refused
    newer = _feed_url(player)
    assert newer != url
    settings = player.get("/me/mail").get_data(as_text=True)   # the settings page shows it
    assert f'value="{newer}"' in settings.replace("&amp;", "&")
    assert calendar_app.get(path_of(url)).status_code == 404
    assert calendar_app.get(path_of(newer)).status_code == 200
    assert calendar_app.get(path_of(newer).replace(".ics", "x.ics")).status_code == 404
    assert calendar_app.get("/calendar/WzEsImFiYyJd.forged.ics").status_code == 404


def test_deleting_the_account_on_the_page(app, smtp_catcher, jack, dick):
    gid = new_game(jack, dick)
    wrong = jack.post_form("/me/data", "/me/delete", {"confirm": "jack@example.com"})
    assert wrong.status_code == 422 and 'value="jack@example.com"' in wrong.get_data(as_text=True)
    held = jack.post_form("/me/data", "/me/delete", {"confirm": "jack@example.org"})
    page = held.get_data(as_text=True)
    assert held.status_code == 409 and 'id="held-seats"' in page and f"/games/{gid}" in page
    assert 'value="jack@example.org"' in page   # what was typed is kept
    done = jack.post_form("/me/data", "/me/delete", {"confirm": "jack@example.org",
                                                     "hand_over": "yes"})
    assert done.status_code == 200 and 'id="deleted"' in done.get_data(as_text=True)
    assert jack.get("/me/data").status_code == 303   # signed out everywhere
    names = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert "jack@example.org" not in names and "a deleted player" in names


def test_a_calendar_address_is_good_for_its_own_purpose_only(app, smtp_catcher, jack, dick):
    """The feed's token opens no mail settings, and a mail's settings link opens no feed:
    each is signed for its own use (salted apart)."""
    new_game(jack, dick)
    token = path_of(_feed_url(dick)).rsplit("/", 1)[1].removesuffix(".ics")
    stranger = app.test_client()
    assert stranger.get(f"/me/mail/{token}").status_code == 404
    mails = [m.get_body(("plain",)).get_content() for m in smtp_catcher.to("dick@example.org")]
    for kind in ("/me/mail/",):
        tokens = {t for mail in mails for t in re.findall(re.escape(kind) + r"([^\s/?>]+)",
                                                          mail)}
        assert tokens, kind
        for found in list(tokens)[:3]:
            assert stranger.get(f"/calendar/{found}.ics").status_code == 404
