"""1960's board and hand on a phone and on a desktop, in real headless Chromium (390x844 and
1366x900): one game between two signed-in players, played by random legal orders through the
order service, looked at by Kennedy's player at its start, in the middle of a turn, during the
Debates and when it is over. On every look: no element of the board, the Debate Board or the
hand reaches past the viewport; every <text> of the map renders at least 12 px high (measured
by getBoundingClientRect, not in SVG units); the score says how many electoral votes win. During
the Debates the Debate Board shows the issues in track order with the cards played to each
side, and the reader's strategy cards are shown once: in the decision form when it offers them,
else on the Debate Board (Flask's client checks both, and a spectator's page). Screenshots are
kept in test-artifacts/screenshots/ (phone-board-*)."""

from __future__ import annotations

import html
import random
import re

from sqlalchemy import update
from sqlmodel import Session

from server.games.tmotp import board as board_tmotp
from server.models import User
from tests.server.test_fairness import play
from tests.services import free_port
from tests.web.browser import ARTIFACTS, LiveServer, browser, screenshot  # noqa: F401
from tests.web.pages_helpers import db_engine, new_game

SIZES = {"phone": (390, 844), "desktop": (1366, 900)}
PARTS = ".board, .debate-board, section.hand"

# What reaches past the viewport: my parts' elements, and (reported, not asserted) the page's.
MEASURE = """(parts) => {
  const width = window.innerWidth, out = [];
  for (const root of document.querySelectorAll(parts)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > width + 0.5 || r.left < -0.5)
        out.push(`${el.tagName}.${el.getAttribute('class') || ''} ${r.left}..${r.right}`);
    }
  }
  return {wide: out, scroll: document.scrollingElement.scrollWidth, width: width};
}"""
TEXTS = """() => [...document.querySelectorAll('svg.board-map text')].map(t => {
  const r = t.getBoundingClientRect();
  return [t.textContent, r.height, r.width];
})"""
# The texts of a token's tile that a token's disc reaches (by their drawn boxes, side by side).
HIDDEN = """() => [...document.querySelectorAll('svg.board-map g.token')].flatMap(g => {
  const c = g.querySelector('circle').getBoundingClientRect();
  const tile = document.querySelector(`svg.board-map g.state[data-state="${g.dataset.at}"]`);
  return [...tile.querySelectorAll('text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < c.right - 0.5 && c.left < r.right - 0.5 && r.top < c.bottom && c.top < r.bottom;
  }).map(t => `${g.dataset.token} ${g.dataset.at} ${t.textContent}`);
})"""
# The page's own elements that stick out, for the report (other parts of the page).
OVERFLOW = """() => [...document.querySelectorAll('body *')].filter(el => {
  const r = el.getBoundingClientRect();
  return r.right > window.innerWidth + 0.5 && !el.closest('.board, .debate-board, section.hand');
}).slice(0, 8).map(el => `${el.tagName}.${el.getAttribute('class') || ''}#${el.id}`)"""


def debates_view(**changes) -> dict:
    """A Kennedy view in the Debates: Civil Rights won first by Nixon, Defense then by Kennedy,
    Economy still open; Harvard Brain Trust (35) in force."""
    view = {"initiative": "nixon", "issue_track": [None, "defense", "civil_rights"],
            "persistent": {"debate": [35], "election_day": [], "prevention": []},
            "debate": {"tiles": {
                "defense": {"position": 1, "kennedy": [1, 20], "nixon": [12], "won": "kennedy"},
                "economy": {"position": 2, "kennedy": [], "nixon": [70], "won": None},
                "civil_rights": {"position": 0, "kennedy": [59], "nixon": [3, 3],
                                 "won": "nixon"}},
                "awarded": 2, "cards_left": {"kennedy": 2, "nixon": 1},
                # As the engine's view gives them (engine/games/tmotp/view.py::_debate_view).
                "totals": {"defense": {"kennedy": 4 + 4 + 1, "nixon": 3},
                           "economy": {"kennedy": 1, "nixon": 4},
                           "civil_rights": {"kennedy": 3 + 1, "nixon": 3 + 3}},
                "awards": {"defense": 3, "economy": None, "civil_rights": 2},
                "next_award": 4,
                "my_cards": [7, 62], "revealed": {}}}
    view.update(changes)
    return view


