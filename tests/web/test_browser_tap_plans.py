"""Placing by tapping (issue 47, item 2), in real headless Chromium on a 390x844 phone: a whole
Campaigning of 4 CP in two states by taps on the planner's map and its + and − (no typing),
Advertising of several media cubes in one submit, Positioning by taps on the issues' rows, and
the map's keyboard path (Tab to a state, Enter or Space adds one). The number boxes stay the
form's fields (the taps write into them) and the engine judges the order, whole or not at all.
Screenshots in test-artifacts/screenshots/ (tap-*)."""

from __future__ import annotations

import random

from sqlmodel import Session, select

from engine.games.tmotp.data import STATES, travel_cost
from server.models import Game, Order
from server.services import games
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.keyboard import FOCUSED, focus_shown
from tests.web.pages_helpers import db_engine
from tests.web.test_forms_cards_and_refusals import _new_game

PHONE = {"width": 390, "height": 844}


def drive(app, gid: int, wanted, prefer: str, seed: int, tries: int = 3000):
    """Random orders through the order service (both seats, as tests/web/test_decision_form's
    _drive_to) until ``wanted(state, seat)``; a card played ``prefer`` (" campaign",
    " advertise", " position") when one may be. Returns (seat, step, state) or None when the
    game ends first."""
    rng = random.Random(seed)
    for _ in range(tries):
        with app.app_context(), Session(db_engine(app)) as s:
            game = s.get(Game, gid)
            state = games.whole_state(s, game)
            active = state.active()
            if not active:
                return None
            for seat in active:
                if wanted(state, seat):
                    return seat, game.step, state
            sealed = set(s.exec(select(Order.seat).where(
                Order.game_id == gid, Order.step == game.step,
                Order.status == "pending")).all())
            seat = next(x for x in active if x not in sealed)
            legal = [str(a) for a in state.legal_actions(seat)]
            liked = [a for a in legal if a.endswith(prefer)]
            action = rng.choice(liked if liked and rng.random() < 0.8 else legal)
            games.submit_order(s, gid, seat, game.step, [action], by_player=False)
    return None


def find(app, readers, wanted, prefer: str, label: str):
    """A new game driven to a decision ``wanted`` holds: (gid, seat, step, state)."""
    for n in range(12):
        gid = _new_game(app, "tmotp", {"edition": "gmt"}, readers, f"tap/{label}/{n}")
        found = drive(app, gid, wanted, prefer, seed=n)
        if found:
            return (gid, *found)
    raise AssertionError(f"no {label} decision met")


def log_of(app, gid: int) -> list[tuple[str, str]]:
    with Session(db_engine(app)) as s:
        return [(row.seat, row.action) for row in games.log_of(s, gid)]


def phone(browser, base: str, reader):
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ctx.add_cookies([{"name": "session", "url": base,
                      "value": reader.client.get_cookie("session").value}])
    return ctx.new_page()


def sums(page) -> dict:
    return {k: page.locator(f'.plan-total [data-sum="{k}"]').inner_text()
            for k in ("spent", "travel", "left") if page.locator(
                f'.plan-total [data-sum="{k}"]').count()}


def campaigning_with(cp: int):
    """A Campaigning decision of at least ``cp`` CP, with two states of no travel and no
    support checks that take 2 CP each."""
    def wanted(state, seat):
        asks = state.asks(seat)
        plan = asks.get("plan") if asks.get("step") == "campaigning" else None
        return bool(plan) and plan["cp"] >= cp and len(easy(state, seat)) >= 2
    return wanted


def easy(state, seat) -> list[str]:
    plan = state.asks(seat)["plan"]
    legal = {str(a) for a in state.legal_actions(seat)}
    return sorted(st for st in STATES if f"campaign {st} 2" in legal
                  and st not in plan["support_checks"]
                  and (plan["free_travel"] or travel_cost(plan["token"], st) == 0))


