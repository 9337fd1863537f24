"""Unsubscribing never loses a game (issue 25, item 5), through the pages, the real SMTP catcher
and the mails' own List-Unsubscribe headers:

- a one-click on a decision mail takes the daily digest, never no mail: decisions (in the
  digest), reminders and deadline notices still come, and a mail, which carries no one-click
  header of its own, says what changed and how to undo it; a second post of the same click
  stops nothing more;
- a one-click on an informational mail stops that kind only, decisions still come;
- no mail at all is the signed-in user's choice only, and the page says the games then wait;
- a GET of the game page changes nothing; the page's POST (with its CSRF token) reaches the
  player, and a deadline that waited for them applies again; the opponent is told, by mail and
  on the page, that the player is not yet reached.
(The deadlines and the other channels: tests/mail/test_reached.py.)"""

from __future__ import annotations

import html
import random
import re
from datetime import timedelta

from sqlalchemy import func, update
from sqlmodel import Session, select

from server.mail import kinds
from server.models import AutoOrder, Game, MailSent, OutboxMessage, Seat, User, aware, utcnow
from server.services import deadlines, digests
from tests.web.browser import browser  # noqa: F401  (fixture)
from tests.web.pages_helpers import db_engine, path_of, pick_answer

HOUR = timedelta(hours=1)
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def body(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def start(app, store, jack, dick, *, seed: str = "a", **jack_settings) -> int:
    """A game of Jack (Kennedy, asked first with this seed) and Dick (Nixon), made on the
    pages; ``jack_settings``: Jack's User columns set before it starts."""
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": dick.email,
                                                "seat": "kennedy", "edition": "gmt",
                                                "start_by_hand": "on"})   # the seed set first
    assert answer.status_code == 303, answer.data[:800]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert dick.post_form(f"/games/{gid}", f"/games/{gid}/join", {}).status_code == 303
    store.set_seed(gid, seed)
    if jack_settings:
        with Session(store.engine) as s:
            s.execute(update(User).where(User.email == jack.email).values(**jack_settings))
            s.commit()
    assert jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {}).status_code == 303
    assert store.state(gid).active() == ["kennedy"]
    return gid


def user(store, email: str) -> User:
    with Session(store.engine) as s:
        found = s.exec(select(User).where(User.email == email)).one()
        s.expunge(found)
        return found


def mail_of(store, catcher, address: str, kind: str, gid: int | None = None):
    """The newest mail of ``kind`` the SMTP catcher got for ``address`` (by its Message-ID)."""
    with Session(store.engine) as s:
        query = select(MailSent.message_id).where(MailSent.address == address,
                                                  MailSent.kind == kind,
                                                  MailSent.status == "sent")
        if gid is not None:
            query = query.where(MailSent.game_id == gid)
        ids = s.exec(query.order_by(MailSent.id)).all()
    assert ids, f"no {kind} mail to {address}"
    (mail,) = [m for m in catcher.to(address) if m["Message-ID"] == ids[-1]]
    return mail


def one_click(app, mail):
    """What a mail client does with the mail's RFC 8058 headers."""
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = mail["List-Unsubscribe"].strip().strip("<>")
    return app.test_client().post(path_of(url), data=ONE_CLICK)


def seat_row(store, gid: int, seat: str) -> Seat:
    with Session(store.engine) as s:
        row = s.exec(select(Seat).where(Seat.game_id == gid, Seat.seat == seat)).one()
        s.expunge(row)
        return row


def ring(app, gid: int, at) -> str:
    """The deadline sweeper at ``at``, its mails sent inline (eager tasks, in the app)."""
    with app.app_context():
        return deadlines.ring(db_engine(app), gid, at)


