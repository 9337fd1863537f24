"""Real headless Chromium (Debian's ``chromium``, driven by Playwright's Python package) and
the app served over HTTP in a thread of the test process, for tests of the pages as people use
them. A missing browser fails the test with the install step; it never skips."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[2]
# Screenshots and other files a test leaves for people to look at (ignored by git).
ARTIFACTS = Path(os.environ.get("WHISTLESTOP_TEST_ARTIFACTS", ROOT / "test-artifacts"))

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("`chromium` was not found on PATH. The page tests drive a real browser: "
                    "install it with `apt-get install -y chromium` (the test command does "
                    "this when it can).", pytrace=False)
    return found


class LiveServer:
    """The Flask app on a free local port, served by werkzeug in a thread."""

    def __init__(self, app, port: int):
        self.server = make_server("127.0.0.1", port, app, threaded=True)
        self.url = f"http://127.0.0.1:{port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.thread.join(10)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def screenshot(page, name: str) -> Path:
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def reveal(locator):
    """Open, by a tap on its summary as a player would, the closed section (<details>) that
    holds ``locator`` (the game page keeps notes, table talk and the schedule one tap away:
    issue 47); returns the locator."""
    if not locator.first.is_visible():
        summary = locator.first.evaluate_handle(
            "el => { const d = el.closest('details:not([open])'); "
            "return d ? d.querySelector(':scope > summary') : null; }")
        element = summary.as_element()
        if element is not None:
            element.click()
    return locator
