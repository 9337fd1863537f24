"""The buttons of issue 27 clicked in real headless Chromium on a 390x844 phone, by two players
each in their own browser: a pause asked on the game page, agreed by the other player (the
page says the game and its deadline's clock are stopped), resumed (the deadline moved by the
paused time); an extension asked and granted, another asked and refused; a click on a stale
page refused in words on the page; after a resignation, a rematch offered from the result page
with the roles swapped and accepted by the other player. Each page the players see fits the
phone (no sideways scroll) with no serious or critical finding of axe-core."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import Extension, Game, GamePause, RematchOffer, Seat, User, aware
from server.services import clock
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, reveal, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, new_game
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, problems

PHONE = VIEWPORTS["phone"]
EMAILS = ("jack@example.org", "dick@example.org")


@contextmanager
def two_players(tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    """The app served live; Jack (Kennedy) and Dick (Nixon) in a started game; each signed in
    in a phone-sized browser of their own. Yields (app, base URL, game id, pages by email)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        jack, dick = (Reader(app, smtp_catcher, e) for e in EMAILS)
        jack.sign_in()
        dick.sign_in()
        gid = new_game(jack, dick)
        with LiveServer(app, port):
            contexts = [browser.new_context(viewport=PHONE, timezone_id="UTC", locale="en-US")
                        for _ in EMAILS]
            pages = {}
            for email, context in zip(EMAILS, contexts):
                pages[email] = context.new_page()
                sign_in(pages[email], base, email, smtp_catcher)
            try:
                yield app, base, gid, pages
            finally:
                for context in contexts:
                    context.close()


def _engine(app):
    return app.extensions["whistlestop.db"]


def _owing_email(app, gid) -> str:
    """The address of a player who owes the decision open now."""
    with Session(_engine(app)) as s:
        game = s.get(Game, gid)
        seat = clock.owing_now(s, game)[0]
        return s.exec(select(User.email).join(Seat, Seat.user_id == User.id)
                      .where(Seat.game_id == gid, Seat.seat == seat)).one()


def _game(app, gid) -> Game:
    with Session(_engine(app)) as s:
        return s.get(Game, gid)


def _click(page, name: str) -> None:
    reveal(page.get_by_role("button", name=name, exact=True, include_hidden=True))
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_load_state()


def _schedule(page) -> str:
    return page.locator("#schedule").inner_text()


