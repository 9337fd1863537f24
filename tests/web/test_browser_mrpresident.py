"""A few rounds of a three-player game of Mr. President (dial edition, popular vote) played in
real headless Chromium by three browser contexts, only through the pages: sign-in by the mailed
link, the lobby's Mr. President form, joining, starting, and every decision answered on the game
page's form (a random card, sometimes a second one; the answers to a two-card play, upsets and
stops). Each page shows the seat's own hand and no other, "N of 3 have committed" while a
sealed step waits, and never a traceback or a refusal. Screenshots in test-artifacts/."""

from __future__ import annotations

import random
import re

from sqlmodel import Session

from engine.games.mrpresident.data import CARDS
from server.models import Game
from server.services import games
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_browser_game import sign_in

ROUNDS = 4  # rounds to play through the pages
EMAILS = {"p1": "jack@example.org", "p2": "dick@example.org", "p3": "lyndon@example.org"}


def test_a_few_rounds_of_mr_president_in_three_browsers(tmp_path, api_db_url, smtp_catcher,
                                                        browser):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        db = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            contexts = {seat: browser.new_context() for seat in EMAILS}
            pages = {seat: ctx.new_page() for seat, ctx in contexts.items()}
            for seat, page in pages.items():
                sign_in(page, base, EMAILS[seat], smtp_catcher)

            jack = pages["p1"]
            jack.goto(base + "/")
            form = jack.locator("form#new-mrpresident")
            form.get_by_label("Candidates (players)").select_option("3")
            form.get_by_label(re.compile(r"Dial \(2nd edition\)")).check()
            assert form.locator('input[name="plurality"]').is_checked()
            assert form.locator("#mp-email-p1").input_value() == EMAILS["p1"]
            form.locator("#mp-email-p2").fill(EMAILS["p2"])
            form.locator("#mp-email-p3").fill(EMAILS["p3"])
            form.get_by_role("button", name="Create a Mr. President game").click()
            gid = int(re.search(r"/games/(\d+)", jack.url).group(1))
            for seat in ("p2", "p3"):
                pages[seat].goto(f"{base}/games/{gid}")
                pages[seat].get_by_role("button", name="Take my seat").click()
            jack.goto(f"{base}/games/{gid}")    # it began when the last seat was taken
            jack.wait_for_selector("#decision-h, #players")
            screenshot(jack, "mrpresident-01-started")

            rng, decisions, steps_seen = random.Random(5), 0, set()
            while True:
                state = _state(db, gid)
                if state.s["round"] > ROUNDS or not state.active():
                    break
                moved = False
                for seat, page in pages.items():
                    page.goto(f"{base}/games/{gid}")
                    html = page.content()
                    assert "Traceback" not in html
                    _check_hand(page, _state(db, gid), seat)
                    if not _answer(page, rng):
                        continue
                    page.wait_for_load_state()
                    assert "Refused" not in page.content(), page.content()[:3000]
                    steps_seen.add(state.top["step"])
                    decisions += 1
                    moved = True
                    now = _state(db, gid)
                    if len(now.active()) == 3 and now.top["step"] == "play":
                        # how many have sealed their cards (the last one starts a new round)
                        assert re.search(r"[0-2] of 3 have committed\.", page.content())
                    if decisions % 5 == 1:
                        screenshot(page, f"mrpresident-{decisions:02d}-{seat}")
                assert moved, "nobody has a decision, yet the game goes on"
            assert decisions >= 3 * ROUNDS and "play" in steps_seen
            jack.goto(f"{base}/games/{gid}")
            last = jack.locator("section[aria-labelledby=last-h]").inner_text()
            assert "thousand votes" in last or "tied for first place" in last
            screenshot(jack, "mrpresident-99-after-rounds")
            for ctx in contexts.values():
                ctx.close()


def _state(db, gid: int):
    with Session(db) as s:
        return games.whole_state(s, s.get(Game, gid))


def _check_hand(page, state, seat: str) -> None:
    """The one hand table on the page is the seat's own."""
    tables = page.locator("table.mp-hand")
    assert tables.count() == 1
    names = [n.strip() for n in tables.locator("tbody tr td:first-child").all_inner_texts()]
    assert names == [CARDS[c]["name"] for c in sorted(state.s["hands"][seat])], seat


def _answer(page, rng) -> bool:
    """Answer the page's decision form as a player would: a card and, now and then, a second
    one (or the answer the step asks for); False when the page asks nothing."""
    form = page.locator("form.decision-form")
    if form.count() == 0 or page.locator("details.replace").count():
        return False
    choices = form.locator('input[name="action"]')
    choice = choices.nth(rng.randrange(choices.count()))
    choice.check()
    seconds = form.locator('input[name="second_card"]')
    if seconds.count() and rng.random() < 0.3:
        first = choice.get_attribute("value").split()[1]
        others = [i for i in range(1, seconds.count())
                  if seconds.nth(i).get_attribute("value") != first]
        seconds.nth(rng.choice(others)).check()
    form.get_by_role("button", name="Send").click()
    return True