def test_the_debate_board_from_a_view():
    board = board_tmotp.debate_board(debates_view(), "kennedy", "en")
    assert [i["issue"] for i in board["issues"]] == ["civil_rights", "defense", "economy"]
    assert [i["position"] for i in board["issues"]] == [1, 2, 3]
    civil, defense, economy = board["issues"]
    # The first issue won lies third on the track (2 cubes), the second second (3 cubes).
    assert (civil["winner"], civil["award"]) == ("Nixon", 2)
    assert (defense["winner"], defense["award"]) == ("Kennedy", 3)
    assert (economy["won"], economy["award"]) == (None, None) and board["next_award"] == 4
    k, n = defense["sides"]
    assert [c["id"] for c in k["cards"]] == [1, 20] and [c["id"] for c in n["cards"]] == [12]
    assert (k["cp"], k["bonus"], n["cp"]) == (4 + 4 + 1, 1, 3)   # Harvard Brain Trust: +1
    assert [c["id"] for c in board["mine"]] == [7, 62]
    assert [(x["seat"], x["n"]) for x in board["left"]] == [("kennedy", 2), ("nixon", 1)]
    assert board["initiative"] == "Nixon"
    # A spectator sees no strategy cards; outside the Debates there is no Debate Board.
    assert board_tmotp.debate_board(debates_view(), None, "en")["mine"] == []
    assert board_tmotp.debate_board(debates_view(debate=None), "kennedy", "en") is None
    ja = board_tmotp.debate_board(debates_view(), "kennedy", "ja")
    assert ja["issues"][0]["name"] == "公民権" and ja["issues"][0]["winner"] == "ニクソン"


def test_a_card_of_the_hand_has_its_icons_seat_and_the_states_name():
    card = board_tmotp.card(64, "en")
    assert (card["name"], card["cp"], card["icon_seat"], card["issue"]) == (
        "Stump Speech (64)", 4, "both", "Economy")
    assert card["effect"] and board_tmotp.card(1, "en")["state_name"] == "New York"


def _main(page: str) -> str:
    """The words of the page's main part before the log (the log may name cards played)."""
    main = page.split("<main>", 1)[1].split("</main>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", " ", main.split('aria-labelledby="log-h"', 1)[0]))


def _asked(state, seat: str, step: str) -> bool:
    return (state.asks(seat) or {}).get("step") == step


