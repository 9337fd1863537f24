"""The settings page of quiet hours and vacations in real Chromium at 390x844: quiet hours set
and a vacation booked with the keyboard and the page's own fields, the page fits the phone, its
buttons are tap-sized, and axe finds no serious or critical violation."""

from __future__ import annotations

from datetime import date, timedelta

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import QuietHours, User, Vacation
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, problems


def test_quiet_hours_and_a_vacation_on_a_phone(tmp_path, api_db_url, smtp_catcher,
                                               browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    email = "kim@example.org"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"], timezone_id="UTC")
            page = context.new_page()
            sign_in(page, base, email, smtp_catcher)
            page.goto(f"{base}/me/mail")
            page.get_by_role("link", name="Vacations and quiet hours").click()
            page.wait_for_selector("#quiet-h")
            found = problems(page, Axe(), "schedule settings [phone]")

            page.get_by_label("From").fill("22:30")
            page.get_by_label("until").fill("07:00")
            page.get_by_role("button", name="Save quiet hours").click()
            page.wait_for_selector("text=Your quiet hours are saved")

            first = date.today() + timedelta(days=5)
            page.get_by_label("First day away").fill(first.isoformat())
            page.get_by_label("Last day away").fill((first + timedelta(days=2)).isoformat())
            page.get_by_label("Last day away").press("Enter")  # the keyboard sends the form
            page.wait_for_selector("text=Your vacation is booked")
            assert "27 of your 30 days" in page.locator("#allowance").inner_text() or \
                first.year != date.today().year
            found += problems(page, Axe(), "schedule settings, booked [phone]")
            taps = page.evaluate("""() => [...document.querySelectorAll('body button')]
                .filter(b => b.getBoundingClientRect().height > 0)
                .map(b => b.getBoundingClientRect().height)""")
            screenshot(page, "schedule-settings-390")
            context.close()
        with Session(engine) as s:
            user = s.exec(select(User).where(User.email == email)).one()
            quiet = s.get(QuietHours, user.id)
            assert (quiet.start, quiet.end) == ("22:30", "07:00")
            assert [v.days for v in s.exec(select(Vacation)).all()] == [3]
    assert not found, "\n".join(found)
    assert taps and min(taps) >= 44, taps
