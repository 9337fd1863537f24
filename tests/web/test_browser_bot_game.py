"""A whole game of 1960 against the random bot, played through the pages on a phone (390x844)
in real headless Chromium (issue 26's "Must show"): created from the lobby's form, every
decision answered on the game page with a random legal choice, the first ones with the keyboard
alone (Tab, the arrow keys, Space, typing and Enter: no click), and every game page as wide as
the phone, no wider. The bot answers by its task (Celery runs eagerly here)."""

from __future__ import annotations

import random
import re

from sqlmodel import Session

from server.models import Game
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import pick_answer
from tests.web.test_browser_game import fill, sign_in

PHONE = {"width": 390, "height": 844}
MAX_DECISIONS = 2000
BY_KEYBOARD = 6  # decisions answered with the keyboard alone, the first of each kind first
MAX_TABS = 600

# Which of the form's fields has the focus now: its name and value, or the button's text.
FOCUSED = """() => { const e = document.activeElement;
  return e ? [e.tagName, e.getAttribute('name') || '', e.value || '', e.type || '',
              (e.textContent || '').trim()] : null; }"""


def tab_to(page, want) -> None:
    """Press Tab until ``want(focused)`` holds for the focused element (FOCUSED's list)."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if want(page.evaluate(FOCUSED)):
            return
    raise AssertionError("the keyboard never reached the field")


def by_keyboard(page, fields: dict) -> None:
    """Answer the decision form with the keyboard only: each field reached by Tab (a radio
    group's choice then by the arrow keys, which also select it), boxes ticked with Space,
    numbers typed, and the form sent from its Send button with Enter."""
    for name, value in fields.items():
        if name == "step":
            continue
        if name == "action":
            tab_to(page, lambda f: f and f[1] == "action")
            for _ in range(MAX_TABS):
                if page.evaluate(FOCUSED)[2] == value:
                    break
                page.keyboard.press("ArrowDown")
            assert page.evaluate(FOCUSED)[2] == value
            page.keyboard.press("Space")  # the group's first choice is focused, not chosen
            assert page.locator(f'input[name="action"][value="{value}"]').is_checked()
        elif name == "card":
            for card in value:
                tab_to(page, lambda f, c=card: f and f[1] == "card" and f[2] == str(c))
                page.keyboard.press("Space")
        elif name == "stop":
            tab_to(page, lambda f: f and f[1] == "stop")
            page.keyboard.press("Space")
        else:
            tab_to(page, lambda f, n=name: f and f[1] == n)
            page.keyboard.press("Control+A")
            page.keyboard.type(str(value))
    tab_to(page, lambda f: f and f[0] == "BUTTON" and f[4] == "Send")
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_whole_game_against_a_bot_on_a_phone_some_moves_by_keyboard(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            page = browser.new_context(viewport=PHONE).new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            page.goto(base + "/")
            new_1960 = page.get_by_role("form",
                                        name="New game of 1960: The Making of the President")
            new_1960.get_by_label("Your opponent", exact=True).select_option("random")
            new_1960.get_by_role("button", name="Create the game").click()
            gid = int(re.search(r"/games/(\d+)", page.url).group(1))
            page.get_by_role("button", name="Start the game").click()

            rng, decisions, keyed, kinds, waits = random.Random(26), 0, 0, set(), 0
            while decisions < MAX_DECISIONS:
                with Session(engine) as s:
                    status = s.get(Game, gid).status
                if status == "finished":
                    break
                page.goto(f"{base}/games/{gid}")
                html = page.content()
                assert "Traceback" not in html
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= PHONE["width"], f"the game page is {wide} px wide"
                fields = pick_answer(html, rng)
                if fields is None:
                    forced = page.get_by_role("button", name="Go on")
                    if forced.count():
                        forced.click()
                        decisions += 1
                        continue
                    waits += 1  # the bot's task has not answered yet
                    assert waits < 100, "nothing to decide, and the bot does not move"
                    page.wait_for_timeout(100)
                    continue
                kind = re.search(r'data-kind="(\w+)"', html).group(1)
                if keyed < BY_KEYBOARD and (kind not in kinds or keyed >= 3):
                    by_keyboard(page, fields)
                    keyed += 1
                else:
                    fill(page.locator("form.decision-form"), fields)
                kinds.add(kind)
                page.wait_for_load_state()
                assert "Refused" not in page.content(), page.content()[:3000]
                decisions += 1
            assert status == "finished", f"not over after {decisions} decisions"
            assert keyed == BY_KEYBOARD
            page.goto(f"{base}/games/{gid}")
            assert "Game over" in page.content()
            screenshot(page, "phone-bot-game-over")
