"""A finished public game's replay in real headless Chromium: the arrow keys follow the
Previous and Next links (a small inline script; the links work without it), but not while the
position field has the focus; the printable result in print media. Screenshots are kept in
test-artifacts/screenshots/."""

from __future__ import annotations

import random
import re

from sqlalchemy import update
from sqlmodel import Session

from server.models import Game
from tests.server.api.conftest import running_app
from tests.server.test_fairness import new_game, play
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)


def test_the_arrow_keys_step_through_a_replay(tmp_path, api_db_url, browser):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as session:
            gid = new_game(session, "browser-replay")
            play(session, gid, random.Random(3))
            session.execute(update(Game).where(Game.id == gid).values(public=True))
            session.commit()
        with LiveServer(app, port):
            page = browser.new_context().new_page()
            page.goto(f"{base}/games/{gid}/replay?at=40")
            position = page.locator("#position")
            assert re.fullmatch(r"Position 40 of \d+", position.inner_text())
            page.keyboard.press("ArrowRight")
            page.wait_for_url(re.compile(r"at=41$"))
            assert position.inner_text().startswith("Position 41 of")
            screenshot(page, "replay-41")
            page.keyboard.press("ArrowLeft")
            page.wait_for_url(re.compile(r"at=40$"))
            # In the number field the arrows are the field's own: no page change.
            page.get_by_label("Go to position").focus()
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(300)
            assert page.url.endswith("at=40")
            page.get_by_label("Go to position").fill("7")
            page.get_by_role("button", name="Go").click()
            page.wait_for_url(re.compile(r"at=7$"))
            page.get_by_role("link", name="Last").click()
            assert "Traceback" not in page.content()
            assert page.get_by_role("link", name=re.compile("^Next")).count() == 0
            page.goto(f"{base}/games/{gid}/result")
            page.emulate_media(media="print")
            screenshot(page, "result-print")
