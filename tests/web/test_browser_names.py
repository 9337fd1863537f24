"""Issue 47 item 3 in real Chromium on a 390x844 phone: a newcomer types a display name on the
sign-in link's page (a refused one comes back with the reason and what was typed), is signed in
under it, finds the ladder in the header and the name on the settings page; the pages pass axe
and fit the phone."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401
from tests.web.pages_helpers import SIGN_IN_LINK
from tests.web.test_page_sweep import problems


def test_a_newcomer_names_themselves_on_a_phone(tmp_path, api_db_url, smtp_catcher, browser,
                                                 monkeypatch):
    monkeypatch.setenv("WHISTLESTOP_MAIL_SMTP_PORT", str(smtp_catcher.port))
    email = "erin@example.org"
    with running_app(tmp_path, api_db_url) as app:
        port = free_port()
        app.config["BASE_URL"] = f"http://127.0.0.1:{port}"
        axe, found = Axe(), []
        with LiveServer(app, port) as server:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(f"{server.url}/sign-in")
            page.get_by_label("Your email address").fill(email)
            page.get_by_role("button", name="Send me a sign-in link").click()
            page.wait_for_selector("text=Check your mail")
            mail = smtp_catcher.wait_for_to(email, 1)[-1]
            text = mail.get_body(("plain",)).get_content()
            assert text.lstrip().startswith("Player ") and "erin," not in text
            page.goto(SIGN_IN_LINK.search(text).group(1))
            field = page.get_by_label("Display name (optional):")
            field.fill("erin@home")
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_selector("#name-refusal")
            assert "link or an address" in page.inner_text("#name-refusal")
            assert page.get_by_label("Display name (optional):").input_value() == "erin@home"
            found += problems(page, axe, "sign-in refused name")
            screenshot(page, "sign-in-name-refused-phone")
            page.get_by_label("Display name (optional):").fill("Erin Hale")
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_selector(f"text=Signed in as {email}")
            page.get_by_role("link", name="Ladder").click()
            page.wait_for_selector("#scale-h")
            found += problems(page, axe, "ladder")
            page.get_by_role("link", name="Settings").click()
            page.wait_for_selector("#shown-name")
            assert "“Erin Hale”" in page.inner_text("#shown-name")
            assert page.get_by_label("Display name (optional):").input_value() == "Erin Hale"
            found += problems(page, axe, "settings")
            screenshot(page, "settings-name-phone")
            page.get_by_role("link", name="Why these rules?").click()
            page.wait_for_selector("#names-help")
            found += problems(page, axe, "help names")
            context.close()
    assert found == []
