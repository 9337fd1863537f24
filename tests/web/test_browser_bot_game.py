"""A whole game of 1960 against the random bot, played through the pages on a phone (390x844)
in real headless Chromium (issue 26's "Must show"): created from the lobby's form, every
decision answered on the game page with a random legal choice, the first of each kind of form
and every forced "Go on" with the keyboard alone (Tab, the arrow keys, Space, typing and Enter:
no click; tests/web/keyboard.py), each field reached showing its focus, and every game page as
wide as the phone, no wider. The bot answers by its task (Celery runs eagerly here)."""

from __future__ import annotations

import random
import re

from sqlmodel import Session

from server.models import Game
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.keyboard import by_keyboard, new_game_against_a_bot, press
from tests.web.pages_helpers import pick_answer
from tests.web.test_browser_game import fill, sign_in

PHONE = {"width": 390, "height": 844}
MAX_DECISIONS = 2000
# The game's seed, the same game every time (with the bot's and the test's random choices): one
# whose game shows every kind of 1960's form (server/games/tmotp/forms.py); another engine may
# need another seed.
SEED = "e"
KINDS = {"activity", "campaigning", "placement", "positioning", "advertising", "card", "cards",
         "picks", "choices"}


def test_a_whole_game_against_a_bot_on_a_phone_each_kind_of_form_by_keyboard(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            page = browser.new_context(viewport=PHONE).new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            # asked about the opponent's events too: the forms about one card
            gid = new_game_against_a_bot(page, base, engine, SEED, ask_triggers=True)

            rng, decisions, waits = random.Random(26), 0, 0
            kinds, keyed, forced_keyed = set(), set(), 0
            fresh = False  # the page is the game page as the last answer left it
            while decisions < MAX_DECISIONS:
                with Session(engine) as s:
                    status = s.get(Game, gid).status
                if status == "finished":
                    break
                if not fresh:
                    page.goto(f"{base}/games/{gid}")
                fresh = False
                html = page.content()
                assert "Traceback" not in html
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= PHONE["width"], f"the game page is {wide} px wide"
                fields = pick_answer(html, rng)
                if fields is None:
                    if page.get_by_role("button", name="Go on").count():
                        press(page, "Go on")  # Tab to it, Enter
                        forced_keyed += 1
                        decisions += 1
                        fresh = True
                        continue
                    waits += 1  # the bot's task has not answered yet
                    assert waits < 100, "nothing to decide, and the bot does not move"
                    page.wait_for_timeout(100)
                    continue
                kind = re.search(r'data-kind="(\w+)"', html).group(1)
                if kind not in keyed:
                    by_keyboard(page, fields, shown=True)
                    keyed.add(kind)
                else:
                    fill(page.locator("form.decision-form"), fields)
                kinds.add(kind)
                page.wait_for_load_state()
                assert "Refused" not in page.content(), page.content()[:3000]
                decisions += 1
                fresh = True
            assert status == "finished", f"not over after {decisions} decisions"
            assert keyed == kinds, (keyed, kinds)
            print(f"{decisions} decisions; kinds keyed: {sorted(keyed)}; "
                  f"forced choices keyed: {forced_keyed}")
            assert keyed == KINDS, f"kinds keyed: {sorted(keyed)}"
            page.goto(f"{base}/games/{gid}")
            assert "Game over" in page.content()
            screenshot(page, "phone-bot-game-over")
