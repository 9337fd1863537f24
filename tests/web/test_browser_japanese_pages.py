"""Issue 27's pages and mails as a Japanese reader sees them, in real headless Chromium on a
390x844 phone (Noto CJK fonts): the game page with its table talk, private notes and section of
the game's clock (the opponent away, a pause asked, more time asked), the settings page of
quiet hours and vacations, the ladder and a player's page, "Your data", the result page with a
rematch offered, and the mails of them (table talk, a pause asked, more time asked, a rematch
offered; Jack reads Japanese too). Each fits the phone with no serious or critical axe finding
and shows no English sentence of ours; the mails of a finished game say nothing of a vacation.
Full-page screenshots: test-artifacts/screenshots/ja-*.png."""

from __future__ import annotations

import re
from datetime import date, timedelta

from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, Seat, User, utcnow
from server.services import clock, quiet_hours, vacations
from tests.mail.test_mail_on_a_phone import MEASURE as MAIL_MEASURE
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, reveal, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import SIGN_IN_LINK, Reader, new_game
from tests.web.test_page_sweep import VIEWPORTS, problems

JACK, MICHIKO = "jack@example.org", "michiko@example.org"
JA_LINE = "よろしくお願いします。序盤は東部から回ります。"
JA_NOTE = "ニクソン：オハイオとカリフォルニアを固める。討論カードは温存。"
# Three English words in a row: a sentence of ours left untranslated. What a player typed
# (Jack's English line) is taken out first.
ENGLISH = re.compile(r"\b[A-Za-z][a-z']+(?:[ ,]+[A-Za-z][a-z']+){2,}\b")
THEIRS = ("Good luck, Michiko!",)


def english_left(text: str) -> list[str]:
    for words in THEIRS:
        text = text.replace(words, "")
    return ENGLISH.findall(text)


def _seat_holder(session, gid: int, seat: str) -> str:
    return session.exec(select(User.email).join(Seat, Seat.user_id == User.id)
                        .where(Seat.game_id == gid, Seat.seat == seat)).one()


