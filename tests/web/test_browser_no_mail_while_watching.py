"""No mail while you watch (issue 46, item 5), in real headless Chromium on a 390x844 phone, in
English and in Japanese: the game page, once its live stream is open, says it is watched (its
beat, POST /games/<id>/watching: the PagePresence row), shows the line that states the delay
(fitting the phone, no serious or critical axe finding), and says it leaves when it is closed
(its beacon): the decision mail then waits only the delay from that moment. The lobby's form,
as it is sent, says that the game's page will be live (``page_live``). Screenshots:
test-artifacts/screenshots/watching-*.png."""

from __future__ import annotations

import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, User
from server.models import PagePresence
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401
from tests.web.pages_helpers import Reader
from tests.web.test_browser_japanese_pages import sign_in_ja
from tests.web.test_page_sweep import VIEWPORTS, problems

LOCALES = {"en": {"browser": "en-US", "line": "no mail while this page is open"},
           "ja": {"browser": "ja-JP", "line": "このページを開いている間はメールを送りません"}}


# The lobby's new-game form sent (its submit event, the sending itself cancelled): whether the
# page's script gave it ``page_live``.
SENT_FORM = """() => {
  const form = document.querySelector('form[action="/games/new"]');
  form.addEventListener("submit", e => e.preventDefault());
  form.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
  const live = form.querySelector('input[name="page_live"]');
  return live !== null && live.value === "1";
}"""


def _presence(engine, gid: int, user_id: int, what, limit: float = 20.0):
    """The page's presence row once ``what(row)`` holds (the page's requests arrive when
    they do: waited for, at most ``limit`` seconds)."""
    end = time.monotonic() + limit
    while True:
        with Session(engine) as s:
            row = s.get(PagePresence, (gid, user_id))
            if row is not None and what(row):
                return row
        assert time.monotonic() < end, f"the page did not say so: {row}"
        time.sleep(0.1)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_live_page_marks_presence_states_the_delay_and_says_it_leaves(
        tmp_path, api_db_url, smtp_catcher, browser, lang):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url, live_streams=True) as app:
        app.config["BASE_URL"] = base
        jack = Reader(app, smtp_catcher, "jack@example.org")
        jack.sign_in()
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as s:
            s.execute(update(User).values(locale=lang))
            s.commit()
            user_id = s.exec(select(User.id).where(User.email == jack.email)).one()
        answer = jack.post_form("/", "/games/new", {
            "game_type": "mrpresident", "players": "3", "edition": "chalkboard",
            "email_p1": jack.email, "bot_p2": "greedy", "bot_p3": "greedy",
            "bot_delay_seconds": "0"})
        gid = int(answer.headers["Location"].rsplit("/", 1)[1])
        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"],
                                          locale=LOCALES[lang]["browser"])
            try:
                page = context.new_page()
                sign_in_ja(page, base, jack)
                # Started elsewhere (the test client; a bot game may begin at once): no
                # page of it was live before.
                with Session(engine) as s:
                    begun = s.get(Game, gid).status == "active"
                if not begun:
                    assert jack.post_form(f"/games/{gid}", f"/games/{gid}/start",
                                          {}).status_code == 303
                with Session(engine) as s:
                    found = s.get(PagePresence, (gid, user_id))
                    if found is not None:
                        s.delete(found)
                    s.commit()
                page.goto(f"{base}/games/{gid}")
                line = page.locator("#watching")
                line.wait_for(state="visible")
                assert LOCALES[lang]["line"] in line.inner_text()
                assert "2" in line.inner_text()
                live = _presence(engine, gid, user_id, lambda r: r.left_at is None)
                assert problems(page, Axe(), f"watching line [{lang}]") == []
                screenshot(page, f"watching-{lang}")
                page.close()  # the tab is closed: its beacon says it leaves
                gone = _presence(engine, gid, user_id, lambda r: r.left_at is not None)
                assert gone.left_at >= live.seen_at
                # The lobby's form, as it is sent, says the game's page will be live.
                lobby = context.new_page()
                lobby.goto(f"{base}/")
                assert lobby.evaluate(SENT_FORM) is True
            finally:
                context.close()
