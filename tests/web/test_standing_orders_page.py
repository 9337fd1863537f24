"""Standing orders on the game page and at the start (issue 26, item 3): the reader's seat sets
its game's policies and its default order from the game page (server/web/standing_orders.py,
templates/web/_standing_orders.html), through server/services/standing.py, and they answer the
decisions they name instead of asking; the lobby's new-game form and the join step offer the same
policies with the suggested values preselected and file them; a refused value keeps the input
and changes nothing; the section fits a 390 px phone in Chromium."""

from __future__ import annotations

import html
import random
import re

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

import engine.core as game_engine
from engine.games.tmotp.standing import SUGGESTED
from server.models import AutoOrder, Game, User
from server.services import games as svc
from server.services import standing
from server.web.pages import environment
from tests.server.api.conftest import running_app
from tests.server.api.helpers import _play_one
from tests.services import free_port
from tests.web.browser import ARTIFACTS, LiveServer, browser  # noqa: F401  (fixture)
from tests.web.pages_helpers import csrf, db_engine, new_game
from tests.web.test_browser_game import sign_in
from tests.web.test_forms_cards_and_refusals import _new_game
from tests.web.test_page_sweep import VIEWPORTS, problems

SEED = "standing-page"

CHECKED = re.compile(r'type="radio" name="standing_(\w+)" value="(\w+)" checked')


def checked(page: str) -> dict[str, str]:
    """{kind: value} of the standing-order radios checked on a page."""
    return dict(CHECKED.findall(page))


def filed(app, gid: int) -> dict:
    with Session(db_engine(app)) as s:
        return standing.of_game(s, gid)


def save(reader, gid: int, **fields):
    return reader.post_form(f"/games/{gid}", f"/games/{gid}/standing-orders",
                            {f"standing_{k}": v for k, v in fields.items()})


def test_a_trigger_order_set_on_the_game_page_answers_instead_of_asking(app, jack, dick):
    # A game of a fixed seed, in which both seats meet the question: with a random one the
    # test failed once (stop 35), in a game where Nixon was never asked about an event before
    # the loop below ended.
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], SEED)
    page = jack.get(f"/games/{gid}").data.decode()
    assert 'id="standing-orders"' in page and "Your opponent&#39;s events" in page
    assert checked(page) == {"trigger": "ask", "second_place": "ask", "debate_side": "ask",
                             "strategy_order": "ask"}
    saved = save(jack, gid, trigger="never", second_place="ask", debate_side="mine",
                 deadline_default="")
    assert saved.status_code == 303 and "standing=saved" in saved.headers["Location"]
    page = jack.get(saved.headers["Location"]).data.decode()
    assert "Saved: your standing orders" in page
    assert checked(page) == {"trigger": "never", "second_place": "ask", "debate_side": "mine",
                             "strategy_order": "ask"}
    assert filed(app, gid) == {"kennedy": {"trigger": "never", "debate_side": "mine"}}
    # The other seat's page shows its own orders, none filed.
    assert checked(dick.get(f"/games/{gid}").data.decode())["trigger"] == "ask"

    # Played on: Kennedy is never asked a trigger decision, his policy answers it (an
    # AutoOrder, for his next mail); Nixon, who filed none, is asked.
    rng, nixon_asked, given = random.Random(26), 0, []
    engine = db_engine(app)
    for _ in range(3000):
        with Session(engine) as s:
            game = s.get(Game, gid)
            state = game_engine.from_dict(game.state)
            for seat in state.active():
                step = (state.asks(seat) or {}).get("step")
                assert not (seat == "kennedy" and step == "trigger"), game.step
                nixon_asked += seat == "nixon" and step == "trigger"
            given = s.exec(select(AutoOrder).where(AutoOrder.game_id == gid,
                                                   AutoOrder.rule == "trigger:never")).all()
            if (given and nixon_asked) or game.status != "active":
                break
            _play_one(s, gid, rng)
    assert nixon_asked, "Nixon, without a policy, is asked"
    assert given and all(a.seat == "kennedy" and a.actions == ["pass"]
                         and a.source == "standing" for a in given)