def test_issue_27_pages_and_mails_in_japanese_on_a_phone(tmp_path, api_db_url, smtp_catcher,
                                                        browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    axe, found, english = Axe(), [], {}
    with running_app(tmp_path, api_db_url) as app:
        app.config.update(BASE_URL=base, CHAT_MAIL_DELAY_SECONDS=0)
        engine = app.extensions["whistlestop.db"]
        jack, michiko = Reader(app, smtp_catcher, JACK), Reader(app, smtp_catcher, MICHIKO)
        jack.sign_in()
        michiko.sign_in()
        with Session(engine) as s:
            s.execute(update(User).values(locale="ja", time_zone="Asia/Tokyo"))   # both
            s.commit()
            ids = {u.email: u.id for u in s.exec(select(User)).all()}

        # A game in play: Jack away on vacation, table talk both ways, Michiko's notes, a
        # pause asked by Jack and more time asked by a player who owes the decision.
        gid = new_game(jack, michiko)                         # Jack Kennedy, Michiko Nixon
        with Session(engine) as s:
            long_ago = utcnow() - timedelta(days=5)
            vacations.book(s, s.get(User, ids[JACK]), date.today() - timedelta(days=1),
                           date.today() + timedelta(days=3), long_ago)
            quiet_hours.set_hours(s, ids[MICHIKO], "23:00", "07:30")
            vacations.book(s, s.get(User, ids[MICHIKO]), date.today() + timedelta(days=20),
                           date.today() + timedelta(days=24), utcnow())
            s.commit()
        for reader, line in ((jack, "Good luck, Michiko!"), (michiko, JA_LINE)):
            said = reader.post_form(f"/games/{gid}", f"/games/{gid}/chat", {"body": line})
            assert said.status_code == 303, said.data[:500]
        saved = michiko.post_form(f"/games/{gid}", f"/games/{gid}/notes", {"notes": JA_NOTE})
        assert saved.status_code == 303, saved.data[:500]
        asked = jack.post_form(f"/games/{gid}", f"/games/{gid}/schedule", {"schedule": "pause"})
        assert asked.status_code == 303
        with Session(engine) as s:
            owing = _seat_holder(s, gid, clock.owing_now(s, s.get(Game, gid))[0])
        asker = jack if owing == JACK else michiko
        asked = asker.post_form(f"/games/{gid}", f"/games/{gid}/schedule",
                                {"schedule": "extension"})
        assert asked.status_code == 303

        # A finished game (Jack resigned) with a rematch Jack offers.
        over = new_game(jack, michiko)
        resigned = jack.post_form(f"/games/{over}", f"/games/{over}/resign", {"confirm": "yes"})
        assert resigned.status_code in (200, 303)
        offered = jack.post_form(f"/games/{over}/result", f"/games/{over}/rematch",
                                 {"action": "offer", "swap": "swap"})
        assert offered.status_code == 303
        made_feed = michiko.post_form("/me/data", "/me/calendar", {})
        assert made_feed.status_code in (200, 303)

        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"], locale="ja-JP",
                                          timezone_id="Asia/Tokyo")
            page = context.new_page()
            sign_in_ja(page, base, michiko)
            for path, name in ((f"/games/{gid}", "game-chat-notes-schedule"),
                               ("/me/schedule", "schedule-settings"),
                               ("/ladder/tmotp", "ladder"),
                               (f"/players/{ids[MICHIKO]}", "player-ratings"),
                               ("/me/data", "your-data"),
                               (f"/games/{over}/result", "result-rematch-offer")):
                answer = page.goto(base + path)
                assert answer.status == 200, (path, answer.status)
                assert page.evaluate("document.documentElement.lang") == "ja", path
                found += problems(page, axe, f"{name} [ja]")
                english[name] = english_left(page.locator("main").inner_text())
                screenshot(page, f"ja-{name}")
            page.goto(f"{base}/games/{gid}")
            for section in ("#chat-more", "#schedule-more", "#notes-more"):  # one tap away
                if page.locator(section).count() and not page.locator(section).evaluate(
                        "d => d.open"):
                    page.locator(f"{section} > summary").click()
            game_text = page.locator("main").inner_text()
            for part in (JA_LINE, "休暇", "中断"):
                assert part in game_text, part
            assert page.locator("#notes-text").input_value() == JA_NOTE

            # The mails they received of them, as a phone shows them (more time is asked of
            # the player who does not owe the decision).
            other = MICHIKO if asker is jack else JACK
            mails = {"table_talk": _mail(smtp_catcher, MICHIKO, "/games/%d#table-talk" % gid),
                     "pause": _mail(smtp_catcher, MICHIKO, "中断を求めています"),
                     "extension": _mail(smtp_catcher, other, "時間を求めています"),
                     "rematch": _mail(smtp_catcher, MICHIKO, "再戦を申し込んでいます")}
            # Jack is away: the mails of the game in play say so, not those of the one over.
            assert "休暇中" in mails["pause"] and "休暇中" not in mails["rematch"]
            for kind, html in mails.items():
                page.set_content(html)
                fit = page.evaluate(MAIL_MEASURE)
                if fit["scroll"] > fit["width"] or fit["wide"] or fit["small"]:
                    found.append(f"mail {kind} [ja]: {fit['wide'][:3]} {fit['small'][:3]}")
                english[f"mail-{kind}"] = english_left(page.locator("body").inner_text())
                screenshot(page, f"ja-mail-{kind}")
            context.close()
    assert found == [], "\n".join(found)
    assert not any(english.values()), english


def _mail(catcher, address: str, words: str) -> str:
    """The HTML of the newest mail to ``address`` whose text or HTML has ``words``."""
    for mail in reversed(catcher.to(address)):
        html = mail.get_body(("html",)).get_content()
        if words in html or words in mail.get_body(("plain",)).get_content():
            return html
    raise AssertionError(f"no mail to {address} with {words!r}")


def sign_in_ja(page, base: str, reader: Reader) -> None:
    """Sign in by the mailed link on Japanese pages (the helper of the English tests reads the
    English words)."""
    catcher, email = reader.catcher, reader.email
    before = len(catcher.to(email))
    page.goto(f"{base}/sign-in")
    page.locator('input[type="email"]').fill(email)
    page.locator('form button[type="submit"]').first.click()
    mail = catcher.wait_for_to(email, before + 1)[-1]
    link = SIGN_IN_LINK.search(mail.get_body(("plain",)).get_content())
    page.goto(link.group(1))
    page.locator('form button[type="submit"]').first.click()
    page.wait_for_load_state()
    assert email in page.content()
