"""Taking a move back in real headless Chromium on a phone (390x844): the move sent from the
game page's form, the page's "Take back" with the time left (fits the width, no serious or
critical axe finding), pressed, and the decision is the player's again (issue 27, item 3)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import delete

from server.models import StandingOrder
from tests.server.api.conftest import running_app
from tests.server.api.helpers import Store
from tests.server.api.test_retract import at_retractable
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, new_game
from tests.web.test_browser_game import sign_in

GRAVE = ("serious", "critical")


def retractable_game(app, catcher) -> tuple[Store, dict[str, Reader], int, str, str]:
    """Jack (Kennedy) and Dick (Nixon), signed in, in a started game in which no standing order
    answers for either seat, played on until a seat can make a move it may take back:
    (store, the readers by seat, game id, that seat, that move)."""
    store = Store(app.extensions["whistlestop.db"])
    jack = Reader(app, catcher, "jack@example.org")
    dick = Reader(app, catcher, "dick@example.org")
    jack.sign_in()
    dick.sign_in()
    gid = new_game(jack, dick)
    with store.session() as s:
        s.execute(delete(StandingOrder).where(StandingOrder.game_id == gid))
        s.commit()
    with app.app_context():  # the mails of the moves played on the way go to the catcher
        _state, seat, action = at_retractable(store, gid)
    return store, {"kennedy": jack, "nixon": dick}, gid, seat, action


def test_take_back_on_a_phone(tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        store, readers, gid, seat, action = retractable_game(app, smtp_catcher)
        step = store.game(gid).step
        email = readers[seat].email
        with LiveServer(app, port):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            sign_in(page, base, email, smtp_catcher)
            page.goto(f"{base}/games/{gid}")
            page.locator("details.notation summary").click()
            page.locator("#lines").fill(action)
            page.locator(".decision-form").get_by_role("button", name="Send").click()
            page.wait_for_selector("#take-back")
            assert store.game(gid).step == step + 1
            text = page.locator("#take-back").inner_text()
            assert "seconds left" in text and "has not seen it" in text
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert page.locator("#take-back button").bounding_box()["height"] >= 44
            found = [v["id"] for v in Axe().run(page).response["violations"]
                     if v["impact"] in GRAVE]
            assert found == []
            screenshot(page, "take-back-390")
            page.get_by_role("button", name="Take back").click()
            page.wait_for_selector("#retracted")
            assert page.title().startswith("▶")
            assert page.locator("#take-back").count() == 0
            assert store.game(gid).step == step + 2
            assert store.state(gid).active() == [seat]
            assert store.rebuild(gid)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            context.close()