def test_a_refused_standing_order_keeps_the_input_and_changes_nothing(app, jack, dick):
    gid = new_game(jack, dick)
    assert save(jack, gid, trigger="always", second_place="ask",
                deadline_default="play 1 campaign").status_code == 303
    before = filed(app, gid)
    assert before == {"kennedy": {"trigger": "always",
                                  "deadline_default": ["play 1 campaign"]}}

    # A default order line that is not in the notation: refused beside its field, what was
    # posted shown again (the radios as chosen, the lines as typed), nothing filed.
    refused = save(jack, gid, trigger="never", second_place="endorsement",
                   deadline_default="frobnicate 3\nplay 2 campaign")
    page = refused.data.decode()
    assert refused.status_code == 422
    assert "Your standing orders were not changed" in page
    assert 'id="standing-default-error"' in page and "frobnicate" in page
    assert ">frobnicate 3\nplay 2 campaign</textarea>" in html.unescape(page)
    assert checked(page) == {"trigger": "never", "second_place": "endorsement",
                             "debate_side": "ask", "strategy_order": "ask"}
    assert "<details open" in page
    assert filed(app, gid) == before

    # A value the game does not declare (a forged form): refused beside its group.
    forged = save(jack, gid, trigger="sometimes", deadline_default="")
    assert forged.status_code == 422
    assert 'id="standing-trigger-error"' in forged.data.decode()
    assert filed(app, gid) == before

    # Without the page's CSRF token, or by a spectator: nothing.
    assert jack.client.post(f"/games/{gid}/standing-orders",
                            data={"standing_trigger": "never"}).status_code == 400
    assert filed(app, gid) == before


def test_the_section_is_gathered_by_the_view_not_read_by_the_template(app, jack, dick):
    """The page's view passes the section (server/web/standing_section.py): no template
    global reads the database while a page renders; the section shows on the game page and
    on the page of a refused order, with what is filed."""
    for loc in ("en", "ja", "es"):
        assert "standing_orders_section" not in environment(loc).globals, loc
    assert "standing_orders_section" not in app.jinja_env.globals
    gid = new_game(jack, dick, public="on")
    assert save(jack, gid, trigger="never", second_place="ask", debate_side="mine",
                deadline_default="").status_code == 303
    shown = {"trigger": "never", "second_place": "ask", "debate_side": "mine",
             "strategy_order": "ask"}
    page = jack.get(f"/games/{gid}").data.decode()
    assert 'id="standing-orders"' in page and checked(page) == shown
    with Session(db_engine(app)) as s:
        step = s.get(Game, gid).step
    refused = jack.post_form(f"/games/{gid}", f"/games/{gid}/order",
                             {"step": step, "lines": "campaign XX 9"})
    page = refused.data.decode()
    assert refused.status_code in (409, 422), refused.status_code
    assert 'class="refused"' in page
    assert 'id="standing-orders"' in page and checked(page) == shown
    # The other seat's page: its own section, nothing filed; a spectator's: none.
    assert checked(dick.get(f"/games/{gid}").data.decode())["trigger"] == "ask"
    watched = app.test_client().get(f"/games/{gid}")
    assert watched.status_code == 200 and 'id="standing-orders"' not in watched.data.decode()


