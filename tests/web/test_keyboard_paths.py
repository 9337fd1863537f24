"""The game page's other paths with the keyboard alone, on a phone (390x844) in real headless
Chromium (issue 26, item 8; the decision forms of a whole 1960 game are keyed in
test_browser_bot_game.py): a standing order set in the "Your standing orders" section (opened
with Enter on its summary, chosen with the arrow keys, saved with Enter) and kept after a
reload; a forced single choice's "Go on"; resigning with its confirmation; and a few decisions
of a three-seat Mr. President game (you and two bots). No click after the game is set up, and
every control reached shows its focus (tests/web/keyboard.py)."""

from __future__ import annotations

import random
import re

import engine.core as game_engine
from sqlmodel import Session

from server.models import Game
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser  # noqa: F401  (fixture)
from tests.web.keyboard import (by_keyboard, choose, focus_shown, new_game_against_a_bot, press,
                                tab_to)
from tests.web.test_browser_game import sign_in

PHONE = {"width": 390, "height": 844}
# The game's seed: a game whose first decision of Jack's is a choice (the initiative's winner
# choosing who goes first), made a forced single choice below.
SEED = "e"
SAVED = "Saved: your standing orders answer for you from the next such decision on."


def summary(text: str):
    """A ``tab_to`` test: the focus is on the <summary> saying ``text``."""
    return lambda f: f and f[0] == "SUMMARY" and f[4] == text


def open_section(page, text: str) -> None:
    """Tab to the <details> section's summary saying ``text`` and open it with Enter."""
    tab_to(page, summary(text))
    focus_shown(page)
    page.keyboard.press("Enter")
    assert page.locator("details", has=page.locator("summary", has_text=text)).evaluate(
        "d => d.open"), text


def test_standing_order_forced_choice_and_resign_by_keyboard_on_a_phone(
        tmp_path, api_db_url, smtp_catcher, browser, monkeypatch):  # noqa: F811
    from server.services import games

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            page = browser.new_context(viewport=PHONE).new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            gid = new_game_against_a_bot(page, base, engine, SEED)  # the same game every time
            game_page = f"{base}/games/{gid}"

            # a standing order: the section opened, a choice by the arrow keys, saved by Enter
            page.goto(game_page)
            never = page.locator('input[name="standing_trigger"][value="never"]')
            assert not never.is_checked()
            open_section(page, "Your standing orders")
            choose(page, "standing_trigger", "never")
            focus_shown(page)  # a radio shows its focus
            press(page, "Save my standing orders")
            assert page.get_by_role("status").filter(has_text=SAVED).count() == 1
            page.goto(game_page)
            assert never.is_checked()

            # a forced single choice: Tab to "Go on", Enter (one legal action made so here)
            real = games.decision_for
            monkeypatch.setattr(games, "decision_for",
                                lambda *a, **kw: _first_only(real(*a, **kw)))
            for _ in range(50):
                page.goto(game_page)
                if page.get_by_role("button", name="Go on").count():
                    break
                page.wait_for_timeout(100)  # the bot's move first
            else:
                raise AssertionError("no forced choice came: "
                                     + page.locator("section.decision").inner_text())
            forced = page.locator("#forced").inner_text()
            assert forced.startswith("Only one move is possible here:"), forced
            steps = _log_length(engine, gid)
            press(page, "Go on")
            assert "Refused" not in page.content()
            assert page.locator("p.done[role=status]").count() == 1
            assert _log_length(engine, gid) > steps
            monkeypatch.setattr(games, "decision_for", real)

            # resign: the section opened by Enter, its confirming button pressed by Enter
            page.goto(game_page)
            open_section(page, "Resign this game")
            press(page, "Yes, resign the game")
            page.goto(game_page)
            assert page.get_by_role("heading", name="Game over").count() == 1
            with Session(engine) as s:
                assert s.get(Game, gid).status == "finished"
            assert page.get_by_role("button", name="Send").count() == 0


def test_a_few_decisions_of_mr_president_by_keyboard_on_a_phone(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        with LiveServer(app, port):
            page = browser.new_context(viewport=PHONE).new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            page.goto(base + "/")
            form = page.locator("form#new-mrpresident")
            form.get_by_label("Candidates (players)").select_option("3")
            form.locator("#mp-bot-p2").select_option("random")
            form.locator("#mp-bot-p3").select_option("random")
            form.get_by_role("button", name="Create a Mr. President game").click()
            gid = int(re.search(r"/games/(\d+)", page.url).group(1))   # begun: bots only

            rng, keyed, waits, paired = random.Random(8), 0, 0, False
            while keyed < 3:
                page.goto(f"{base}/games/{gid}")
                html = page.content()
                if 'class="decision-form"' not in html or 'class="replace"' in html:
                    waits += 1  # the bots have not answered yet
                    assert waits < 100, "nothing to decide, and the bots do not move"
                    page.wait_for_timeout(100)
                    continue
                values = page.locator('form.decision-form input[name="action"]').evaluate_all(
                    "es => es.map(e => e.value)")
                fields = {"action": rng.choice(values)}
                seconds = page.locator('form.decision-form input[name="second_card"]')
                if seconds.count() and not paired:  # a second radio group, once
                    first = fields["action"].split()[1]
                    fields["second_card"] = rng.choice([
                        v for v in seconds.evaluate_all("es => es.map(e => e.value)")
                        if v and v != first])
                    paired = True
                by_keyboard(page, fields, shown=True)
                text = page.content()
                assert "Refused" not in text and "Traceback" not in text, text[:3000]
                assert page.locator("p.done[role=status]").count() == 1
                keyed += 1
            assert paired, "no second card was offered"
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= PHONE["width"], f"the game page is {wide} px wide"


def _first_only(decision: dict | None) -> dict | None:
    """The decision with only its first legal action: a forced choice."""
    if not decision or not decision["legal_actions"]:
        return decision
    return {**decision, "legal_actions": decision["legal_actions"][:1]}


def _log_length(db, gid: int) -> int:
    with Session(db) as s:
        return game_engine.from_dict(s.get(Game, gid).state).log_length()
