"""Issue 27 item 6 on the pages and by mail: a rematch offered from the result page after a
resignation and accepted from the mail's signed link (a GET changes nothing; the link acts
once), withdrawn from the page; the game-over mail's link offers one; the ladder and a
player's page, and the ladder at 390x844 in Chromium with axe clean."""

from __future__ import annotations

import re
import time

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import Game, RematchOffer, Seat
from tests.security.test_rating_farming import play
from tests.server.api.conftest import running_app
from tests.server.api.helpers import Store
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401
from tests.web.test_browser_game import sign_in
from tests.web.pages_helpers import csrf, db_engine, new_game, path_of
from tests.web.test_page_sweep import problems

LINK = re.compile(r"(https?://\S+/games/\d+/rematch\?t=\S+)")


def _text(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def _resigned(jack, dick) -> int:
    gid = new_game(jack, dick)
    answer = dick.post_form(f"/games/{gid}", f"/games/{gid}/resign", {"confirm": "yes"})
    assert answer.status_code in (200, 303), answer.data[:500]
    assert jack.get(f"/games/{gid}/result").status_code == 200
    return gid


def _seats(app, gid) -> dict:
    with Session(db_engine(app)) as s:
        return {r.seat: r.user_id for r in s.exec(select(Seat).where(Seat.game_id == gid))}


def _offer(app, gid) -> RematchOffer | None:
    with Session(db_engine(app)) as s:
        return s.exec(select(RematchOffer).where(RematchOffer.game_id == gid)).first()


def test_rematch_from_the_result_page_accepted_by_the_mail_link(app, jack, dick, smtp_catcher):
    gid = _resigned(jack, dick)
    page = jack.get(f"/games/{gid}/result").get_data(as_text=True)
    assert 'id="rematch-h"' in page and 'value="offer"' in page
    before = len(smtp_catcher.to(dick.email))
    answer = jack.post_form(f"/games/{gid}/result", f"/games/{gid}/rematch",
                            {"action": "offer", "swap": "swap"})
    assert answer.status_code == 303
    page = jack.get(f"/games/{gid}/result").get_data(as_text=True)
    assert "Waiting for: Nixon" in page
    mail = smtp_catcher.wait_for_to(dick.email, before + 1)[-1]
    assert "offers a rematch of game" in _text(mail)
    link = path_of(LINK.search(_text(mail)).group(1))
    # Opening the link (as a mail scanner does) changes nothing.
    opened = dick.client.get(link)
    assert opened.status_code == 200 and "Accept the rematch" in opened.get_data(as_text=True)
    assert _offer(app, gid).status == "open"
    # Its button, from a browser that is not signed in: the link alone acts.
    stranger = app.test_client()
    page = stranger.get(link).get_data(as_text=True)
    token = link.split("t=", 1)[1]
    done = stranger.post(f"/games/{gid}/rematch", data={"csrf_token": csrf(page), "t": token,
                                                        "action": "accept"})
    assert done.status_code == 303
    offer = _offer(app, gid)
    assert offer.status == "made"
    old, new = _seats(app, gid), _seats(app, offer.new_game_id)
    assert new == {"kennedy": old["nixon"], "nixon": old["kennedy"]}
    with Session(db_engine(app)) as s:
        assert s.get(Game, offer.new_game_id).options == s.get(Game, gid).options
    # The pages link the games; the link acted once.
    page = jack.get(f"/games/{offer.new_game_id}").get_data(as_text=True)
    assert f'href="/games/{gid}/result"' in page and "is the rematch of game" in page
    assert f"/games/{offer.new_game_id}" in jack.get(f"/games/{gid}/result").get_data(
        as_text=True)
    fresh = csrf(stranger.get("/sign-in").data)
    again = stranger.post(f"/games/{gid}/rematch", data={"csrf_token": fresh, "t": token,
                                                         "action": "accept"})
    assert again.status_code == 409 and "used already" in again.get_data(as_text=True), again.get_data(as_text=True)[-1500:]
    made = f"the new game #{offer.new_game_id} has started"
    deadline = time.monotonic() + 10       # the mails go out as their tasks run
    while not any(made in _text(m) for m in smtp_catcher.to(jack.email)):
        assert time.monotonic() < deadline, "Jack is told the rematch has started"
        time.sleep(0.05)


def test_the_game_over_mail_offers_a_rematch_and_an_offer_is_withdrawn(app, jack, dick,
                                                                      smtp_catcher):
    gid = _resigned(jack, dick)
    over = [m for m in smtp_catcher.wait_for_to(jack.email, 2)
            if "The game is over" in _text(m)]
    assert over, "the game-over mail"
    link = path_of(LINK.search(_text(over[-1])).group(1))
    page = jack.get(link).get_data(as_text=True)
    assert 'value="keep"' in page and _offer(app, gid) is None        # a GET offers nothing
    answer = jack.client.post(f"/games/{gid}/rematch", data={
        "csrf_token": csrf(page), "t": link.split("t=", 1)[1], "action": "offer",
        "swap": "keep"})
    assert answer.status_code == 303
    offer = _offer(app, gid)
    assert offer.status == "open" and offer.swap is False
    # Dick declines from the result page: no rematch.
    answer = dick.post_form(f"/games/{gid}/result", f"/games/{gid}/rematch",
                            {"action": "withdraw"})
    assert answer.status_code == 303
    assert _offer(app, gid).status == "withdrawn"
    page = dick.get(f"/games/{gid}/result").get_data(as_text=True)
    assert 'value="offer"' in page                                   # may be offered again
    # A damaged link is refused in words, and changes nothing.
    bad = jack.get(f"/games/{gid}/rematch?t=nonsense")
    assert bad.status_code == 403 and "damaged" in bad.get_data(as_text=True)


def test_the_ladder_and_a_players_page(app, jack, dick):
    """A public game both played (a rated one: services/ratings.py); dick resigns."""
    gid = new_game(jack, dick, public="on")
    play(Store(db_engine(app)), gid)
    answer = dick.post_form(f"/games/{gid}", f"/games/{gid}/resign", {"confirm": "yes"})
    assert answer.status_code in (200, 303), answer.data[:500]
    page = jack.get("/ladder/tmotp").get_data(as_text=True)
    kennedy = page.split('id="role-')[1]
    assert "Kennedy" in kennedy and "Nixon" in page
    ids = _seats(app, gid)
    assert f'/players/{ids["kennedy"]}' in page and "@" not in page.split("<main>")[1]
    me = jack.get(f"/players/{ids['kennedy']}").get_data(as_text=True)
    assert "Kennedy" in me and f"/games/{gid}/result" in me and "Won" in me
    assert jack.get("/ladder/chess").status_code == 404
    assert jack.get("/players/999999").status_code == 404
    ja = app.test_client().get("/ladder/mrpresident", headers={"Accept-Language": "ja"})
    assert ja.status_code == 200 and 'lang="ja"' in ja.get_data(as_text=True)


def test_the_ladder_fits_a_phone_and_passes_axe(tmp_path, api_db_url, smtp_catcher, browser,
                                                monkeypatch):
    monkeypatch.setenv("WHISTLESTOP_MAIL_SMTP_PORT", str(smtp_catcher.port))
    from tests.web.pages_helpers import Reader
    with running_app(tmp_path, api_db_url) as app:
        jack = Reader(app, smtp_catcher, "jack@example.org")
        jack.sign_in()
        dick = Reader(app, smtp_catcher, "dick@example.org")
        dick.sign_in()
        gid = _resigned(jack, dick)
        kennedy = _seats(app, gid)["kennedy"]
        axe = Axe()
        port = free_port()
        app.config["BASE_URL"] = f"http://127.0.0.1:{port}"
        with LiveServer(app, port) as server:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            sign_in(page, server.url, "dick@example.org", smtp_catcher)   # a private game
            found = []
            for path, name in (("/ladder/tmotp", "ladder"), (f"/players/{kennedy}", "player"),
                               (f"/games/{gid}/result", "result-rematch")):
                page.goto(server.url + path)
                assert page.title() != "404 Not Found", path
                found += problems(page, axe, path)
                screenshot(page, f"{name}-phone")
            context.close()
    assert found == []
