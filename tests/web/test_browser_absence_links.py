"""The page an "absence" mail's choice link opens (issue 46, item 1; server/web/absence_links.py)
in real Chromium at 390x844, in English, Japanese and Spanish: it fits the phone with no
sideways scroll, its button is tap-sized, axe finds nothing grave; opening it changes nothing;
pressing "invite" with an address makes the invitation and shows the one-time take-seat link,
which wraps. Screenshots in the test artifacts (absence-link-*)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import SeatAbsence, User
from server.services import absence_links, games, lobby
from tests.players import proven_user
from tests.server.api.absence_setup import leaves
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_page_sweep import VIEWPORTS, problems

TAPS = """() => [...document.querySelectorAll('button')]
  .filter(b => b.getBoundingClientRect().height > 0).map(b => b.getBoundingClientRect().height)"""
WORDS = {"en": ("Yes: Invite a replacement", "The invitation is made."),
         "ja": ("はい: 代わりの人を招待する", "招待しました。"),
         "es": ("Sí: Invitar a un sustituto", "La invitación está hecha.")}


def _locale(engine, user_id: int, loc: str) -> None:
    with Session(engine) as session:
        user = session.get(User, user_id)
        user.locale = loc
        session.add(user)
        session.commit()


def test_a_choice_link_s_page_on_a_phone_in_three_languages(tmp_path, api_db_url,
                                                            smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    found = []
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as session:
            jack = proven_user(session, "jack@example.org", "Jack")
            dick = proven_user(session, "dick@example.org", "Dick")
            jack_id, dick_id = jack.id, dick.id
        gids = {}
        for loc in WORDS:
            with Session(engine) as session:
                gids[loc] = games.create_game(session, "tmotp", {},
                                              {"kennedy": jack_id, "nixon": dick_id},
                                              seed=f"link-{loc}", public=False,
                                              timing=lobby.check_timing({})).id
        leaves(engine, dick_id, "dick@example.org")
        with LiveServer(app, port):
            page = browser.new_context(viewport=VIEWPORTS["phone"],
                                       timezone_id="UTC").new_page()
            for loc, (button, done) in WORDS.items():
                gid = gids[loc]
                _locale(engine, jack_id, loc)
                with Session(engine) as session:
                    absence = session.exec(select(SeatAbsence).where(
                        SeatAbsence.game_id == gid)).one()
                    link = absence_links.url(base, gid, absence_links.make(
                        app.config["SECRET_KEY"], absence_links.Link(
                            gid, absence.id, "kennedy", jack_id, "replace")))
                page.goto(link)
                assert page.locator("html").get_attribute("lang") == loc
                assert page.get_by_role("button", name=button).is_visible()
                found += problems(page, Axe(), f"choice page [{loc}]")
                assert all(h >= 44 for h in page.evaluate(TAPS)), loc
                screenshot(page, f"absence-link-replace-{loc}-390")
                with Session(engine) as session:   # opening it changed nothing
                    assert session.exec(select(SeatAbsence.invite_token_hash).where(
                        SeatAbsence.game_id == gid)).one() is None
                page.locator("#email").fill("cy@example.org")
                page.get_by_role("button", name=button).click()
                page.wait_for_selector(".done")
                assert done in page.locator(".done").inner_text()
                assert f"/games/{gid}/take-seat/" in page.locator("code").inner_text()
                found += problems(page, Axe(), f"choice done [{loc}]")
                screenshot(page, f"absence-link-invited-{loc}-390")
    assert not found, found
