"""Absent seats in real Chromium at 390x844 (issue 46, item 1): the section sits above the
decision and the board, fits the phone with no sideways scroll, its buttons are tap-sized and
axe finds no serious or critical violation, in English and Japanese; the present player
invites a replacement and sees the one-time link once, the replacement takes the seat on its
page, the silent player takes their seat back from a bot, and a 3-player Mr. President shows
its bot at once. Screenshots in the test artifacts (absence-*)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import Seat, User
from server.services import bots, games, lobby
from tests.players import proven_user
from tests.server.api.absence_setup import goes_silent, leaves
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, problems

ORDER = """(board) => {
  const top = (s) => { const e = document.querySelector(s);
                       return e ? e.getBoundingClientRect().top + window.scrollY : null; };
  return {absence: top('#absence'), decision: top('#decision-h'), board: top(board),
          scroll: document.documentElement.scrollWidth,
          width: document.documentElement.clientWidth};
}"""
TAPS = """() => [...document.querySelectorAll('#absence button, #take-seat')]
  .filter(b => b.getBoundingClientRect().height > 0).map(b => b.getBoundingClientRect().height)"""


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch):
    monkeypatch.setitem(bots.BUDGETS, "strong", {"iterations": 6})


def _game(engine, game_type, options, people: dict) -> int:
    with Session(engine) as session:
        users = {seat: proven_user(session, email, name) for seat, (email, name)
                 in people.items()}
        game = games.create_game(session, game_type, options,
                                 {s: u.id for s, u in users.items()}, seed="absence-browser",
                                 public=False, timing=lobby.check_timing({}))
        return game.id


def _user(engine, email) -> int:
    with Session(engine) as session:
        return session.exec(select(User.id).where(User.email == email)).one()


def _speak(engine, email, loc) -> None:
    with Session(engine) as session:
        user = session.exec(select(User).where(User.email == email)).one()
        user.locale = loc
        session.add(user)
        session.commit()


def _enter(page, base, engine, catcher, email, loc="en") -> None:
    """Sign in afresh as ``email`` (through the English pages), then read ``loc``."""
    page.context.clear_cookies()
    _speak(engine, email, "en")
    sign_in(page, base, email, catcher)
    _speak(engine, email, loc)


def _shots(page, name: str) -> None:
    """The whole page, its first screen, and the section alone."""
    whole = screenshot(page, name)
    page.screenshot(path=str(whole.with_name(f"{name}-first-screen.png")))
    page.locator("#absence").screenshot(path=str(whole.with_name(f"{name}-section.png")))


def _check(page, board: str, where: str) -> list[str]:
    """The section above the decision and the board, no sideways scroll, tap-sized buttons,
    axe's grave findings."""
    found = problems(page, Axe(), where)
    at = page.evaluate(ORDER, board)
    assert at["absence"] is not None, where
    if at["decision"] is not None:
        assert at["absence"] < at["decision"], (where, at)
    assert at["board"] is not None and at["absence"] < at["board"], (where, at)
    assert at["scroll"] <= at["width"], (where, at)
    taps = page.evaluate(TAPS)
    assert all(h >= 44 for h in taps), (where, taps)
    return found


def test_absent_seats_on_a_phone(tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    found = []
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        left = _game(engine, "tmotp", {}, {"kennedy": ("jack@example.org", "Jack"),
                                           "nixon": ("dick@example.org", "Dick")})
        silent = _game(engine, "tmotp", {}, {"kennedy": ("ann@example.org", "Ann"),
                                             "nixon": ("bob@example.org", "Bob")})
        three = _game(engine, "mrpresident", {"players": 3},
                      {"p1": ("ann.mp@example.org", "Ann"), "p2": ("bob.mp@example.org", "Bob"),
                       "p3": ("cy.mp@example.org", "Cy")})
        leaves(engine, _user(engine, "dick@example.org"), "dick@example.org")
        goes_silent(engine, silent, "nixon")
        leaves(engine, _user(engine, "cy.mp@example.org"), "cy.mp@example.org")
        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"], timezone_id="UTC")
            page = context.new_page()
            for loc in ("en", "ja"):
                for email, gid, board, name in (
                        ("jack@example.org", left, "#map-h", "1960-left"),
                        ("bob@example.org", silent, "#map-h", "1960-silent-player"),
                        ("ann.mp@example.org", three, "#table-h", "mrpresident-3p-bot")):
                    _enter(page, base, engine, smtp_catcher, email, loc)
                    page.goto(f"{base}/games/{gid}")
                    page.wait_for_selector("#absence")
                    found += _check(page, board, f"{name} [{loc}]")
                    _shots(page, f"absence-{name}-{loc}-390")

            # The present player of the 1960 game invites a replacement, in Japanese, then again
            # in English (the second code voids the first: the English one is used below).
            _enter(page, base, engine, smtp_catcher, "jack@example.org", "ja")
            for loc in ("ja", "en"):
                _speak(engine, "jack@example.org", loc)
                page.goto(f"{base}/games/{left}")
                page.locator("#absent-nixon button[value=replace]").click()
                page.wait_for_selector("#absence-code")
                link = page.locator("#absence-link").input_value()
                assert f"/games/{left}/take-seat/" in link
                found += _check(page, "#map-h", f"replace result [{loc}]")
                _shots(page, f"absence-replace-result-{loc}-390")

            # Claim needs "I am sure": the browser itself refuses the unticked box.
            page.goto(f"{base}/games/{left}")
            page.get_by_role("button", name="Claim the win").click()
            assert page.url.endswith(f"/games/{left}")       # not sent
            assert "claimed the win" not in page.content()

            # The replacement's page, signed out then in, in English and Japanese.
            context.clear_cookies()
            page.goto(link)
            page.wait_for_selector("#sign-in-first")
            screenshot(page, "absence-take-seat-signed-out-en-390")
            sign_in(page, base, "eve@example.org", smtp_catcher)
            for loc in ("ja", "en"):
                _speak(engine, "eve@example.org", loc)
                page.goto(link)
                page.wait_for_selector("#take-seat")
                found += problems(page, Axe(), f"take-seat [{loc}]")
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                screenshot(page, f"absence-take-seat-{loc}-390")
            page.locator("#take-seat").click()
            page.wait_for_selector("text=The seat is yours now")
            with Session(engine) as session:
                holder = session.exec(select(Seat.user_id).where(
                    Seat.game_id == left, Seat.seat == "nixon")).one()
            assert holder == _user(engine, "eve@example.org")

            # The silent player's seat goes to a bot; he takes it back.
            _enter(page, base, engine, smtp_catcher, "ann@example.org")
            page.goto(f"{base}/games/{silent}")
            page.get_by_role("button", name="Hand the seat to a bot").click()
            page.wait_for_selector("text=A bot plays the seat from now on.")
            _enter(page, base, engine, smtp_catcher, "bob@example.org", "ja")
            page.goto(f"{base}/games/{silent}")
            page.wait_for_selector("#come-back")
            found += _check(page, "#map-h", "silent player with a bot [ja]")
            _shots(page, "absence-1960-silent-bot-ja-390")
            page.locator("#come-back").click()
            page.wait_for_selector("#absence-done")

            # The help page of the rulings, on the phone (Bob reads Japanese).
            for loc in ("ja", "en"):
                _speak(engine, "bob@example.org", loc)
                page.goto(f"{base}/help/absences")
                page.wait_for_selector("#absences-help")
                found += problems(page, Axe(), f"help absences [{loc}]")
                screenshot(page, f"absence-help-{loc}-390")
            context.close()
    assert not found, "\n".join(found)
