"""Private notes in real headless Chromium on a 390x844 phone: the player types a note on the
game page, saves it with the keyboard alone (Tab to Save, Enter), and the page comes back with
the note and the confirmation; the game page and the "Your data" page fit the phone with no
serious or critical finding of axe-core. The other seat's page never shows the note."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, reveal, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, new_game
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import problems

NOTE = "Save the Debate cards.\nDick looks weak in <Ohio> & the West?"


def test_a_player_saves_a_note_on_a_phone(tmp_path, api_db_url, smtp_catcher, browser):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        jack, dick = (Reader(app, smtp_catcher, f"{n}@example.org") for n in ("jack", "dick"))
        jack.sign_in()
        dick.sign_in()
        gid = new_game(jack, dick)
        with LiveServer(app, port):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            page.goto(f"{base}/games/{gid}")
            field = page.get_by_label("Private notes: only you ever see them, here and in the "
                                      "replay after the end.")
            reveal(field).fill(NOTE)
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.textContent") == "Save my notes"
            page.keyboard.press("Enter")
            page.wait_for_selector("text=Your notes are saved.")
            assert "?notes=saved" in page.url
            assert page.locator("#notes-text").input_value() == NOTE
            assert "Last saved" in page.locator("#notes-help").inner_text()
            screenshot(page, "notes-390")
            axe = Axe()
            found = problems(page, axe, "game page with notes")
            page.goto(f"{base}/me/data")
            page.get_by_role("button", name="Make my calendar address").click()
            page.wait_for_selector("#feed-url")
            found += problems(page, axe, "your data")
            assert found == []
            context.close()
        assert "Dick looks weak" not in dick.get(f"/games/{gid}").get_data(as_text=True)