def test_in_the_debates_each_strategy_card_is_shown_once(app, jack, dick):
    """With a Debate card to choose, the reader's strategy cards are in the decision form, not
    again on the Debate Board; without that form the Debate Board lists them; a spectator
    sees neither seat's."""
    gid = new_game(jack, dick, public="on")
    engine = db_engine(app)
    readers, rng = {"kennedy": jack, "nixon": dick}, random.Random(26)
    with Session(engine) as session:
        state = play(session, gid, rng, until=lambda s: bool(s.s.get("debate")) and any(
            _asked(s, x, "debate_round") for x in readers))
    assert state.s.get("debate"), "the game ended before the Debates"
    seat = next(x for x in readers if _asked(state, x, "debate_round"))
    mine = state.s["debate"]["cards"][seat]
    page = readers[seat].get(f"/games/{gid}").data.decode()
    # the decision's choices (its board part, the Debate Board, is shown under its prompt)
    form = page.split('<div class="ask">', 1)[1].split("</section>", 1)[0]
    debate = page.split('class="debate-board"', 1)[1].split("</section>", 1)[0]
    words = _main(page)
    assert mine
    for c in mine:
        name = board_tmotp.card(c, "en")["name"]
        assert f'value="debate {c}"' in form, c
        assert name in html.unescape(form) and name not in html.unescape(debate), name
        assert words.count(name) == 1, (name, words.count(name))
    assert "Your strategy cards are among the choices of your decision." in words
    assert "li class=\"card" not in debate

    # A spectator: the Debate Board without either seat's strategy cards.
    watched = app.test_client().get(f"/games/{gid}").data.decode()
    assert watched.count('class="debate-board"') == 1
    for x in readers:
        for c in state.s["debate"]["cards"][x]:
            assert board_tmotp.card(c, "en")["name"] not in _main(watched), (x, c)
    assert "Your strategy cards" not in watched

    # Still in the Debates, a seat with strategy cards left that is not asked for one: the
    # Debate Board lists them, each once.
    def waiting(s) -> bool:
        return bool(s.s.get("debate")) and any(
            s.s["debate"]["cards"][x] and not _asked(s, x, "debate_round") for x in readers)
    with Session(engine) as session:
        state = play(session, gid, rng, until=waiting)
    assert waiting(state), "the Debates ended with no such moment"
    seat = next(x for x in readers if state.s["debate"]["cards"][x]
                and not _asked(state, x, "debate_round"))
    page = readers[seat].get(f"/games/{gid}").data.decode()
    debate = html.unescape(page.split('class="debate-board"', 1)[1].split("</section>", 1)[0])
    words = _main(page)
    assert "Your strategy cards" in debate
    for c in state.s["debate"]["cards"][seat]:
        name = board_tmotp.card(c, "en")["name"]
        assert name in debate and words.count(name) == 1, (name, words.count(name))


def debating(state) -> bool:
    """In the Debates, with cards on the Debate Board."""
    debate = state.s.get("debate")
    return bool(debate) and sum(len(t["kennedy"]) + len(t["nixon"])
                                for t in debate["tiles"].values()) >= 2