def test_one_click_on_a_decision_mail_keeps_decisions_and_reminders(
        app, store, jack, dick, smtp_catcher):
    gid = start(app, store, jack, dick)
    decision = mail_of(store, smtp_catcher, jack.email, "your_decision", gid)
    before = len(smtp_catcher.to(jack.email))
    answer = one_click(app, decision)
    assert answer.status_code == 200 and 'data-changed="digest"' in text(answer)
    assert "one mail a day" in text(answer) and "A mail confirms it" in text(answer)
    assert 'id="unsubscribe"' not in text(answer)  # this mail's click is answered
    found = user(store, jack.email)
    assert (found.mail_mode, found.muted_kinds) == ("digest", [])  # never "none"
    # The confirmation: what changed, what still comes, how to undo; no one-click header.
    confirmation = smtp_catcher.wait_for_to(jack.email, before + 1)[-1]
    assert confirmation["Subject"] == "Your mail settings changed"
    assert confirmation["List-Unsubscribe"] is None
    assert confirmation["List-Unsubscribe-Post"] is None
    words = body(confirmation)
    assert "one mail a day" in words and "a reminder before each deadline" in words
    assert re.search(r"sign in and open your mail settings: https?://\S+/me/mail\s", words)
    # The same click posted again (mail clients retry) stops nothing more and mails nothing.
    count = len(smtp_catcher.to(jack.email))
    again = one_click(app, decision)
    assert again.status_code == 200 and 'data-changed="nothing"' in text(again)
    assert user(store, jack.email).mail_mode == "digest"
    assert len(smtp_catcher.to(jack.email)) == count
    # Decisions come in the digest, reminders and deadline notices as before.
    with app.app_context():
        assert digests.write_due(db_engine(app), utcnow(), 0) >= 1
    digest = mail_of(store, smtp_catcher, jack.email, "digest")
    assert f"/games/{gid}" in body(digest)
    game = store.game(gid)
    assert ring(app, gid, aware(game.alarm_at)) == "reminded"
    reminder = mail_of(store, smtp_catcher, jack.email, "reminder", gid)
    assert "Reminder" in body(reminder)
    # A one-click on the reminder (a needed mail too): the news stops, never the mail needed.
    before = len(smtp_catcher.to(jack.email))
    answer = one_click(app, reminder)
    assert 'data-changed="news"' in text(answer)
    found = user(store, jack.email)
    assert (found.mail_mode, found.muted_kinds) == ("digest", list(kinds.INFORMATIONAL))
    assert "the news of your games stops" in body(
        smtp_catcher.wait_for_to(jack.email, before + 1)[-1])
    # And on the digest: nothing is left that a mail's link may stop.
    assert 'data-changed="nothing"' in text(one_click(app, digest))
    assert user(store, jack.email).mail_mode == "digest"
    # The deadline: the decision mail reached Jack, so it applies, and he is told.
    assert seat_row(store, gid, "kennedy").reached_by == "mail"
    assert ring(app, gid, aware(store.game(gid).deadline_at)) == "defaulted"
    assert "deadline" in body(mail_of(store, smtp_catcher, jack.email, "deadline_passed", gid))


def test_one_click_on_an_informational_mail_stops_that_kind_only(
        app, store, jack, dick, smtp_catcher):
    # Jack's moves are not held (issue 27: a retractable move's mail waits for its hold).
    gid = start(app, store, jack, dick, retract_hold_seconds=0)
    news = mail_of(store, smtp_catcher, dick.email, "game_started", gid)
    before = len(smtp_catcher.to(dick.email))
    answer = one_click(app, news)
    assert 'data-changed="kind"' in text(answer) and "a game starts" in text(answer)
    found = user(store, dick.email)
    assert (found.mail_mode, found.muted_kinds) == ("every", ["game_started"])
    confirmation = smtp_catcher.wait_for_to(dick.email, before + 1)[-1]
    assert "no more mails when a game starts" in body(confirmation)
    # Dick's decisions still come: Jack plays on the page until Dick is asked.
    rng = random.Random(4)
    for _ in range(80):
        if "nixon" in store.state(gid).active():
            break
        fields = pick_answer(jack.get(f"/games/{gid}").data.decode(), rng)
        assert jack.post_form(f"/games/{gid}", f"/games/{gid}/order", fields
                              ).status_code == 303
    assert "nixon" in store.state(gid).active()
    assert mail_of(store, smtp_catcher, dick.email, "your_decision", gid)
    # A new game's start: mailed to Jack, not to Dick any more.
    other = start(app, store, jack, dick, seed="a")
    with Session(store.engine) as s:
        started = set(s.exec(select(MailSent.address).where(
            MailSent.game_id == other, MailSent.kind == "game_started")).all())
    assert started == {jack.email}