def test_the_choices_of_the_new_game_form_and_the_join_step_are_filed(app, jack, dick):
    lobby = jack.get("/").data.decode()
    offered = checked(lobby)
    assert offered == SUGGESTED          # the lobby's 1960 form: the suggested values
    answer = jack.post_form("/", "/games/new", {
        "game_type": "tmotp", "opponent": dick.email, "seat": "nixon", "edition": "gmt",
        "standing_trigger": "always", "standing_second_place": "endorsement",
        "standing_debate_side": "ask"})
    assert answer.status_code == 303, answer.data[:800]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert filed(app, gid) == {"nixon": {"trigger": "always", "second_place": "endorsement"}}

    # The join step files the joiner's choices for the seat taken (the form's fields as the
    # join partial, templates/web/_standing_join.html, names them).
    bad = dick.post_form(f"/games/{gid}", f"/games/{gid}/join",
                         {"standing_trigger": "sometimes"})
    assert bad.status_code == 422 and "sometimes" in html.unescape(bad.data.decode())
    assert filed(app, gid) == {"nixon": {"trigger": "always", "second_place": "endorsement"}}
    joined = dick.post_form(f"/games/{gid}", f"/games/{gid}/join", {
        "standing_trigger": "helps_me", "standing_second_place": "ask",
        "standing_debate_side": "mine"})
    assert joined.status_code == 303, joined.data[:800]
    assert filed(app, gid) == {"nixon": {"trigger": "always", "second_place": "endorsement"},
                               "kennedy": {"trigger": "helps_me", "debate_side": "mine"}}
    # A forged value on the new-game form is refused and creates nothing.
    with Session(db_engine(app)) as s:
        games_before = len(s.exec(select(Game)).all())
    forged = jack.post_form("/", "/games/new", {
        "game_type": "tmotp", "opponent": dick.email, "seat": "nixon", "edition": "gmt",
        "standing_trigger": "sometimes"})
    assert forged.status_code == 422
    with Session(db_engine(app)) as s:
        assert len(s.exec(select(Game)).all()) == games_before


def test_the_join_partial_offers_the_suggested_values(app):
    """templates/web/_standing_join.html, for a join form: the suggested values checked; for
    a game without policies, nothing."""
    with app.test_request_context("/"):
        template = environment("en").get_template("_standing_join.html")
        shown = template.render(game=Game(game_type="tmotp"), csrf_token=lambda: "")
        none = template.render(game=Game(game_type="mrpresident"), csrf_token=lambda: "")
    assert checked(shown) == SUGGESTED
    assert "standing_" not in none


def test_the_section_fits_a_phone(tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    """At 390x844 in Chromium, the opened section (after a save) does not widen the page, its
    text is at least 12 px, each choice is a tap target at least 44 px high, and axe finds no
    serious or critical violation."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"])
            page = context.new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            with Session(app.extensions["whistlestop.db"]) as s:
                jack = s.exec(select(User).where(User.email == "jack@example.org")).one()
                gid = svc.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": None},
                                      seed="standing-phone").id
            page.goto(f"{base}/games/{gid}")
            page.get_by_text("Your standing orders").click()
            page.get_by_label("Only the events that help me").check()
            page.get_by_role("button", name="Save my standing orders").click()
            page.wait_for_selector("text=Saved: your standing orders")
            found = problems(page, Axe(), "standing orders [phone]")
            sizes = page.evaluate("""() => {
              const s = document.getElementById('standing-orders');
              const texts = [...s.querySelectorAll('legend, label, p, span, summary, button')]
                .filter(e => e.getBoundingClientRect().height > 0)
                .map(e => parseFloat(getComputedStyle(e).fontSize));
              const taps = [...s.querySelectorAll('label.standing-choice, button, summary')]
                .map(e => e.getBoundingClientRect().height);
              const box = s.getBoundingClientRect();
              return {font: Math.min(...texts), tap: Math.min(...taps), right: box.right,
                      width: document.documentElement.clientWidth};
            }""")
            (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
            page.locator("#standing-orders").screenshot(
                path=str(ARTIFACTS / "screenshots" / "standing-orders-phone.png"))
            context.close()
        with Session(app.extensions["whistlestop.db"]) as s:
            assert standing.of_game(s, gid) == {"kennedy": {"trigger": "helps_me"}}
    assert not found, "\n".join(found)
    assert sizes["font"] >= 12 and sizes["tap"] >= 44, sizes
    assert sizes["right"] <= sizes["width"], sizes
