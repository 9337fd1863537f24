"""A move its mover may still take back, as the next player's game page shows it in real
headless Chromium on a 390x844 phone, in English and in Japanese (issue 27;
services/held_view.py, templates/web/_game_base.html ``#held``): the notice "X has made a
move; they may take it back until ..." and its "Show the move now" button fit the phone (no
sideways scroll, the button at least 44 px tall) with no serious or critical axe finding.
Without scripts the page keeps the move hidden until the button is pressed; pressed, the move
is shown and final: the mover's take back is refused. With scripts the page in view shows the
move at once, and it is final too. Screenshots: test-artifacts/screenshots/held-*.png."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import update

from server.models import User
from tests.server.api.conftest import running_app
from tests.server.api.helpers import other
from tests.services import free_port
from tests.web.browser import ARTIFACTS, LiveServer, browser, screenshot  # noqa: F401
from tests.web.pages_helpers import Reader
from tests.web.test_browser_japanese_pages import sign_in_ja
from tests.web.test_browser_take_back import retractable_game
from tests.web.test_page_sweep import VIEWPORTS, problems

PHONE = VIEWPORTS["phone"]
TAP = 44  # px, the smallest height of a button a finger presses
# The reader's language: the browser's and the account's, the zone, and the page's words.
LOCALES = {
    "en": {"browser": "en-US", "zone": "UTC", "made": "has made a move",
           "show": "Show the move now", "seen": "the next player has already seen it"},
    "ja": {"browser": "ja-JP", "zone": "Asia/Tokyo", "made": "が手を打ちました",
           "show": "今すぐその手を見る",
           "seen": "次のプレイヤーがすでに見ています"},
}
SCRIPT = re.compile(r"<script\b.*?</script>", re.S | re.I)
NOSCRIPT = re.compile(r"</?noscript>", re.I)
# Where the notice and its button are, and what of the page passes the viewport's width.
MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, right: r.right, height: r.height}; };
  return {width: document.documentElement.clientWidth,
          scroll: document.documentElement.scrollWidth,
          notice: box(document.getElementById('held')),
          button: box(document.querySelector('#show-move button'))};
}"""


@contextmanager
def held_move(tmp_path, api_db_url, smtp_catcher, browser, lang: str,  # noqa: F811
              scripts: bool):
    """A game whose mover can take their next move back, and the next player signed in to a
    phone-sized browser in ``lang`` (with or without scripts). Yields (store, base URL, game
    id, the mover's test client, the next player's page, make_the_move) where make_the_move()
    plays the mover's move and returns the step it led to."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        store, readers, gid, seat, action = retractable_game(app, smtp_catcher)
        with store.session() as s:  # a hold long enough for a slow machine
            s.execute(update(User).values(locale=lang, time_zone=LOCALES[lang]["zone"],
                                          retract_hold_seconds=900))
            s.commit()
        mover, viewer = readers[seat], readers[other(seat)]

        def make_the_move() -> int:
            step = store.game(gid).step
            moved = mover.post_form(f"/games/{gid}", f"/games/{gid}/order",
                                    {"step": str(step), "lines": action})
            assert moved.status_code == 303, moved.data[:800]
            assert store.game(gid).step == step + 1
            # The mover could take it back now: their page offers it.
            assert 'id="take-back"' in mover.get(f"/games/{gid}").get_data(as_text=True)
            return step + 1

        with LiveServer(app, port):
            context = browser.new_context(viewport=PHONE, locale=LOCALES[lang]["browser"],
                                          timezone_id=LOCALES[lang]["zone"],
                                          java_script_enabled=scripts)
            try:
                page = context.new_page()
                sign_in_ja(page, base, viewer)  # by the form's buttons, in any language
                yield store, base, gid, mover, page, make_the_move
            finally:
                context.close()


def _problems_without_scripts(browser, page, lang: str) -> list[str]:  # noqa: F811
    """``problems`` (overflow, axe) of the page as a browser without scripts shows it: axe
    runs scripts, so the page's document (its scripts taken out, its <noscript> parts shown)
    is checked in a page that runs them."""
    html = NOSCRIPT.sub("", SCRIPT.sub("", page.content()))
    context = browser.new_context(viewport=PHONE, locale=LOCALES[lang]["browser"])
    try:
        copy = context.new_page()
        copy.set_content(html)
        return problems(copy, Axe(), f"held move, no scripts [{lang}]")
    finally:
        context.close()


def _refused_take_back(store, gid: int, mover: Reader, step: int, lang: str) -> None:
    """The mover's take back is refused because the move was seen; nothing changed."""
    page = mover.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="take-back"' not in page
    answer = mover.post_form(f"/games/{gid}", f"/games/{gid}/retract", {"step": str(step)})
    assert answer.status_code == 409
    assert LOCALES[lang]["seen"] in answer.get_data(as_text=True)
    assert store.game(gid).step == step
    assert store.rebuild(gid)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_without_scripts_the_button_shows_the_held_move_and_makes_it_final(
        tmp_path, api_db_url, smtp_catcher, browser, lang):  # noqa: F811
    words = LOCALES[lang]
    with held_move(tmp_path, api_db_url, smtp_catcher, browser, lang, scripts=False) as (
            store, base, gid, mover, page, make_the_move):
        step = make_the_move()
        page.goto(f"{base}/games/{gid}")
        notice = page.locator("#held")
        assert words["made"] in notice.inner_text()
        button = page.locator("#show-move button")
        assert words["show"] in button.inner_text()
        fit = page.evaluate(MEASURE)
        assert fit["scroll"] <= fit["width"] == PHONE["width"], fit
        for part in ("notice", "button"):
            assert 0 <= fit[part]["left"] and fit[part]["right"] <= fit["width"], fit
        assert fit["button"]["height"] >= TAP, fit
        found = _problems_without_scripts(browser, page, lang)
        assert found == [], "\n".join(found)
        screenshot(page, f"held-notice-{lang}")
        page.screenshot(path=str(ARTIFACTS / "screenshots" / f"held-notice-{lang}-screen.png"))
        # Still held: the mover could take it back (nothing was made final by the GET).
        assert 'id="take-back"' in mover.get(f"/games/{gid}").get_data(as_text=True)

        button.click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/games/{gid}#decision-h")
        assert page.locator("#held").count() == 0
        assert page.locator(".decision-form").count() == 1  # the move is shown: their turn
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"held-shown-{lang}")
        _refused_take_back(store, gid, mover, step, lang)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_with_scripts_the_page_in_view_shows_the_held_move_at_once(
        tmp_path, api_db_url, smtp_catcher, browser, lang):  # noqa: F811
    with held_move(tmp_path, api_db_url, smtp_catcher, browser, lang, scripts=True) as (
            store, base, gid, mover, page, make_the_move):
        step = make_the_move()
        page.goto(f"{base}/games/{gid}", wait_until="commit")
        page.wait_for_url(f"{base}/games/{gid}#decision-h")
        page.wait_for_load_state()
        assert page.locator("#held").count() == 0
        assert page.locator(".decision-form").count() == 1
        assert page.title().startswith("▶")
        found = problems(page, Axe(), f"held move shown [{lang}]")
        assert found == [], "\n".join(found)
        _refused_take_back(store, gid, mover, step, lang)
