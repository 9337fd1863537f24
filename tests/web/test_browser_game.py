"""A complete game of 1960 played in real headless Chromium, by two browser contexts (one per
player, each with its own cookies), only through the pages: sign-in by the mailed link, the
lobby's form, joining, starting, and every decision answered on the game page (a random legal
choice). The Campaign Strategy and Debate steps resolve when both have chosen (Celery runs
inline here). One move is made by following a signed link from a decision mail the test's SMTP
server caught. Screenshots of the board are kept in test-artifacts/screenshots/. No page
served to one seat names a card the other holds, and none shows a traceback."""

from __future__ import annotations

import random
import re

from markupsafe import escape
from sqlmodel import Session, select

from server.games.tmotp.summary import card_name
from server.models import Game, Order
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.pages_helpers import SIGN_IN_LINK, hidden_part, pick_answer

MAX_DECISIONS = 3000


def sign_in(page, base: str, email: str, catcher) -> None:
    before = len(catcher.to(email))
    page.goto(f"{base}/sign-in")
    page.get_by_label("Your email address").fill(email)
    page.get_by_role("button", name="Send me a sign-in link").click()
    page.wait_for_selector("text=Check your mail")
    mail = catcher.wait_for_to(email, before + 1)[-1]
    link = SIGN_IN_LINK.search(mail.get_body(("plain",)).get_content()).group(1)
    page.goto(link)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector(f"text=Signed in as {email}")


def test_a_whole_game_in_two_browsers(tmp_path, api_db_url, smtp_catcher, browser):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        # The players' pages are open and live while they follow a decision mail's link: mail
        # waits for no page here (issue 46, item 5, is tests/web/test_no_mail_while_watching.py).
        app.config["PRESENCE_DELAY_SECONDS"] = 0
        engine = app.extensions["whistlestop.db"]
        with LiveServer(app, port):
            jack_ctx, dick_ctx = browser.new_context(), browser.new_context()
            jack, dick = jack_ctx.new_page(), dick_ctx.new_page()
            sign_in(jack, base, "jack@example.org", smtp_catcher)
            sign_in(dick, base, "dick@example.org", smtp_catcher)

            jack.goto(base + "/")
            # The lobby has a form for each game, each named by its heading.
            new_1960 = jack.get_by_role("form",
                                        name="New game of 1960: The Making of the President")
            new_1960.get_by_label("Opponent's email").fill("dick@example.org")
            new_1960.get_by_role("button", name="Create the game").click()
            gid = int(re.search(r"/games/(\d+)", jack.url).group(1))
            dick.goto(f"{base}/games/{gid}")
            dick.get_by_role("button", name="Take my seat").click()
            jack.goto(f"{base}/games/{gid}")    # it began when Dick took the last seat
            jack.wait_for_selector("#decision-h, #players")
            screenshot(jack, "01-started-kennedy")

            players = {"kennedy": jack, "nixon": dick}
            follow_a_mailed_link(players, smtp_catcher, gid, engine)

            rng, shots, decisions, kinds_shot = random.Random(11), 1, 0, set()
            while decisions < MAX_DECISIONS:
                with Session(engine) as s:
                    game = s.get(Game, gid)
                    status = game.status
                if status == "finished":
                    break
                moved = False
                for seat, page in players.items():
                    with Session(engine) as s:  # the hands as this page is served
                        hands = (s.get(Game, gid).state or {}).get("hands", {})
                    page.goto(f"{base}/games/{gid}")
                    html = page.content()
                    assert "Traceback" not in html
                    other = "nixon" if seat == "kennedy" else "kennedy"
                    board = hidden_part(html)
                    for card in set(hands.get(other, [])) - set(hands.get(seat, [])):
                        assert str(escape(card_name(card))) not in board, (seat, card)
                    fields = pick_answer(html, rng)
                    if fields is None:
                        continue
                    kind = re.search(r'data-kind="(\w+)"', html).group(1)
                    if kind not in kinds_shot:
                        kinds_shot.add(kind)
                        screenshot(page, f"form-{kind}-{seat}")
                    fill(page.locator("form.decision-form"), fields)
                    page.wait_for_load_state()
                    assert "Refused" not in page.content(), page.content()[:3000]
                    decisions += 1
                    moved = True
                    if decisions % 60 == 1:
                        shots += 1
                        screenshot(page, f"{shots:02d}-decision-{decisions}-{seat}")
                assert moved, "nobody has a decision, yet the game is not over"
            assert status == "finished", f"not over after {decisions} decisions"
            assert {"activity", "campaigning", "positioning", "choices"} <= kinds_shot, kinds_shot
            jack.goto(f"{base}/games/{gid}")
            assert "Game over" in jack.content()
            screenshot(jack, "99-final-kennedy")
            jack.emulate_media(media="print")
            screenshot(jack, "99-final-print")
            jack_ctx.close()
            dick_ctx.close()


def fill(form, fields: dict) -> None:
    """Fill the decision form as a player would (tests/web/pages_helpers.pick_answer), send."""
    for name, value in fields.items():
        if name == "action":
            form.locator(f'input[name="action"][value="{value}"]').check()
        elif name == "card":
            for card in value:
                form.locator(f'input[name="card"][value="{card}"]').check()
        elif name == "stop":
            form.locator('input[name="stop"]').check()
        elif name != "step":
            box = form.locator(f'input[name="{name}"]')
            if not box.is_visible():  # a planner's boxes, behind "Type the numbers instead"
                form.locator("details.typed-box > summary").click()
            box.fill(value)
    form.get_by_role("button", name="Send").click()


def follow_a_mailed_link(players: dict, catcher, gid: int, engine) -> None:
    """A seat asked something opens a choice link of its decision mail (the SMTP server's
    copy) in its browser and confirms on the page the link opens: its order is recorded.
    The same link again is refused as used."""
    for seat, page in players.items():
        address = f"{'jack' if seat == 'kennedy' else 'dick'}@example.org"
        html = [m.get_body(("html",)).get_content() for m in catcher.to(address)]
        links = [found.group(1) for found in
                 (re.search(r'href="([^"]+/games/%d/decide/[^"]+)"' % gid, h) for h in html)
                 if found]
        if links:
            break
    assert links, [(m["To"], m["Subject"]) for m in catcher.received()]
    link = links[-1].replace("&amp;", "&")
    before = _orders_of(engine, gid, seat)
    page.goto(link)
    page.get_by_role("button", name="Commit this choice").click()
    page.wait_for_load_state()
    assert _orders_of(engine, gid, seat) == before + 1
    page.goto(link)
    assert "used already" in page.content()
    assert _orders_of(engine, gid, seat) == before + 1


def _orders_of(engine, gid: int, seat: str) -> int:
    with Session(engine) as s:
        return len(s.exec(select(Order).where(Order.game_id == gid, Order.seat == seat)).all())
