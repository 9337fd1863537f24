"""Z-Man's choice of the next Campaign Strategy card on Election Day on a phone, in real headless
Chromium at 390x844, in English and Japanese: each revealed card a block with the state its
three checks go to, nothing wider than the viewport, choices at least 44 px high. Screenshots:
test-artifacts/screenshots/election-day-order-*.png."""

from __future__ import annotations

import random

from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, Order, User
from server.services import games as svc
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import db_engine
from tests.web.test_browser_forms import HEIGHTS, WIDE, _phone
from tests.web.test_forms_cards_and_refusals import _new_game, _state

ORDER = "election_day_strategy_order"


def _drive_to_the_order(app, gid: int, seed: int) -> str:
    """Random set-up orders through the game service (both seats', as test_final_tally's) until
    a seat is asked the order of its Campaign Strategy cards; returns that seat."""
    rng = random.Random(seed)
    with app.app_context(), Session(db_engine(app)) as session:
        for _ in range(5000):
            game = session.get(Game, gid)
            session.refresh(game)
            assert game.status == "active", "the game ended first"
            state = svc.whole_state(session, game)
            asked = [x for x in state.active() if (state.asks(x) or {}).get("step") == ORDER]
            if asked:
                return asked[0]
            sealed = set(session.exec(select(Order.seat).where(
                Order.game_id == gid, Order.step == game.step,
                Order.status == "pending")).all())
            seat = next(x for x in state.active() if x not in sealed)
            legal = [str(a) for a in state.legal_actions(seat)]
            wanted = [a for a in legal if a.endswith(" campaign")]
            action = rng.choice(wanted if wanted and rng.random() < 0.5 else legal)
            svc.submit_order(session, gid, seat, game.step, [action], by_player=False)
    raise AssertionError("no Election Day card order asked")

HEADING = {"en": "Campaign Strategy card to resolve next", "ja": "次に解決する選挙運動戦略カード"}
CHECKS = {"en": "Three support checks in ", "ja": "で支持チェックを3回行います"}


def test_the_card_order_fits_a_phone_in_english_and_japanese(app, jack, dick, browser):
    gid = _new_game(app, "tmotp", {"edition": "zman"}, [jack, dick], "browser/order")
    seat = _drive_to_the_order(app, gid, seed=7)
    _step, state = _state(app, gid)
    cards = state.legal_actions(seat)
    reader = jack if seat == "kennedy" else dick
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        for loc in ("en", "ja"):
            with Session(db_engine(app)) as s:
                s.execute(update(User).values(locale=loc))
                s.commit()
            page = _phone(browser, base, reader)
            page.goto(f"{base}/games/{gid}")
            assert page.evaluate("document.documentElement.lang") == loc
            form = page.locator('form.decision-form[data-kind="picks"]')
            assert form.count() == 1
            assert HEADING[loc] in form.locator("legend").first.inner_text()
            faces = form.locator(".face")
            assert faces.count() == len(cards)
            for i in range(faces.count()):
                assert CHECKS[loc] in faces.nth(i).locator(".favours").inner_text()
            assert page.evaluate(WIDE, ".decision") == []
            low = [h for h in page.evaluate(HEIGHTS) if h[1] < 44]
            assert low == [], low[:10]
            path = screenshot(page, f"election-day-order-{loc}-390")
            page.locator("section.decision").screenshot(
                path=str(path.with_name(f"election-day-order-{loc}-390-decision.png")))
            page.context.close()
