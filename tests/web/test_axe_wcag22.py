"""axe-core with the WCAG 2.2 AA rules (issue 47, "Must show"): no violation of any impact,
target-size included, on the lobby, the join page, the game page at every kind of decision of
both games, the result page and the ladder, on a phone (390x844), in English (and Japanese for
the lobby and the join page), in real headless Chromium.

The kinds of 1960 decision (server/games/tmotp/forms.py): a card play ("activity"),
Campaigning, support placement, Positioning, Advertising, the trigger question ("card"),
Campaign Strategy on turns 1-5 ("picks"), a Debate round, Campaign Strategy on turns 7-8 (a
"cards" tick form) and a plain "choices" decision (who plays first); Mr. President's round
decisions (its steps where a person is asked). A game played at random from a fixed seed
reaches each of them; the page is read by the seat asked.
"""

from __future__ import annotations

import random

from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, Seat, User
from server.services import games as svc
from server.services import lobby
from tests.players import proven_user
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser, screenshot  # noqa: F401  (fixture)
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, advance

# WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags); 2.2 AA brings target-size (2.5.8).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
PHONE = VIEWPORTS["phone"]
EMAILS = {"kennedy": "jack@example.org", "nixon": "dick@example.org"}


def violations(page, where: str) -> list[str]:
    """Every WCAG 2.2 AA violation axe finds on the page shown now, one line each (the rule,
    its impact, the first elements)."""
    result = Axe().run(page, options=OPTIONS)
    out = []
    for v in result.response["violations"]:
        nodes = [n["target"] for n in v["nodes"][:4]]
        out.append(f"{where}: {v['id']} ({v['impact']}): {v['help']} "
                   f"[{len(v['nodes'])}] {nodes}")
    return out


def _numbers(action: str) -> list[str]:
    return [w for w in action.split()[1:] if w.isdigit()]


def kind_of(state) -> str | None:
    """The kind of 1960 decision asked now (the form's, server/games/tmotp/forms.py), or None."""
    active = state.active()
    if not active or not state.s["stack"]:
        return None
    step = state.top["step"]
    legal = state.legal_actions(active[0])
    if step == "activity":
        return "activity"
    if step in ("campaigning", "advertising", "positioning", "trigger", "debate_round"):
        return step
    if step in ("place_support", "debate_award"):
        return "placement"
    if step == "campaign_strategy":
        return "cards" if any(len(_numbers(a)) > 1 for a in legal) else "picks"
    if step == "choose_start_player":
        return "choices"
    return None


def _speak(engine, email: str, loc: str) -> None:
    with Session(engine) as session:
        session.execute(update(User).where(User.email == email).values(locale=loc))
        session.commit()


def _seated(engine, gid: int) -> dict[str, str]:
    """seat -> the email of its holder."""
    with Session(engine) as session:
        rows = session.exec(select(Seat.seat, User.email).join(User, User.id == Seat.user_id)
                            .where(Seat.game_id == gid)).all()
        return dict(rows)


def _state(engine, gid: int):
    with Session(engine) as session:
        return svc.whole_state(session, session.get(Game, gid))


def test_wcag22_aa_on_every_kind_of_page(tmp_path, api_db_url, smtp_catcher,
                                          browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    found: list[str] = []
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as session:
            users = {email: proven_user(session, email, email.split("@")[0].title())
                     for email in (*EMAILS.values(), "lyndon@example.org")}
            ids = {email: u.id for email, u in users.items()}
            tmotp = svc.create_game(session, "tmotp", {},
                                    {s: ids[e] for s, e in EMAILS.items()},
                                    seed="axe-1960", public=True).id
            mrp = svc.create_game(session, "mrpresident", {"players": 3},
                                  {"p1": ids["jack@example.org"],
                                   "p2": ids["dick@example.org"], "p3": None},
                                  seed="axe-mrp", public=True).id
            # An open game Jack created, with a seat kept for Lyndon: Lyndon's join page.
            opened, _codes = lobby.open_game(
                session, users["jack@example.org"], "tmotp", {},
                {"kennedy": "jack@example.org", "nixon": "lyndon@example.org"},
                timing=lobby.check_timing({}))
            opened = opened.id
        with LiveServer(app, port):
            pages = {}
            for email in (*EMAILS.values(), "lyndon@example.org"):
                page = browser.new_context(viewport=PHONE, timezone_id="UTC").new_page()
                sign_in(page, base, email, smtp_catcher)
                pages[email] = page

            def look(email: str, path: str, name: str, loc: str = "en") -> None:
                _speak(engine, email, loc)
                page = pages[email]
                answer = page.goto(base + path)
                assert answer is not None and answer.status < 500, (path, answer.status)
                found.extend(violations(page, f"{name} [{loc}] {path}"))
                screenshot(page, f"axe-{name}-{loc}")
                _speak(engine, email, "en")

            for loc in ("en", "ja"):
                look("jack@example.org", "/", "lobby", loc)
                look("lyndon@example.org", f"/games/{opened}", "join", loc)

            # Every kind of 1960 decision, read by the seat asked, in the order play meets them.
            wanted = {"choices", "activity", "campaigning", "placement", "positioning",
                      "advertising", "trigger", "picks", "debate_round", "cards"}
            rng = random.Random(56)  # a game that reaches a choice of two cards on turn 7
            seated = _seated(engine, tmotp)
            while wanted:
                advance(app, tmotp, rng, lambda s: kind_of(s) in wanted)
                state = _state(engine, tmotp)
                kind = kind_of(state)
                if kind is None:
                    break   # the game is over
                wanted.discard(kind)
                look(seated[state.active()[0]], f"/games/{tmotp}", f"1960-{kind}")
            assert not wanted, f"the game never asked: {sorted(wanted)}"
            advance(app, tmotp, rng, lambda s: False)

            # Mr. President's round decisions, read by a person asked.
            seated = _seated(engine, mrp)
            seen: set[str] = set()
            for _round in range(40):
                advance(app, mrp, rng, lambda s: any(x in seated for x in s.active())
                        and s.top["step"] not in seen)
                state = _state(engine, mrp)
                asked = [x for x in state.active() if x in seated]
                if not asked:
                    break
                seen.add(state.top["step"])
                look(seated[asked[0]], f"/games/{mrp}", f"mrp-{state.top['step']}")
            assert {"lead", "play"} <= seen, seen

            look("jack@example.org", f"/games/{tmotp}/result", "result")
            look("jack@example.org", "/ladder", "ladder")
    assert not found, "\n".join(found)


def test_the_rules_see_a_small_target(browser):  # noqa: F811
    """The measure can fail: a 16 px button alone is a target-size violation (WCAG 2.2)."""
    page = browser.new_page(viewport=PHONE)
    page.set_content('<!doctype html><html lang="en"><head><title>t</title></head><body>'
                     '<main><h1>t</h1><button style="width:16px;height:16px;padding:0">a'
                     '</button><button style="width:16px;height:16px;padding:0">b</button>'
                     '</main></body></html>')
    assert any("target-size" in f for f in violations(page, "probe"))
