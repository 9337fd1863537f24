"""The browser's time zone, in real headless Chromium set to Tokyo: the sign-in page's script
reads it and the new account takes it when the link is used; the settings page shows it, fits a
phone's 390 px, and changes it to Madrid."""

from __future__ import annotations

from sqlmodel import Session, select

from server.models import User
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_browser_game import sign_in


def test_a_browser_in_tokyo_signs_in_and_moves_to_madrid(tmp_path, api_db_url, smtp_catcher,
                                                         browser):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    email = "kim@example.org"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]

        def zone() -> str:
            with Session(engine) as s:
                return s.exec(select(User.time_zone).where(User.email == email)).one()

        with LiveServer(app, port):
            context = browser.new_context(timezone_id="Asia/Tokyo",
                                          viewport={"width": 390, "height": 844})
            page = context.new_page()
            sign_in(page, base, email, smtp_catcher)
            assert zone() == "Asia/Tokyo"

            page.goto(f"{base}/me/mail")
            field = page.get_by_label("Time zone of the times in your mails and pages:")
            assert field.input_value() == "Asia/Tokyo"
            assert "UTC+09:00" in page.locator("#time-now").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            screenshot(page, "time-zone-settings-390")

            field.fill("Europe/Madrid")
            page.get_by_role("button", name="Save", exact=True).click()
            page.wait_for_selector("#notice")
            assert zone() == "Europe/Madrid"
            assert "UTC+0" in page.locator("#time-now").inner_text()
            context.close()