def test_a_pause_agreed_and_resumed_and_more_time_granted_by_clicking(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    axe, found = Axe(), []
    with two_players(tmp_path, api_db_url, smtp_catcher, browser) as (app, base, gid, pages):
        jack, dick = pages[EMAILS[0]], pages[EMAILS[1]]
        before = aware(_game(app, gid).deadline_at)
        for page in (jack, dick):
            page.goto(f"{base}/games/{gid}")
        assert "in about 72 hours" in jack.locator("#deadline").inner_text()

        _click(jack, "Ask to pause the game")
        assert "schedule=done" in jack.url
        assert "Kennedy asked to pause the game" in _schedule(jack)
        assert jack.get_by_role("button", name="Ask to pause the game").count() == 0
        found += problems(jack, axe, "pause asked [asker]")

        dick.reload()
        assert "Kennedy asked to pause the game" in _schedule(dick)
        found += problems(dick, axe, "pause asked [other]")
        screenshot(dick, "pause-asked-390")
        _click(dick, "Agree to pause")
        assert "The game is paused" in _schedule(dick)
        assert "The deadline's clock is stopped" in dick.locator("#deadline").inner_text()
        assert dick.get_by_role("button", name="Resume the game").is_visible()
        found += problems(dick, axe, "paused")
        screenshot(dick, "paused-390")
        game = _game(app, gid)
        assert game.clock_stopped_at is not None and game.alarm_at is None
        with Session(_engine(app)) as s:
            assert s.exec(select(GamePause.status).where(GamePause.game_id == gid)).one() == \
                "paused"

        # Two seconds of pause, then Jack resumes: the deadline moves by the paused time.
        jack.reload()
        assert "The game is paused" in _schedule(jack)
        jack.wait_for_timeout(2000)
        _click(jack, "Resume the game")
        assert "The game is paused" not in _schedule(jack)
        assert "The deadline is" in jack.locator("#deadline").inner_text()
        assert jack.get_by_role("button", name="Ask to pause the game").is_visible()
        found += problems(jack, axe, "resumed")
        game = _game(app, gid)
        assert game.clock_stopped_at is None
        assert aware(game.deadline_at) - before >= timedelta(seconds=2)
        moved = aware(game.deadline_at)

        # More time: the player who owes the decision asks, the other grants.
        asker, other = (jack, dick) if _owing_email(app, gid) == EMAILS[0] else (dick, jack)
        asker.reload()
        _click(asker, "Ask for more time (once a game)")
        assert "You asked for 72 more hours" in _schedule(asker)
        found += problems(asker, axe, "extension asked [asker]")
        other.reload()
        assert "asks for 72 more hours for their decision" in _schedule(other)
        found += problems(other, axe, "extension asked [other]")
        screenshot(other, "extension-asked-390")
        _click(other, "Grant more time")
        assert "asks for 72 more hours" not in _schedule(other)
        assert other.get_by_role("button", name="Grant more time").count() == 0
        found += problems(other, axe, "extension granted")
        assert aware(_game(app, gid).deadline_at) == moved + timedelta(hours=72)
        assert "in about 144 hours" in other.locator("#deadline").inner_text()
        # Once a game: the asker's button is gone.
        asker.reload()
        assert asker.get_by_role("button", name="Ask for more time (once a game)").count() == 0
    assert found == [], "\n".join(found)


def test_more_time_refused_and_a_stale_button_refused_in_words(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    axe, found = Axe(), []
    with two_players(tmp_path, api_db_url, smtp_catcher, browser) as (app, base, gid, pages):
        jack, dick = pages[EMAILS[0]], pages[EMAILS[1]]
        before = aware(_game(app, gid).deadline_at)
        asker, other = (jack, dick) if _owing_email(app, gid) == EMAILS[0] else (dick, jack)
        for page in (asker, other):
            page.goto(f"{base}/games/{gid}")
        _click(asker, "Ask for more time (once a game)")
        other.reload()
        _click(other, "Refuse more time")
        assert "asks for 72 more hours" not in _schedule(other)
        found += problems(other, axe, "extension refused")
        assert aware(_game(app, gid).deadline_at) == before
        with Session(_engine(app)) as s:
            assert s.exec(select(Extension.status).where(Extension.game_id == gid)).one() == \
                "refused"
        asker.reload()
        assert "You asked for" not in _schedule(asker)
        assert asker.get_by_role("button", name="Ask for more time (once a game)").count() == 0

        # The other player's page was opened before the pause was asked: its button is stale.
        _click(asker, "Ask to pause the game")
        stale = other.get_by_role("button", name="Ask to pause the game")
        assert stale.is_visible()
        stale.click()
        other.wait_for_load_state()
        refusal = other.get_by_role("alert").first.inner_text()
        assert "A pause of this game is already asked or in force." in refusal
        found += problems(other, axe, "stale pause button refused")
        screenshot(other, "pause-refused-stale-390")
        # The refusal page is the game page: the answer buttons are there to use.
        _click(other, "Refuse the pause")
        assert "asked to pause the game" not in _schedule(other)
        with Session(_engine(app)) as s:
            assert s.exec(select(GamePause.status).where(GamePause.game_id == gid)).one() == \
                "refused"
        assert _game(app, gid).clock_stopped_at is None
        found += problems(other, axe, "pause refused")
    assert found == [], "\n".join(found)


def test_a_rematch_offered_and_accepted_by_clicking(tmp_path, api_db_url, smtp_catcher,
                                                    browser):  # noqa: F811
    axe, found = Axe(), []
    with two_players(tmp_path, api_db_url, smtp_catcher, browser) as (app, base, gid, pages):
        jack, dick = pages[EMAILS[0]], pages[EMAILS[1]]
        # Dick resigns by the game page's form.
        dick.goto(f"{base}/games/{gid}")
        dick.get_by_text("Resign this game").click()
        _click(dick, "Yes, resign the game")
        assert _game(app, gid).status == "finished"

        jack.goto(f"{base}/games/{gid}/result")
        dick.goto(f"{base}/games/{gid}/result")   # opened before the offer: stale
        rematch = jack.locator("#rematch-h").locator("xpath=..")
        assert rematch.get_by_label("Swap the roles").is_checked()
        found += problems(jack, axe, "result page")
        _click(jack, "Offer a rematch")
        assert "A rematch is offered, with the same options; the roles are swapped." in \
            rematch.inner_text()
        assert "Waiting for: Nixon." in rematch.inner_text()
        found += problems(jack, axe, "rematch offered")

        dick.reload()
        assert rematch_text(dick).count("the roles are swapped") == 1
        found += problems(dick, axe, "rematch offered [other]")
        screenshot(dick, "rematch-offered-390")
        _click(dick, "Accept the rematch")
        assert "The rematch is game" in rematch_text(dick)
        found += problems(dick, axe, "rematch made")
        with Session(_engine(app)) as s:
            offer = s.exec(select(RematchOffer).where(RematchOffer.game_id == gid)).one()
            assert offer.status == "made"
            seats = {g: {r.seat: r.user_id for r in
                         s.exec(select(Seat).where(Seat.game_id == g))}
                     for g in (gid, offer.new_game_id)}
            assert s.get(Game, offer.new_game_id).status == "active"
        assert seats[offer.new_game_id] == {"kennedy": seats[gid]["nixon"],
                                            "nixon": seats[gid]["kennedy"]}
        dick.get_by_role("link", name="Go to the rematch").click()
        dick.wait_for_load_state()
        assert dick.url.endswith(f"/games/{offer.new_game_id}")
        assert "is the rematch of game" in dick.content()
        found += problems(dick, axe, "the rematch's game page")

        # Jack's page still offers to withdraw: the click is refused in words.
        _click(jack, "Withdraw the rematch")
        assert jack.get_by_role("alert").inner_text() == "No rematch is offered for this game."
        assert "The rematch is game" in jack.content()
        found += problems(jack, axe, "stale withdraw refused")
    assert found == [], "\n".join(found)


def rematch_text(page) -> str:
    return page.locator("#rematch-h").locator("xpath=..").inner_text()
