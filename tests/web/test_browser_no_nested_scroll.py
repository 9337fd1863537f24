"""Issue 47, item 7: on a phone, a decision's lists (Mr. President's cards, 1960's hand) are
part of the page: no box inside the decision scrolls on its own, in real Chromium at 390x844."""

from __future__ import annotations

from sqlmodel import Session

from server.services import games, lobby
from tests.players import proven_user
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser  # noqa: F401  (fixture)
from tests.web.test_browser_absence import _enter
from tests.web.test_page_sweep import VIEWPORTS

# Elements of the decision box that scroll by themselves (content taller than the box).
NESTED = """() => [...document.querySelectorAll('.decision *')].filter(e => {
  const style = getComputedStyle(e);
  return /(auto|scroll)/.test(style.overflowY) && e.scrollHeight > e.clientHeight + 1;
}).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className)"""


def test_a_decisions_lists_do_not_scroll_inside_the_page(tmp_path, api_db_url, smtp_catcher,
                                                          browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as s:
            people = [proven_user(s, f"{n}@example.org", n.title()) for n in ("ann", "bob", "cy")]
            ids = [p.id for p in people]
        with Session(engine) as s:
            mp = games.create_game(s, "mrpresident", {"players": 3},
                                   {"p1": ids[0], "p2": ids[1], "p3": ids[2]}, seed="scroll",
                                   timing=lobby.check_timing({})).id
        with LiveServer(app, port):
            page = browser.new_context(viewport=VIEWPORTS["phone"]).new_page()
            _enter(page, base, engine, smtp_catcher, "ann@example.org")
            page.goto(f"{base}/games/{mp}")
            page.wait_for_selector(".decision")
            assert page.locator(".decision input[type=radio]").count() > 10   # a long list
            assert page.evaluate(NESTED) == []
