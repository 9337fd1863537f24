"""1960's decision forms (server/games/tmotp/forms.py, through server/web/decision_form.py):
over random games, every form offers exactly the legal actions, no more and no fewer; a plan
(Campaigning, support placement, Positioning) becomes the order lines it stands for, in the
order of least travel, and a plan that cannot be played is refused before anything is sent;
through the page a plan is played whole or not at all."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from itertools import combinations

import pytest
from sqlmodel import Session, select
from werkzeug.datastructures import MultiDict

import engine.core as game_engine
from engine.core import CHANCE
from engine.core.driver import play_random
from engine.games.tmotp.data import travel_cost
from server.models import Game, Order
from server.services import games, play
from server.games.tmotp import forms
from server.web import decision_form
from tests.web.pages_helpers import db_engine, new_game, pick_answer


def _offered(form: dict) -> set[str]:
    """Every action the form lets a player send (a plan's boxes one at a time; the preempt box
    with any card's play, where the engine says whether it may be preempted)."""
    out = {o["value"] for g in form["groups"] for o in g["options"]}
    kind = form["kind"]
    if kind == "activity":
        out |= {m["value"] for r in form["rows"] for m in r["modes"]}
        if form["preempt"]:
            out |= {f"{a} preempt" for a in out if a.startswith("play ")}
    elif kind in ("campaigning", "placement"):
        verb = "campaign" if kind == "campaigning" else "support"
        out |= {f"{verb} {r['code']} {n}" for r in form["rows"] for n in range(1, r["max"] + 1)}
        out |= {t["value"] for t in form.get("travel", [])}
    elif kind == "positioning":
        out |= {f"position {r['code']}" for r in form["rows"]}
    elif kind == "advertising":
        out |= {f"media {r['code']}" for r in form["rows"]}
    elif kind == "cards":
        ids = sorted(c["id"] for c in form["cards"])
        out |= {" ".join([form["verb"], *map(str, combo)]) for size in form["sizes"]
                for combo in combinations(ids, size)}
    if form.get("stop"):
        out.add("done")
    return out


class _Met(Exception):
    def __init__(self, state, seat):
        self.state, self.seat = state, seat


def _each_decision(seeds, visit, options=None) -> None:
    """``visit(state, seat)`` at every decision of random games (engine.core.play_random)."""
    def check(state):
        for seat in state.active():
            if seat != CHANCE:
                visit(state, seat)
    for seed in seeds:
        play_random("tmotp", f"forms/{seed}", options=options, check=check)


def _legal(state, seat) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def _form(state, seat) -> dict:
    """The form the seat is shown now (inside a request: its words are the reader's)."""
    return decision_form.build({"legal_actions": _legal(state, seat)}, state.view(seat), "en")


def test_every_form_offers_exactly_the_legal_actions(app):
    """Plays with the preempt box that the engine refuses are allowed (one box for the whole
    hand); apart from those, the form offers the legal actions, all of them and no other."""
    kinds = set()

    def visit(state, seat):
        legal, form = set(_legal(state, seat)), _form(state, seat)
        kinds.add(form["kind"])
        offered = _offered(form)
        extra = {a for a in offered - legal if a.endswith(" preempt")}
        assert offered - extra == legal, (form["kind"], offered ^ legal)
        for group in form["groups"]:
            for option in group["options"]:
                assert option["label"] and "_" not in option["label"], option

    with app.test_request_context():
        _each_decision(range(6), visit, {"vp_cards": True})
    assert {"activity", "campaigning", "positioning", "placement", "cards", "choices"} <= kinds


def _at(step_name: str, seeds=range(200), when=lambda legal: True):
    """A copy of the first state of random games where a seat is asked ``step_name``."""
    def visit(state, seat):
        if state.asks(seat)["step"] == step_name and when(_legal(state, seat)):
            raise _Met(game_engine.from_dict(state.to_dict()), seat)
    try:
        _each_decision(seeds, visit)
    except _Met as met:
        return met.state, met.seat
    raise AssertionError(f"no {step_name} decision met")


def test_a_campaigning_plan_goes_the_way_of_least_travel(app):
    state, seat = _at("campaigning", when=lambda legal: "done" in legal)
    plan = state.asks(seat)["plan"]
    with app.test_request_context():
        form = _form(state, seat)
        rows = {r["code"]: r for r in form["rows"]}
        for code, row in rows.items():
            assert row["checks"] == (code in plan["support_checks"])
            assert row["travel"] == (0 if plan["free_travel"] else travel_cost(plan["token"], code))
        # Two states, the far one first in the form: the plan visits the near one first.
        near = next(c for c in rows if travel_cost(plan["token"], c) == 0)
        far = next((c for c in rows if travel_cost(plan["token"], c) >= 1), None)
        if far is not None and not plan["free_travel"]:
            order = decision_form.compose(MultiDict({f"n.{far}": "1", f"n.{near}": "1"}), form)
            assert order.atomic and order.lines == [f"campaign {near} 1", f"campaign {far} 1"]
        with pytest.raises(decision_form.Refused, match="whole number"):
            decision_form.compose(MultiDict({f"n.{near}": "-1"}), form)
        with pytest.raises(decision_form.Refused, match="whole number"):
            decision_form.compose(MultiDict({f"n.{near}": str(rows[near]["max"] + 1)}), form)
        assert decision_form.compose(MultiDict({"stop": "1"}), form).lines == ["done"]
        # "Then stop" after a plan: "done" is applied after it only if Campaigning is still asked.
        stop = decision_form.compose(MultiDict({f"n.{near}": "1", "stop": "1"}), form)
        assert stop.lines == [f"campaign {near} 1"] and stop.stop == "campaigning"
        assert stop.then(state, seat) == "done" and stop.then(state, seat) is None


def test_positioning_shows_the_engines_price_of_the_next_cube(app):
    state, seat = _at("positioning")
    with app.test_request_context():
        form = _form(state, seat)
        prices = state.asks(seat)["prices"]
        assert {r["code"]: r["price"] for r in form["rows"]} == {
            r["code"]: prices[r["code"]] for r in form["rows"]}
        issue = form["rows"][0]["code"]
        cp = state.view(seat)["decision"]["cp"]
        order = decision_form.compose(MultiDict({f"n.{issue}": "2"}), form)
        assert order.lines == [f"position {issue}"] * 2 and order.atomic
        state.apply(seat, f"position {issue}")  # B3: the next cube in that issue costs 2 CP
        if cp > 1:
            assert state.asks(seat)["prices"][issue] == 2


def test_card_boxes_make_one_action_with_the_cards_in_increasing_order(app):
    state, seat = _at("discard_redraw", when=lambda legal: any(len(a.split()) > 2
                                                               for a in legal))
    with app.test_request_context():
        form = _form(state, seat)
        ids = [str(c["id"]) for c in form["cards"]][:2]
        order = decision_form.compose(MultiDict([("card", ids[1]), ("card", ids[0])]), form)
        assert order.lines == [f"{form['verb']} {' '.join(sorted(ids, key=int))}"]
        assert order.lines[0] in _legal(state, seat)


def _drive_to(app, gid: int, step_name: str, seed: int = 5) -> tuple[str, int]:
    """Random set-up orders through the order service (``by_player=False``: both seats are
    played here, so neither waits out the other's take-back hold) until a seat is asked
    ``step_name``: every seat of a simultaneous step in turn (so it resolves), and a card played
    for campaign points when one may be (a whole turn without Campaigning is likely)."""
    rng = random.Random(seed)
    for _ in range(3000):
        with app.app_context(), Session(db_engine(app)) as s:
            game = s.get(Game, gid)
            state = game_engine.from_dict(game.state)
            active = state.active()
            assert active, "the game ended first"
            for seat in active:
                if state.asks(seat)["step"] == step_name:
                    return seat, game.step
            sealed = set(s.exec(select(Order.seat).where(
                Order.game_id == gid, Order.step == game.step,
                Order.status == "pending")).all())
            seat = next(x for x in active if x not in sealed)
            legal = [str(a) for a in state.legal_actions(seat)]
            wanted = [a for a in legal if a.endswith(" campaign")]
            action = rng.choice(wanted if wanted and rng.random() < 0.5 else legal)
            games.submit_order(s, gid, seat, game.step, [action], by_player=False)
    raise AssertionError(f"no {step_name} decision")


def test_a_plan_through_the_page_is_played_whole_or_not_at_all(app, jack, dick):
    gid = new_game(jack, dick)
    seat, step = _drive_to(app, gid, "campaigning")
    reader = jack if seat == "kennedy" else dick
    page = reader.get(f"/games/{gid}").data.decode()
    assert 'data-kind="campaigning"' in page and "needs support checks" in page
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        view = games.whole_state(s, game).view(seat)
        log_before = len(view["log"])
    plan = view["asks"]["plan"]
    # Over the card's CP (three states, each taking all the CP it could alone): the engine
    # refuses the second line, so none is played.
    most = forms._most(view["legal_actions"], "campaign")
    over = {f"n.{st}": str(n) for st, n in list(most.items())[:3]}
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", {"step": step, **over})
    assert refused.status_code == 422 and b"Refused, nothing was changed" in refused.data
    assert b"of your order" not in refused.data  # the page's words, not a line's number
    # A typed line refused after the plan: none of the plan is played either.
    here = plan["token"]
    bad = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                           {"step": step, f"n.{here}": "1", "lines": "campaign XX 9"})
    assert bad.status_code == 422 and "Your written order, at “campaign XX 9”".encode() \
        in bad.data
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.step == step and len(games.whole_state(s, game).view(seat)["log"]) \
            == log_before
    # A plan that fits, then stop: every line played, then "done" if CP are left.
    good = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                            {"step": step, f"n.{here}": "1", "stop": "1"})
    assert good.status_code == 303, good.data[-2000:]
    with Session(db_engine(app)) as s:
        log = [e for e in games.whole_state(s, s.get(Game, gid)).view(seat)["log"]
               [log_before:] if e[0] == seat]
    assert [a for _seat, a in log[:2]] == ([f"campaign {here} 1", "done"] if plan["cp"] > 1
                                          else [f"campaign {here} 1"])


