"""Issue 27 on the pages and by mail: an extension asked on the game page, its "extension" mail
(rendered and sent through the outbox, text and HTML) with signed links, granted by the link
(GET changes nothing; the page's POST grants), refused, the one-time limit; a pause on the
game page; the settings page of quiet hours and vacations keeping what was typed on a refusal."""

from __future__ import annotations

import re
from datetime import date, timedelta

from sqlmodel import Session, select

from server.models import Extension, Game, Seat, User, aware, utcnow
from server.services import clock, vacations
from tests.web.pages_helpers import csrf, db_engine, new_game, path_of

ANSWER = re.compile(r"(https?://\S+/games/\d+/answer/[\w.\-]+)")


def _who_owes(app, gid, jack, dick):
    with Session(db_engine(app)) as session:
        game = session.get(Game, gid)
        owing = clock.owing_now(session, game)[0]
        holder = session.exec(select(User.email).join(Seat, Seat.user_id == User.id).where(
            Seat.game_id == gid, Seat.seat == owing)).one()
    return (jack, dick) if holder == jack.email else (dick, jack)


def _deadline(app, gid):
    with Session(db_engine(app)) as session:
        return aware(session.get(Game, gid).deadline_at)


def _mails(catcher, address, subject_part):
    return [m for m in catcher.to(address) if subject_part in m.get_body(("plain",))
            .get_content()]


def test_an_extension_asked_on_the_page_and_granted_by_the_mail_s_link(app, jack, dick,
                                                                       smtp_catcher):
    gid = new_game(jack, dick)
    asker, other = _who_owes(app, gid, jack, dick)
    before = _deadline(app, gid)
    page = asker.get(f"/games/{gid}").get_data(as_text=True)
    assert 'value="extension"' in page and 'id="schedule"' in page
    answer = asker.post_form(f"/games/{gid}", f"/games/{gid}/schedule",
                             {"schedule": "extension"})
    assert answer.status_code == 303
    # issue 47: in a two-player game, "the other player", not "the other players"
    shown = asker.get(f"/games/{gid}").get_data(as_text=True)
    assert "the other player is asked" in shown and "the other players are asked" not in shown
    mail = smtp_catcher.wait_for_to(other.email, 1)
    mail = [m for m in smtp_catcher.to(other.email) if "more time" in
            m.get_body(("plain",)).get_content()][-1]
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert "asks for more time for the decision they owe: 72 more hours" in text
    assert "The deadline of the decision now:" in text and "Refuse:" in text
    grant, refuse = ANSWER.findall(text)[:2]
    assert grant in html.replace("&amp;", "&") and 'class="choice"' in html
    # The asker gets no answer links; the other side sees the ask on the page.
    assert not any(ANSWER.search(m.get_body(("plain",)).get_content())
                   for m in smtp_catcher.to(asker.email))
    assert "asks for 72 more hours" in other.get(f"/games/{gid}").get_data(as_text=True)

    # A mail scanner opens the link: nothing changes.
    shown = other.get(path_of(grant))
    assert shown.status_code == 200 and "Yes, agree" in shown.get_data(as_text=True)
    assert _deadline(app, gid) == before
    # The link of the same ask for the asker's own seat does not exist; a damaged one is refused.
    assert other.get(path_of(grant) + "x").status_code == 400
    done = other.client.post(path_of(grant), data={"csrf_token": csrf(shown.data)})
    assert done.status_code == 200 and "agreement is recorded" in done.get_data(as_text=True)
    assert _deadline(app, gid) == before + timedelta(hours=72)
    # Used once: the refuse link now changes nothing.
    late = other.get(path_of(refuse))
    assert "answered already" in late.get_data(as_text=True)
    assert other.client.post(path_of(refuse), data={"csrf_token": csrf(late.data) if
                             "csrf_token" in late.get_data(as_text=True) else ""}
                             ).status_code in (400, 409)
    # Issue 46, item 4: the asker is told who granted it, the granter that they granted it.
    granted = [m for m in smtp_catcher.to(asker.email)
               if "Your ask for more time was granted by" in m.get_body(("plain",)).get_content()
               and "72 more hours" in m.get_body(("plain",)).get_content()]
    assert len(granted) == 1
    assert any("You granted the ask for more time of" in m.get_body(("plain",)).get_content()
               for m in smtp_catcher.to(other.email))
    # Once a game.
    again = asker.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "extension"})
    assert again.status_code == 409 and "one extension" in again.get_data(as_text=True)


def test_an_extension_refused_on_the_page_keeps_the_deadline(app, jack, dick, smtp_catcher):
    gid = new_game(jack, dick)
    asker, other = _who_owes(app, gid, jack, dick)
    before = _deadline(app, gid)
    asker.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "extension"})
    refused = other.post_form(f"/games/{gid}", f"/games/{gid}/schedule",
                              {"schedule": "extension_refuse"})
    assert refused.status_code == 303
    assert _deadline(app, gid) == before
    with Session(db_engine(app)) as session:
        assert session.exec(select(Extension.status)).one() == "refused"
    told = [m for m in smtp_catcher.to(asker.email)
            if "Your ask for more time was refused by" in m.get_body(("plain",)).get_content()]
    assert len(told) == 1
    # The other side never asked: it may ask once when the decision is theirs, not now.
    page = other.get(f"/games/{gid}").get_data(as_text=True)
    assert 'value="extension"' not in page