def test_no_mail_at_all_is_the_signed_in_users_choice_and_the_page_says_games_wait(
        app, store, jack, dick, smtp_catcher):
    start(app, store, jack, dick)
    newest = smtp_catcher.to(jack.email)[-1]
    link = path_of(newest["List-Unsubscribe"].strip().strip("<>"))
    client = app.test_client()
    page = text(client.get(link))
    assert 'value="none" disabled' in page  # a mail's link cannot choose it
    refused = client.post(link, data={"action": "settings", "mail_mode": "none"})
    assert refused.status_code == 403 and "Only you, signed in" in text(refused)
    assert user(store, jack.email).mail_mode == "every"
    chosen = jack.post_form("/me/mail", "/me/mail", {"action": "settings", "mail_mode": "none",
                                                     "locale": "en"})
    assert chosen.status_code == 200, text(chosen)
    assert user(store, jack.email).mail_mode == "none"
    page = text(chosen)
    assert 'id="no-mail-warning"' in page
    assert "Your games wait for their deadlines with no mail to you" in page


def test_news_mails_are_listed_and_a_mails_link_only_stops_more(
        app, store, jack, dick, smtp_catcher):
    start(app, store, jack, dick)
    answer = jack.post_form("/me/mail", "/me/mail", {
        "action": "settings", "mail_mode": "every", "locale": "en", "news_listed": "1",
        "news": ["game_over", "invitation"]})
    assert answer.status_code == 200, text(answer)
    assert user(store, jack.email).muted_kinds == [
        k for k in kinds.INFORMATIONAL if k not in ("game_over", "invitation")]
    # The newest mail's link may stop more, never bring one back.
    newest = smtp_catcher.to(jack.email)[-1]
    link = path_of(newest["List-Unsubscribe"].strip().strip("<>"))
    client = app.test_client()
    assert client.post(link, data={"action": "settings", "news_listed": "1",
                                   "news": ["game_over", "invitation", "game_started"]}
                       ).status_code == 403
    assert client.post(link, data={"action": "settings", "news_listed": "1",
                                   "news": ["invitation"]}).status_code == 200
    assert "game_over" in user(store, jack.email).muted_kinds
    # Signed in, every one comes back.
    jack.post_form("/me/mail", "/me/mail", {"action": "settings", "news_listed": "1",
                                            "news": list(kinds.INFORMATIONAL)})
    assert user(store, jack.email).muted_kinds == []


def snapshot(store, gid: int) -> tuple:
    with Session(store.engine) as s:
        game = s.get(Game, gid)
        seats = s.exec(select(Seat.seat, Seat.reached_step, Seat.reached_at, Seat.reached_by,
                              Seat.waited_step).where(Seat.game_id == gid)
                       .order_by(Seat.id)).all()
        outbox = s.exec(select(func.count()).select_from(OutboxMessage)).one()
        return (game.step, game.alarm_at, game.deadline_at, game.updated_at, tuple(seats),
                outbox)


def test_a_get_of_the_game_page_changes_nothing(app, store, jack, dick, smtp_catcher):
    gid = start(app, store, jack, dick, mail_mode="none")
    before = snapshot(store, gid)
    for reader in (jack, dick, jack):
        page = reader.get(f"/games/{gid}").data.decode()
        assert f"/games/{gid}/seen" in page  # the page's own POST tells that it was seen
        assert reader.get(f"/games/{gid}/version").status_code == 200
    assert snapshot(store, gid) == before
    assert seat_row(store, gid, "kennedy").reached_step is None