def test_an_atomic_order_keeps_nothing_of_a_refused_plan_and_a_plain_one_keeps_the_lines_before(
        app, jack, dick):
    gid = new_game(jack, dick)
    seat, step = _drive_to(app, gid, "campaigning", seed=9)
    with Session(db_engine(app)) as s:
        token = game_engine.from_dict(s.get(Game, gid).state).s["tokens"][seat]
    with app.app_context():
        whole = play.order(gid, seat, step, [f"campaign {token} 1", "campaign XX 9"],
                           atomic=True)
    assert whole.status == "illegal" and "none of it was played" in whole.reason
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).step == step
    with app.app_context():
        part = play.order(gid, seat, step, [f"campaign {token} 1", "campaign XX 9"])
    assert part.accepted and part.applied == [f"campaign {token} 1"]
    with Session(db_engine(app)) as s:
        assert f"campaign {token} 1" in [row.action for row in games.log_of(s, gid)]


class _Controls(HTMLParser):
    """Every form control of a page, and whether it has a name a screen reader can say: a
    wrapping <label>, a <label for=id>, or aria-label."""

    def __init__(self):
        super().__init__()
        self.depth, self.controls, self.label_for = 0, [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "label":
            self.depth += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        elif tag in ("input", "select", "textarea") and a.get("type") not in ("hidden",
                                                                              "submit"):
            self.controls.append((a.get("name"), a.get("id"), bool(a.get("aria-label")),
                                  self.depth > 0))

    def handle_endtag(self, tag):
        if tag == "label":
            self.depth -= 1

    def unnamed(self) -> list:
        return [c for c in self.controls if not (c[2] or c[3] or c[1] in self.label_for)]


def test_every_control_of_the_decision_forms_has_a_label(app, jack, dick):
    """Accessibility basics: over a game's first decisions through the pages, every input,
    select and text area of the game page has a label (a planner's number box says which
    state it is for)."""
    gid = new_game(jack, dick)
    rng, kinds, seen = random.Random(2), set(), 0
    for _ in range(30):
        for reader in (jack, dick):
            page = reader.get(f"/games/{gid}").data.decode()
            controls = _Controls()
            controls.feed(page)
            assert not controls.unnamed(), controls.unnamed()
            seen += len(controls.controls)
            fields = pick_answer(page, rng)
            if fields:
                kinds.add(re.search(r'data-kind="(\w+)"', page).group(1))
                reader.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
    assert {"activity", "choices"} <= kinds and seen > 100


def test_a_card_kept_for_campaign_strategy_is_shown_with_why(app):
    """Fifth Activity Phase holding a Gathering Momentum card and one other: the other card has
    no way to be played (it must be kept for the Campaign Strategy Phase). The hand's table still
    shows it, with no choice and the reason; after the Vice President card's discard the hand is
    not listed at all (only that card is played)."""
    from tests.engine.scenarios.test_keeping_strategy_card import at_phase
    g = at_phase("gmt", 1, 5, [14, 36], vp_cards=True)
    with app.test_request_context():
        form = _form(g, "kennedy")
        kept = [r for r in form["rows"] if r.get("kept")]
        assert [r["id"] for r in kept] == [36] and kept[0]["modes"] == []
        assert "Campaign Strategy card" in kept[0]["kept"]
        assert [r["id"] for r in form["rows"] if r["modes"]] == [14]
        g = at_phase("gmt", 1, 4, [14, 36, 38], vp_cards=True)
        g.apply("kennedy", "vp 36")
        form = _form(g, "kennedy")
        assert not any(r.get("kept") for r in form["rows"])
        assert [m["value"].split()[1] for r in form["rows"] for m in r["modes"]] \
            and all(m["value"].split()[1] == "39" for r in form["rows"] for m in r["modes"])