def test_a_pause_on_the_game_page_and_a_vacation_shown_to_the_opponent(app, jack, dick,
                                                                       smtp_catcher):
    gid = new_game(jack, dick)
    jack.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "pause"})
    page = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert "asked to pause the game" in page and 'value="pause_agree"' in page
    dick.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "pause_agree"})
    page = jack.get(f"/games/{gid}").get_data(as_text=True)
    assert "The game is paused" in page and 'value="resume"' in page
    jack.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "resume"})
    assert "The game is paused" not in jack.get(f"/games/{gid}").get_data(as_text=True)
    # Dick's vacation, under way (booked in the past with the notice kept): Jack is told.
    with Session(db_engine(app)) as session:
        user = session.exec(select(User).where(User.email == dick.email)).one()
        today = utcnow().date()
        vacations.book(session, user, today, today + timedelta(days=1),
                       utcnow() - timedelta(days=2))
    page = jack.get(f"/games/{gid}").get_data(as_text=True)
    assert "is on vacation until" in page
    assert "is on vacation until" not in dick.get(f"/games/{gid}").get_data(as_text=True)
    # ... and in their next mail about the game.
    dick.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "pause"})
    mail = smtp_catcher.to(jack.email)[-1]
    assert "asks to pause this game" in mail.get_body(("plain",)).get_content()
    assert "is on vacation until" in mail.get_body(("plain",)).get_content()
    assert "is on vacation until" in mail.get_body(("html",)).get_content()


def test_the_settings_page_sets_quiet_hours_and_books_a_vacation(app, jack):
    page = jack.get("/me/schedule")
    assert page.status_code == 200 and "30 of your 30 days" in page.get_data(as_text=True)
    bad = jack.post_form("/me/schedule", "/me/schedule", {
        "action": "quiet", "quiet_start": "22:00", "quiet_end": "22:00"})
    assert bad.status_code == 422 and 'value="22:00"' in bad.get_data(as_text=True)
    ok = jack.post_form("/me/schedule", "/me/schedule", {
        "action": "quiet", "quiet_start": "22:30", "quiet_end": "07:00"})
    assert ok.status_code == 200 and "quiet hours are saved" in ok.get_data(as_text=True)
    assert 'value="22:30"' in ok.get_data(as_text=True)
    today = date.today()
    soon = jack.post_form("/me/schedule", "/me/schedule", {
        "action": "book", "first_day": today.isoformat(), "last_day": today.isoformat()})
    assert soon.status_code == 422
    assert "at least 24 hours" in soon.get_data(as_text=True)
    assert f'value="{today.isoformat()}"' in soon.get_data(as_text=True)
    first = today + timedelta(days=5)
    booked = jack.post_form("/me/schedule", "/me/schedule", {
        "action": "book", "first_day": first.isoformat(),
        "last_day": (first + timedelta(days=2)).isoformat()})
    assert booked.status_code == 200, booked.get_data(as_text=True)[:2000]
    assert f"{first:%B} {first.day}, {first.year} to" in booked.get_data(as_text=True)


def test_a_pause_agreed_by_the_mail_s_link_which_is_good_for_nothing_else(app, jack, dick,
                                                                         smtp_catcher):
    gid = new_game(jack, dick)
    jack.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "pause"})
    mail = [m for m in smtp_catcher.to(dick.email)
            if "asks to pause this game" in m.get_body(("plain",)).get_content()][-1]
    agree, _refuse = ANSWER.findall(mail.get_body(("plain",)).get_content())[:2]
    token = agree.rsplit("/", 1)[1]
    # Its signature is for answers only: as a decision link it is refused, changing nothing.
    assert dick.get(f"/games/{gid}/decide/{token}").status_code == 400
    # Another player's browser may open it, but it answers for Dick's seat only, once.
    shown = jack.get(path_of(agree))
    assert "Pause the game?" in shown.get_data(as_text=True)
    done = dick.client.post(path_of(agree), data={"csrf_token": csrf(dick.get(
        path_of(agree)).data)})
    assert "agreement is recorded" in done.get_data(as_text=True)
    assert "The game is paused" in jack.get(f"/games/{gid}").get_data(as_text=True)
    assert any("the game is paused" in m.get_body(("plain",)).get_content()
               for m in smtp_catcher.to(jack.email))


def test_a_vacation_is_shown_to_the_seated_players_only(app, jack, dick, lyndon):
    """A vacation is its player's own: their opponent sees it (their clock is stopped), a
    signed-in spectator following the public game and an anonymous visitor do not."""
    gid = new_game(jack, dick, public="on")
    assert lyndon.post_form(f"/games/{gid}", f"/games/{gid}/follow", {}).status_code in (
        200, 303)
    with Session(db_engine(app)) as session:
        user = session.exec(select(User).where(User.email == dick.email)).one()
        today = utcnow().date()
        vacations.book(session, user, today, today + timedelta(days=1),
                       utcnow() - timedelta(days=2))
    seen = jack.get(f"/games/{gid}").get_data(as_text=True)
    until = re.search(r"is on vacation until ([^:]+):", seen)
    assert until, seen[:300]
    anonymous = app.test_client().get(f"/games/{gid}")
    for page in (lyndon.get(f"/games/{gid}"), anonymous):
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        assert 'id="schedule"' in text   # the section is there: the clock's state is public
        assert "on vacation" not in text and until.group(1) not in text
