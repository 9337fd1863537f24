"""Issue 47, item 4, in real Chromium on a phone (390x844): the lobby's games seeking players,
in en/ja/es, fit the screen with a Join button at least 44 px each way, within the lobby's
first two screens (above the new-game forms), and no WCAG 2.2 AA violation (axe, target-size
included); tapping Join takes the free seat and opens the game."""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, Seat, User
from server.services import lobby
from tests.players import proven_user
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_axe_wcag22 import PHONE, violations
from tests.web.test_browser_game import sign_in

JOIN = {"en": "Join as Nixon", "ja": "ニクソンとして参加", "es": "Unirse como Nixon"}


def test_joining_a_public_game_from_the_lobby_on_a_phone(tmp_path, api_db_url, smtp_catcher,
                                                         browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as session:
            jack = proven_user(session, "jack@example.org", "Jack")
            dick = proven_user(session, "dick@example.org", "Dick")
            game, _codes = lobby.open_game(session, jack, "tmotp", {"edition": "zman"},
                                           {"kennedy": jack.email, "nixon": None}, public=True,
                                           timing=lobby.check_timing({}))
            gid, dick_id = game.id, dick.id
        with LiveServer(app, port):
            page = browser.new_context(viewport=PHONE, timezone_id="UTC").new_page()
            sign_in(page, base, "dick@example.org", smtp_catcher)
            found = []
            for loc in ("en", "ja", "es"):
                with Session(engine) as session:
                    session.execute(update(User).where(User.id == dick_id).values(locale=loc))
                    session.commit()
                page.goto(base + "/")
                button = page.get_by_role("button", name=JOIN[loc])
                box = button.bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, (loc, box)
                assert box["x"] + box["width"] <= PHONE["width"], (loc, box)
                # before the new-game forms: within the first two screens of the lobby
                assert box["y"] + box["height"] <= 2 * PHONE["height"], (loc, box)
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                found.extend(violations(page, f"lobby seeking [{loc}]"))
                screenshot(page, f"lobby-seeking-{loc}")
            assert not found, "\n".join(found)
            page.get_by_role("button", name=JOIN["es"]).click()
            page.wait_for_url(f"{base}/games/{gid}")
            with Session(engine) as session:
                assert session.exec(select(Seat.user_id).where(
                    Seat.game_id == gid, Seat.seat == "nixon")).one() == dick_id
                assert session.get(Game, gid).status == "active"