def test_the_board_and_hand_fit_a_phone_and_the_map_text_is_legible(app, jack, dick, browser):
    gid = new_game(jack, dick)
    engine = db_engine(app)
    rng = random.Random(5)
    stages = [("start", lambda s: True),
              ("mid-turn", lambda s: s.s["round"] == "activity" and s.s["phase"] >= 3),
              ("debates", debating),
              ("over", lambda s: False)]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    seen_overflow, failed, streams, errors = {}, [], [], []
    with LiveServer(app, port):
        contexts = {}
        for name, (w, h) in SIZES.items():
            ctx = browser.new_context(viewport={"width": w, "height": h})
            ctx.add_cookies([{"name": "session", "url": base,
                              "value": jack.client.get_cookie("session").value}])
            contexts[name] = ctx.new_page()
            # Every request that failed (a live stream on a port nobody listens on would),
            # but those cut short by the test's own navigation; and the console's errors.
            contexts[name].on("requestfailed", lambda r: failed.append(
                (r.url, r.failure)) if "ERR_ABORTED" not in (r.failure or "") else None)
            # The streams asked for; and /favicon.ico, which Chromium asks for by itself
            # unless the page names its icon (it does: templates/web/_page.html).
            contexts[name].on("request", lambda r: streams.append(r.url)
                              if "/events" in r.url or r.url.endswith("/favicon.ico")
                              else None)
            contexts[name].on("console", lambda m: errors.append((m.text, m.location["url"]))
                              if m.type == "error" else None)
        for stage, until in stages:
            for page in contexts.values():
                page.goto("about:blank")    # no page of the last stage live-updates meanwhile
            with Session(engine) as session:
                state = play(session, gid, rng, until=until)
            for size, page in contexts.items():
                page.goto(f"{base}/games/{gid}")
                assert "Traceback" not in page.content()
                # At a decision a phone keeps the rest of the board and the hand one tap away
                # (issue 47): open them as a player would.
                for fold in ("#board-more", "#hand-more"):
                    if not page.locator(fold).evaluate("d => d.open"):
                        assert size == "phone", (stage, fold)
                        page.locator(f"{fold} > summary").click()
                measured = page.evaluate(MEASURE, PARTS)
                assert measured["wide"] == [], (stage, size, measured["wide"][:10])
                texts = page.evaluate(TEXTS)
                assert len(texts) >= 50 * 2 + 4, (stage, size, len(texts))
                small = [t for t in texts if t[1] < 12]
                assert small == [], (stage, size, small[:10])
                assert page.locator("svg.board-map g.token").count() == 2
                assert page.evaluate(HIDDEN) == [], stage
                assert page.locator(".board p.score").inner_text().endswith(
                    f"{board_tmotp.TO_WIN} to win")
                assert page.locator("section.hand li.card").count() == len(
                    state.s["hands"]["kennedy"])
                if measured["scroll"] > measured["width"]:
                    seen_overflow[(stage, size)] = page.evaluate(OVERFLOW)
                screenshot(page, f"phone-board-{stage}-{size}")
            if stage == "debates":
                board = contexts["phone"].locator("section.debate-board")
                issues = board.locator("ol.debate-issues > li")
                assert issues.count() == 3
                track = sorted(state.s["debate"]["tiles"],
                               key=lambda i: state.s["debate"]["tiles"][i]["position"])
                assert [issues.nth(i).get_attribute("data-issue") for i in range(3)] == track
                played = [c for t in state.s["debate"]["tiles"].values()
                          for side in ("kennedy", "nixon") for c in t[side]]
                board.screenshot(path=str(ARTIFACTS / "screenshots" / "phone-debate-board.png"))
                contexts["phone"].locator("svg.board-map").screenshot(
                    path=str(ARTIFACTS / "screenshots" / "phone-map-debates.png"))
                text = board.inner_text()
                for c in played:
                    assert f"({c})" in text, (c, text)
                # Kennedy's own strategy cards left, each shown once: a card block of the
                # Debate Board, or a choice of his decision form when it shows them (then the
                # board does not list them again); never Nixon's.
                blocks = board.locator("li.card").all_inner_texts()
                mine = state.s["debate"]["cards"]["kennedy"]
                for c in mine:
                    shown = sum(f"({c})" in t for t in blocks) + contexts["phone"].locator(
                        f'section.decision input[name="action"][value="debate {c}"]').count()
                    assert shown == 1, (c, shown, blocks)
                assert len(blocks) <= len(mine)
                for c in state.s["debate"]["cards"]["nixon"]:
                    assert f"({c})" not in text.split("Strategy cards left")[1]
                # The same in Japanese at phone size.
                with Session(engine) as session:
                    session.execute(update(User).where(User.email == jack.email)
                                    .values(locale="ja"))
                    session.commit()
                page = contexts["phone"]
                page.goto(f"{base}/games/{gid}")
                assert page.evaluate(MEASURE, PARTS)["wide"] == []
                assert [t for t in page.evaluate(TEXTS) if t[1] < 12] == []
                assert page.locator("html").get_attribute("lang") == "ja"
                assert page.locator("section.debate-board ol.debate-issues > li").count() == 3
                screenshot(page, "phone-board-debates-phone-ja")
                with Session(engine) as session:
                    session.execute(update(User).where(User.email == jack.email)
                                    .values(locale="en"))
                    session.commit()
        assert state.s["round"] == "over" or state.s.get("result")
    # The pages opened their live streams on the test's own server, and none failed.
    assert streams and all(url.startswith(f"{base}/games/{gid}/events?") for url in streams), \
        streams[:3]
    assert failed == [] and errors == [], (failed[:5], errors[:5])
    print("elsewhere on the page, wider than the viewport:", seen_overflow)
