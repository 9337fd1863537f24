"""1960's decision forms on a phone, in real headless Chromium at 390x844: the Campaigning
planner is a block per state with no element wider than the viewport, its boxes and choices at
least 44 px high, and a running total of CP, travel and CP left that follows what is typed (the
travel the server's order of least travel would cost); a plan the engine refuses comes back
filled in with the focus on the box it is about. The trigger question shows the card whole.
Screenshots are kept in test-artifacts/screenshots/ (forms-*)."""

from __future__ import annotations

from engine.games.tmotp.data import travel_cost
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_decision_form import _drive_to
from tests.web.test_forms_cards_and_refusals import _new_game, _state

WIDE = """(root) => {
  const width = window.innerWidth, out = [];
  for (const el of [...document.querySelectorAll(root + ', ' + root + ' *')]) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5)
      out.push(`${el.tagName}.${el.getAttribute('class') || ''} ${r.left.toFixed(1)}..${r.right.toFixed(1)}`);
  }
  return out;
}"""
HEIGHTS = """() => [...document.querySelectorAll(
  '.decision-form input.n, .decision-form select, .decision-form label')]
  .filter(el => el.getBoundingClientRect().height > 0 && !el.classList.contains('sr'))
  .map(el => [el.tagName + ' ' + (el.getAttribute('name') || el.textContent.trim().slice(0, 30)),
              el.getBoundingClientRect().height])"""


def _shoot(page, name: str) -> None:
    """The whole page, and the decision section alone (to look at at its real size)."""
    path = screenshot(page, name)
    page.locator("section.decision").screenshot(path=str(path.with_name(name + "-decision.png")))
    page.screenshot(path=str(path.with_name(name + "-view.png")))  # what the phone shows now


def _phone(browser, base: str, reader):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_cookies([{"name": "session", "url": base,
                      "value": reader.client.get_cookie("session").value}])
    return ctx.new_page()


def test_the_planner_fits_a_phone_and_totals_as_you_type(app, jack, dick, browser):
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "browser/plan")
    seat, step = _drive_to(app, gid, "campaigning", seed=5)
    _step, state = _state(app, gid)
    plan = state.asks(seat)["plan"]
    reader = jack if seat == "kennedy" else dick
    trigger_gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "browser/trigger")
    trigger_seat, _t = _drive_to(app, trigger_gid, "trigger", seed=3)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with LiveServer(app, port):
        page = _phone(browser, base, reader)
        page.goto(f"{base}/games/{gid}")
        assert page.locator('form.decision-form[data-kind="campaigning"]').count() == 1
        assert page.evaluate(WIDE, ".decision") == []
        low = [h for h in page.evaluate(HEIGHTS) if h[1] < 44]
        assert low == [], low[:10]
        total = page.locator(".plan-total")
        assert total.is_visible()
        # The boxes are behind "Type the numbers instead" (the map is tapped above them).
        page.locator(".decision-form details.typed-box > summary").click()
        # Type into a box far from the token: CP spent, the travel there, and what is left.
        boxes = page.locator(".decision-form input.n")
        names = [boxes.nth(i).get_attribute("name") for i in range(boxes.count())]
        far = max(names, key=lambda n: travel_cost(plan["token"], n[2:]))
        moved = 0 if plan["free_travel"] else travel_cost(plan["token"], far[2:])
        page.locator(f'input[name="{far}"]').fill("1")
        assert total.locator('[data-sum="spent"]').inner_text() == "1"
        assert total.locator('[data-sum="travel"]').inner_text() == str(moved)
        assert total.locator('[data-sum="left"]').inner_text() == str(plan["cp"] - 1 - moved)
        # More than the card's CP: the total says so before anything is sent.
        near = min(names, key=lambda n: travel_cost(plan["token"], n[2:]))
        for name in (far, near):  # each box at the most it may take alone
            box = page.locator(f'input[name="{name}"]')
            box.fill(box.get_attribute("max"))
        assert total.locator(".over").is_visible()
        _shoot(page, "forms-planner-390")
        typed = {n: page.locator(f'input[name="{n}"]').input_value() for n in (far, near)}
        page.get_by_role("button", name="Send").click()
        page.wait_for_selector("#why")
        # Refused by the engine: the boxes as typed, the focus on the box the refusal is about.
        assert {n: page.locator(f'input[name="{n}"]').input_value() for n in typed} == typed
        focused = page.evaluate("() => [document.activeElement.name, "
                                "document.activeElement.getAttribute('aria-invalid')]")
        assert focused[0] in typed and focused[1] == "true", focused
        # The tapped plan above shows the same plan, the refused state marked with the reason.
        refused = page.locator(f'.tapped li.refused[data-for="{focused[0][2:]}"]')
        assert refused.locator(".count").inner_text() == typed[focused[0]]
        assert refused.locator(".why").inner_text() == page.locator("#why").inner_text()
        assert page.locator(f'.tap-map g.refused[data-state="{focused[0][2:]}"]').count() == 1
        assert page.evaluate(WIDE, ".decision") == []
        _shoot(page, "forms-planner-refused-390")
        assert _state(app, gid)[0] == step

        trigger_page = _phone(browser, base, jack if trigger_seat == "kennedy" else dick)
        trigger_page.goto(f"{base}/games/{trigger_gid}")
        card = trigger_page.locator('.decision-form[data-kind="card"] .face')
        assert card.locator(".effect").inner_text().strip()
        assert card.locator(".favours").is_visible()
        assert trigger_page.evaluate(WIDE, ".decision") == []
        _shoot(trigger_page, "forms-trigger-390")
