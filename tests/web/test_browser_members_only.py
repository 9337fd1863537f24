"""Issue 48, item 1: a members-only club's pages in Chromium, on a phone (390x844) and a
desktop, in en/ja/es: the sign-in page and its answer, the settings page's invitation, the
invitation made and the invitation's own page fit the screen (no horizontal scroll), pass axe
(nothing serious or critical) and have tap targets at least 44 px high."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser  # noqa: F401
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, problems

TARGETS = """(scope) => [...document.querySelectorAll(
    `${scope} button, ${scope} input:not([type=hidden]), ${scope} a`)]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.tagName + ' ' + (e.textContent || e.name || e.id).trim().slice(0, 40),
             e.getBoundingClientRect().height])
  .filter(([_, h]) => h < 44)"""


def check(page, axe, where: str, scope: str = "main") -> list[str]:
    """What is wrong with the page; tap targets are measured within ``scope`` (a selector)."""
    small = page.evaluate(TARGETS, scope)
    return problems(page, axe, where) + [f"{where}: {name} {h:.0f} px high"
                                         for name, h in small]


def test_the_members_only_pages_fit_a_phone_in_every_language(tmp_path, api_db_url,
                                                              smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    axe = Axe()
    found: list[str] = []
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        with LiveServer(app, port):
            jack = browser.new_context(locale="en-US")
            sign_in(jack.new_page(), base, "jack@example.org", smtp_catcher)
            app.config["OPEN_SIGNUP"] = False
            page = jack.new_page()
            page.goto(f"{base}/me/mail")
            for size, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                found += check(page, axe, f"settings [{size}]", "#club-invitation")
            page.get_by_role("button", name="Make an invitation link").click()
            page.wait_for_selector("#invitation-url")
            url = page.input_value("#invitation-url")
            for size, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                found += check(page, axe, f"invitation made [{size}]")
            for lang, browser_locale in (("en", "en-US"), ("ja", "ja-JP"), ("es", "es-ES")):
                visitor = browser.new_context(locale=browser_locale)
                page = visitor.new_page()
                for size, viewport in VIEWPORTS.items():
                    page.set_viewport_size(viewport)
                    page.goto(f"{base}/sign-in")
                    found += check(page, axe, f"sign-in [{lang}, {size}]")
                    page.fill("#email", f"kim-{lang}-{size}@example.org")
                    page.locator("main form button[type=submit]").click()
                    page.wait_for_selector("#members-only")
                    found += check(page, axe, f"sign-in sent [{lang}, {size}]")
                    page.goto(url)
                    found += check(page, axe, f"club invitation [{lang}, {size}]")
                visitor.close()
    assert not found, "\n".join(found)