def test_the_page_view_reaches_the_player_and_the_deadline_then_applies(
        app, store, jack, dick, smtp_catcher):
    gid = start(app, store, jack, dick, mail_mode="none")  # Jack, asked, takes no mail
    game = store.game(gid)
    deadline, step = aware(game.deadline_at), game.step
    assert seat_row(store, gid, "kennedy").reached_step is None
    assert ring(app, gid, deadline) == "waiting"
    assert store.game(gid).step == step
    # Dick is told, once, by mail and on the game page; Jack's own page does not say it.
    told = mail_of(store, smtp_catcher, dick.email, "not_reached", gid)
    assert "Not yet reached" in body(told) and "Kennedy" in body(told)
    assert 'id="not-reached"' in dick.get(f"/games/{gid}").data.decode()
    assert 'id="not-reached"' not in jack.get(f"/games/{gid}").data.decode()
    # The API's game says it too (a public game: any visitor may read it).
    with Session(store.engine) as s:
        s.execute(update(Game).where(Game.id == gid).values(public=True))
        s.commit()
    visitor = app.test_client()
    assert visitor.get(f"/api/v1/games/{gid}").get_json()["not_reached"] == ["kennedy"]
    assert ring(app, gid, deadline + HOUR) == "waiting"
    with Session(store.engine) as s:
        assert s.exec(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.kind == "not_reached")).one() == 1
    # The page's POST without the page's CSRF token is refused, and reaches nobody.
    assert jack.client.post(f"/games/{gid}/seen", data={"step": str(step)}).status_code == 400
    assert seat_row(store, gid, "kennedy").reached_step is None
    seen = jack.post_form(f"/games/{gid}", f"/games/{gid}/seen", {"step": str(step)})
    assert seen.status_code == 204
    row = seat_row(store, gid, "kennedy")
    assert (row.reached_step, row.reached_by) == (step, "page")
    # Reached now: the deadline applies again (the grace from the reach, on the real clock,
    # is long over at this test's clock).
    assert ring(app, gid, deadline + 2 * HOUR) == "defaulted"
    with Session(store.engine) as s:
        auto = s.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all()
    assert [(a.seat, a.source) for a in auto] == [("kennedy", "default")]
    assert 'id="not-reached"' not in dick.get(f"/games/{gid}").data.decode()
    assert visitor.get(f"/api/v1/games/{gid}").get_json()["not_reached"] == []


def test_the_page_in_a_real_browser_tells_that_it_was_seen(tmp_path, api_db_url, smtp_catcher,
                                                           browser):  # noqa: F811
    """The page's own script (sendBeacon, the page's CSRF token, the server's CSP) records the
    view in real Chromium; the GET alone did not."""
    import time

    from server.services import games
    from tests.server.api.conftest import running_app
    from tests.services import free_port
    from tests.web.browser import LiveServer
    from tests.web.test_browser_game import sign_in

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            page = browser.new_context().new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            with app.app_context(), Session(engine) as s:
                s.execute(update(User).values(mail_mode="none"))  # no mail reaches Jack
                dick = User(email="dick@example.org", display_name="Dick")
                s.add(dick)
                s.commit()
                jack = s.exec(select(User).where(User.email == "jack@example.org")).one()
                gid = games.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": dick.id},
                                        seed="a").id
            with Session(engine) as s:
                seat = s.exec(select(Seat).where(Seat.game_id == gid,
                                                 Seat.seat == "kennedy")).one()
                assert seat.reached_step is None
            page.goto(f"{base}/games/{gid}")
            end = time.monotonic() + 15
            while time.monotonic() < end:
                with Session(engine) as s:
                    seat = s.exec(select(Seat).where(Seat.game_id == gid,
                                                     Seat.seat == "kennedy")).one()
                    game = s.get(Game, gid)
                if seat.reached_step is not None:
                    break
                time.sleep(0.1)
            assert (seat.reached_step, seat.reached_by) == (game.step, "page")