def test_campaigning_4_cp_in_two_states_by_taps_only(app, jack, dick, browser):
    gid, seat, step, state = find(app, [jack, dick], campaigning_with(4), " campaign", "camp")
    plan = state.asks(seat)["plan"]
    a, b = easy(state, seat)[:2]
    reader = jack if seat == "kennedy" else dick
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        form = page.locator('form.decision-form[data-kind="campaigning"]')
        assert form.count() == 1
        # The boxes are folded away behind "Type the numbers instead"; the map is at the top.
        assert not page.locator(f'input[name="n.{a}"]').is_visible()
        assert page.locator(".decision-form details.typed-box > summary").inner_text() \
            == "Type the numbers instead"
        tile = page.locator(f'.tap-map g.target[data-state="{a}"]')
        assert tile.get_attribute("role") == "button" and tile.get_attribute("tabindex") == "0"
        assert STATES[a]["name"] in tile.get_attribute("aria-label")
        offered = page.locator('.decision-form input.n').count()
        assert page.locator(".tap-map g.target").count() == offered
        assert page.locator(".tap-map g.inert").count() == 50 - offered
        ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)")
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        # Three taps on the first state and one back with −, a tap on the second and one +.
        for _ in range(3):
            tile.tap()
        row = page.locator(f'.tapped li[data-for="{a}"]')
        assert row.is_visible() and row.locator(".count").inner_text() == "3"
        assert tile.get_attribute("aria-label").endswith("CP planned here: 3")
        row.locator("button.less").tap()
        page.locator(f'.tap-map g.target[data-state="{b}"]').tap()
        page.locator(f'.tapped li[data-for="{b}"] button.more').tap()
        assert page.locator(f'.tapped li[data-for="{b}"] .count').inner_text() == "2"
        assert sums(page) == {"spent": "4", "travel": "0", "left": str(plan["cp"] - 4)}
        # The running total stays in sight (sticky) while the map is tapped.
        page.evaluate("window.scrollTo(0, 0)")
        tile.scroll_into_view_if_needed()
        seen = page.locator(".plan-total").bounding_box()
        assert seen and seen["y"] >= 0 and seen["y"] + seen["height"] <= PHONE["height"], seen
        # The taps are in the form's own fields.
        assert page.locator(f'input[name="n.{a}"]').input_value() == "2"
        assert page.locator(f'input[name="n.{b}"]').input_value() == "2"
        for sel in (".tapped button.less", ".tapped button.more"):
            box = page.locator(sel).first.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (sel, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.screenshot(path="/tmp/look/tap-campaigning-390.png")
        page.locator("section.decision").screenshot(path=str(
            screenshot(page, "tap-campaigning-390").with_name("tap-campaigning-decision.png")))
        with page.expect_navigation():
            page.get_by_role("button", name="Send").tap()
    mine = [x for who, x in log_of(app, gid) if who == seat]
    assert f"campaign {a} 2" in mine and f"campaign {b} 2" in mine, mine[-6:]


def test_the_maps_keyboard_path_enter_and_space_add_one(app, jack, dick, browser):
    gid, seat, step, state = find(app, [jack, dick], campaigning_with(2), " campaign", "keys")
    reader = jack if seat == "kennedy" else dick
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        for _ in range(400):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.matches('.tap-map g.target')"):
                break
        code = page.evaluate("() => document.activeElement.dataset.state")
        assert code, page.evaluate(FOCUSED)
        focus_shown(page)
        page.keyboard.press("Enter")
        row = page.locator(f'.tapped li[data-for="{code}"]')
        assert row.locator(".count").inner_text() == "1"
        page.keyboard.press("Space")
        top = int(page.locator(f'input[name="n.{code}"]').get_attribute("max"))
        assert row.locator(".count").inner_text() == str(min(2, top))
        assert page.evaluate("() => document.activeElement.dataset.state") == code
        # Its − by the keyboard: Tab on to the plan's row and press Enter.
        for _ in range(200):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.matches('.tapped button.less')"):
                break
        page.keyboard.press("Enter")
        assert page.locator(f'input[name="n.{code}"]').input_value() == str(min(2, top) - 1)
        page.screenshot(path="/tmp/look/tap-keyboard-390.png")


def test_advertising_places_every_cube_in_one_submit(app, jack, dick, browser):
    def wanted(state, seat):
        asks = state.asks(seat)
        return asks.get("step") == "advertising" and \
            (state.view(seat).get("decision") or {}).get("left", 0) >= 2
    gid, seat, step, state = find(app, [jack, dick], wanted, " advertise", "adv")
    left = state.view(seat)["decision"]["left"]
    reader = jack if seat == "kennedy" else dick
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        assert page.locator('form.decision-form[data-kind="advertising"]').count() == 1
        rows = page.locator(".rows li[data-code]")
        assert rows.count() == 4
        assert "Media support now:" in rows.first.inner_text()
        first, second = (rows.nth(i).get_attribute("data-code") for i in (0, 1))
        rows.nth(0).locator(".place").tap()            # a tap on the region adds one
        rows.nth(1).locator("button.more").tap()
        rows.nth(1).locator("button.more").tap()
        rows.nth(1).locator("button.less").tap()
        if left >= 3:
            rows.nth(0).locator("button.more").tap()
        placed = 3 if left >= 3 else 2
        assert sums(page) == {"spent": str(placed), "left": str(left - placed)}
        page.screenshot(path="/tmp/look/tap-advertising-390.png")
        with page.expect_navigation():
            page.get_by_role("button", name="Send").tap()
    after = log_of(app, gid)
    mine = [x for who, x in after if who == seat and x.startswith("media ")]
    assert mine[-placed:].count(f"media {first}") == placed - 1 \
        and mine[-placed:].count(f"media {second}") == 1, mine


def test_positioning_by_taps_shows_each_issues_leader_and_price(app, jack, dick, browser):
    def wanted(state, seat):
        asks = state.asks(seat)
        return asks.get("step") == "positioning" and \
            (state.view(seat).get("decision") or {}).get("cp", 0) >= 3
    gid, seat, step, state = find(app, [jack, dick], wanted, " position", "pos")
    cp = state.view(seat)["decision"]["cp"]
    prices = state.asks(seat)["prices"]
    reader = jack if seat == "kennedy" else dick
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        assert page.locator('form.decision-form[data-kind="positioning"]').count() == 1
        row = page.locator(".rows li[data-code]").first
        issue = row.get_attribute("data-code")
        text = row.inner_text()
        assert ("leads" in text or "no cubes" in text) and "Next cube costs" in text, text
        row.locator(".place").tap()
        assert row.locator(".price").inner_text() == "2"  # B3: a further cube costs 2 CP
        row.locator("button.more").tap()
        row.locator("button.more").tap()
        row.locator("button.less").tap()
        assert page.locator(f'input[name="n.{issue}"]').input_value() == "2"
        assert sums(page) == {"spent": str(prices[issue] + 2),
                              "left": str(cp - prices[issue] - 2)}
        page.screenshot(path="/tmp/look/tap-positioning-390.png")
        with page.expect_navigation():
            page.get_by_role("button", name="Send").tap()
    mine = [x for who, x in log_of(app, gid) if who == seat]
    assert mine[-2:] == [f"position {issue}"] * 2, mine[-4:]


def test_the_planner_by_taps_speaks_japanese(app, jack, dick, browser):
    from sqlalchemy import update
    from server.models import User
    gid, seat, step, state = find(app, [jack, dick], campaigning_with(2), " campaign", "ja")
    with Session(db_engine(app)) as s:
        s.execute(update(User).values(locale="ja"))
        s.commit()
    reader = jack if seat == "kennedy" else dick
    code = easy(state, seat)[0]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        assert page.locator(".decision-form details.typed-box > summary").inner_text() \
            == "数を入力する"
        tile = page.locator(f'.tap-map g.target[data-state="{code}"]')
        tile.tap()
        assert tile.get_attribute("aria-label").endswith("ここに予定したCP: 1")
        row = page.locator(f'.tapped li[data-for="{code}"]')
        assert row.locator("button.more").get_attribute("aria-label").endswith("のCPを1増やす")
        assert "選挙人票" in row.inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.locator("section.decision").screenshot(path="/tmp/look/tap-campaigning-ja-390.png")
