"""The keyboard alone, in real Chromium (issue 26, item 8): reach a field with Tab, choose a
radio with the arrow keys, tick with Space, type, and press a button with Enter; no click. And
whether the focused element can be seen: a focus indicator (an outline or a box shadow) and not
hidden under another element (the planners' sticky running total, say)."""

from __future__ import annotations

MAX_TABS = 600

# Which element has the focus now: [tag, name, value, type, text] (the button's text).
FOCUSED = """() => { const e = document.activeElement;
  return e ? [e.tagName, e.getAttribute('name') || '', e.value || '', e.type || '',
              (e.textContent || '').trim()] : null; }"""

# How the focused element shows it has the focus: its outline style, its box shadow, and
# whether the element under the middle of it on the screen is itself (or its label).
FOCUS_SHOWN = """() => { const e = document.activeElement, s = getComputedStyle(e);
  const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  const seen = !!top && (top === e || e.contains(top) || (e.labels && [...e.labels].some(
      l => l.contains(top))));
  const over = top && !seen ? top.tagName + '.' + (top.className || '') : null;
  return {outline: s.outlineStyle, width: s.outlineWidth, shadow: s.boxShadow, seen: seen, over: over,
          inside: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth}; }"""


def tab_to(page, want, back: bool = False) -> None:
    """Press Tab (Shift+Tab if ``back``) until ``want(focused)`` holds (FOCUSED's list)."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if want(page.evaluate(FOCUSED)):
            return
    raise AssertionError("the keyboard never reached the field")


def button(text: str):
    """A ``tab_to`` test: the focus is on the button (or submit input) saying ``text``."""
    return lambda f: f and f[0] == "BUTTON" and f[4] == text


def focus_shown(page) -> dict:
    """Assert the focused element shows its focus and is in sight, not covered; its styles."""
    shown = page.evaluate(FOCUS_SHOWN)
    assert shown["outline"] != "none" or shown["shadow"] != "none", (
        page.evaluate(FOCUSED), shown)
    assert shown["inside"] and shown["seen"], (page.evaluate(FOCUSED), shown)
    return shown


def press(page, text: str) -> None:
    """Tab to the button saying ``text`` and press Enter: the page it posts to is loaded."""
    tab_to(page, button(text))
    focus_shown(page)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def choose(page, name: str, value: str) -> None:
    """Tab into the radio group ``name``, move to ``value`` with the arrow keys (which also
    select it) and press Space (the group's first radio is focused, not yet chosen)."""
    tab_to(page, lambda f: f and f[1] == name and f[3] == "radio")
    for _ in range(MAX_TABS):
        if page.evaluate(FOCUSED)[2] == value:
            break
        page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED)[2] == value, (name, value)
    page.keyboard.press("Space")
    assert page.locator(f'input[name="{name}"][value="{value}"]').is_checked(), (name, value)


def by_keyboard(page, fields: dict, shown: bool = False) -> None:
    """Answer the decision form with the keyboard only (``fields`` as
    tests/web/pages_helpers.pick_answer gives them): each field reached by Tab, a radio group's
    choice by the arrow keys, boxes ticked with Space, numbers typed, and the form sent from its
    Send button with Enter. ``shown``: also check that each field reached and the Send button
    show their focus (focus_shown)."""
    for name, value in fields.items():
        if name == "step":
            continue
        if name in ("action", "second_card"):
            choose(page, name, value)
        elif name == "card":
            for card in value:
                tab_to(page, lambda f, c=card: f and f[1] == "card" and f[2] == str(c))
                page.keyboard.press("Space")
                assert page.locator(f'input[name="card"][value="{card}"]').is_checked()
        elif name == "stop":
            tab_to(page, lambda f: f and f[1] == "stop")
            page.keyboard.press("Space")
            assert page.locator('input[name="stop"]').is_checked()
        else:
            # A planner's boxes folded behind "Type the numbers instead": opened by Enter.
            fold = page.locator(f'input[name="{name}"]').evaluate(
                "e => { const d = e.closest('details');"
                " return d && !d.open ? d.querySelector('summary').textContent.trim() : null; }")
            if fold:
                tab_to(page, lambda f, t=fold: f and f[0] == "SUMMARY" and f[4] == t)
                page.keyboard.press("Enter")
            tab_to(page, lambda f, n=name: f and f[1] == n)
            page.keyboard.press("Control+A")
            page.keyboard.type(str(value))
            assert page.locator(f'input[name="{name}"]').input_value() == str(value)
        if shown:
            focus_shown(page)
    tab_to(page, button("Send"))
    if shown:
        focus_shown(page)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def new_game_against_a_bot(page, base: str, engine, seed: str, ask_triggers: bool = False) -> int:
    """From the lobby (``page`` signed in): a new 1960 game against the random bot, started
    with ``seed`` (the same game every time: the seed is set before the start draws anything);
    ``ask_triggers``: the player is asked about the opponent's events (standing order "ask").
    Returns the game's id; the page is the game's page."""
    import re

    from sqlmodel import Session

    from server.models import Game
    from server.services.users import sha256_hex

    page.goto(base + "/")
    new_1960 = page.get_by_role("form", name="New game of 1960: The Making of the President")
    new_1960.get_by_label("Your opponent", exact=True).select_option("random")
    if ask_triggers:
        new_1960.locator("summary.standing-summary").click()
        new_1960.locator('input[name="standing_trigger"][value="ask"]').check()
    new_1960.locator('input[name="start_by_hand"]').check()   # the seed is set first
    new_1960.get_by_role("button", name="Create the game").click()
    gid = int(re.search(r"/games/(\d+)", page.url).group(1))
    with Session(engine) as s:
        game = s.get(Game, gid)
        game.seed, game.seed_hash = seed, sha256_hex(seed)
        s.add(game)
        s.commit()
    page.get_by_role("button", name="Start the game").click()
    return gid
