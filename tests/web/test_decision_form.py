"""The decision forms (server/web/decision_form.py): over random games, every form offers
exactly the legal actions, no more and no fewer; a plan (Campaigning, support placement,
Positioning) becomes the order lines it stands for, in the order of least travel, and a plan
that cannot be played is refused before anything is sent; through the page a plan is played
whole or not at all."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from itertools import combinations

import pytest
from sqlmodel import Session
from werkzeug.datastructures import MultiDict

import engine.core as game_engine
from engine.core import CHANCE
from engine.core.driver import sample_chance
from engine.games.tmotp.data import STATES, ZONE_DISTANCE
from server.models import Game
from server.services import games, play
from server.web import decision_form
from tests.web.pages_helpers import db_engine, new_game, pick_answer


def _offered(form: dict) -> set[str]:
    """Every action the form lets a player send (a plan's boxes one at a time)."""
    out = {o["value"] for g in form["groups"] for o in g["options"]}
    kind = form["kind"]
    if kind == "activity":
        modes = {m["value"] for r in form["rows"] for m in r["modes"]}
        out |= modes | ({f"{v} preempt" for v in modes if v.startswith("play ")}
                        & set(form["legal"]) if form["preempt"] else set())
        out |= {a for a in form["legal"] if a.endswith(" preempt")} & {
            f"{o['value']} preempt" for g in form["groups"] for o in g["options"]}
    elif kind in ("campaigning", "placement"):
        verb = "campaign" if kind == "campaigning" else "support"
        out |= {f"{verb} {r['code']} {n}" for r in form["rows"] for n in range(1, r["max"] + 1)}
        out |= {t["value"] for t in form.get("travel", [])}
    elif kind == "positioning":
        out |= {f"position {r['code']}" for r in form["rows"]}
    elif kind == "cards":
        ids = [c["id"] for c in form["cards"]]
        out |= {" ".join([form["verb"], *map(str, combo)]) for size in form["sizes"]
                for combo in combinations(sorted(ids), size)} & set(form["legal"])
    if form.get("stop"):
        out.add("done")
    return out


def _decisions(seeds, options=None):
    """(state, seat) at every decision of random games."""
    for seed in seeds:
        state = game_engine.new_game("tmotp", seed=f"forms/{seed}", options=options)
        rng = random.Random(seed)
        while state.active():
            active = state.active()
            if active == [CHANCE]:
                state.apply(CHANCE, sample_chance(state))
                continue
            for seat in active:
                yield state, seat
            for seat in list(active):
                if seat in state.active():
                    state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_every_form_offers_exactly_the_legal_actions(app):
    kinds = set()
    with app.test_request_context():
        for state, seat in _decisions(range(6), {"vp_cards": True}):
            legal = [str(a) for a in state.legal_actions(seat)]
            form = decision_form.build({"legal_actions": legal}, state.view(seat), "en")
            kinds.add(form["kind"])
            offered = _offered(form)
            if form["kind"] == "activity":
                # Preempt is one box for the whole hand: a card without a legal preempt
                # is refused by the engine with its reason; none is missing.
                assert set(legal) <= offered, (set(legal) - offered)
            else:
                assert offered == set(legal), (form["kind"], offered ^ set(legal))
            for group in form["groups"]:
                for option in group["options"]:
                    assert option["label"] and "_" not in option["label"], option
    assert {"activity", "campaigning", "positioning", "placement", "cards", "choices"} <= kinds


def _at(step_name: str, seeds=range(60), when=lambda legal: True):
    for state, seat in _decisions(seeds):
        if state.asks(seat)["step"] == step_name and when(state.legal_actions(seat)):
            return state, seat
    raise AssertionError(f"no {step_name} decision met")


def _form(state, seat, view) -> dict:
    """The form the seat is shown now (inside a request: its words are the reader's)."""
    return decision_form.build({"legal_actions": [str(a) for a in state.legal_actions(seat)]},
                               view, "en")


def test_a_campaigning_plan_goes_the_way_of_least_travel_and_must_fit_the_cp(app):
    state, seat = _at("campaigning")
    view = state.view(seat)
    with app.test_request_context():
        form = _form(state, seat, view)
        plan = view["asks"]["plan"]
        rows = {r["code"]: r for r in form["rows"]}
        for code, row in rows.items():
            assert row["checks"] == (code in plan["support_checks"])
            assert row["travel"] == (0 if plan["free_travel"] else
                                     ZONE_DISTANCE[STATES[plan["token"]]["zone"]][row["zone"]])
        # Two states, the far one listed first: the plan visits the near one first.
        zone = STATES[plan["token"]]["zone"]
        near = next(c for c, r in rows.items() if STATES[c]["zone"] == zone)
        far = next((c for c, r in rows.items() if ZONE_DISTANCE[zone][r["zone"]] >= 1
                    and r["max"] >= 1), None)
        if far is not None and plan["cp"] >= 3 and not plan["free_travel"]:
            lines, atomic = decision_form.compose(
                MultiDict({f"n.{far}": "1", f"n.{near}": "1"}), form)
            assert atomic and lines == [f"campaign {near} 1", f"campaign {far} 1"]
        too_much = {f"n.{c}": str(r["max"]) for c, r in list(rows.items())[:3]}
        with pytest.raises(decision_form.Refused, match="CP"):
            decision_form.compose(MultiDict(too_much), form)
        with pytest.raises(decision_form.Refused, match="whole number"):
            decision_form.compose(MultiDict({f"n.{near}": "-1"}), form)
        with pytest.raises(decision_form.Refused, match="whole number"):
            decision_form.compose(MultiDict({f"n.{near}": str(rows[near]["max"] + 1)}), form)
        stop = decision_form.compose(MultiDict({"stop": "1"}), form)
        assert stop == (["done"], False)
        # "Then stop" after a plan that leaves CP; none after one that spends them all (the
        # action ends by itself: a "done" then would be refused or answer the next decision).
        every = rows[near]["max"]
        spent = decision_form.compose(MultiDict({f"n.{near}": str(every), "stop": "1"}), form)
        assert spent == ([f"campaign {near} {every}"], True)
        if every > 1:
            some = decision_form.compose(MultiDict({f"n.{near}": "1", "stop": "1"}), form)
            assert some == ([f"campaign {near} 1", "done"], True)


def test_positioning_costs_one_then_two_cp_in_the_same_issue(app):
    state, seat = _at("positioning")
    view = state.view(seat)
    with app.test_request_context():
        form = _form(state, seat, view)
        cp = view["decision"]["cp"]
        issue = form["rows"][0]["code"]
        fits = max(n for n in range(1, cp + 1) if 1 + 2 * (n - 1) <= cp)
        lines, atomic = decision_form.compose(MultiDict({f"n.{issue}": str(fits)}), form)
        assert lines == [f"position {issue}"] * fits and atomic
        with pytest.raises(decision_form.Refused, match="cost"):
            decision_form.compose(MultiDict({f"n.{issue}": str(fits + 1)}), form)


def test_card_boxes_make_one_action_with_the_cards_in_increasing_order(app):
    state, seat = _at("discard_redraw", range(200),
                      lambda legal: any(len(str(a).split()) > 2 for a in legal))
    with app.test_request_context():
        legal = [str(a) for a in state.legal_actions(seat)]
        form = decision_form.build({"legal_actions": legal}, state.view(seat), "en")
        ids = [str(c["id"]) for c in form["cards"]][:2]
        data = MultiDict([("card", ids[1]), ("card", ids[0])])
        lines, _atomic = decision_form.compose(data, form)
        assert lines == [f"{form['verb']} {' '.join(sorted(ids, key=int))}"]
        assert lines[0] in legal


def _drive_to(app, gid: int, step_name: str, seed: int = 5) -> tuple[str, int]:
    """Random orders through the order service until a seat is asked ``step_name``: every
    seat of a simultaneous step in turn (so it resolves), and a card played for campaign points
    when one may be (the game's seed is random: a whole turn without Campaigning is likely)."""
    rng = random.Random(seed)
    for i in range(3000):
        with Session(db_engine(app)) as s:
            game = s.get(Game, gid)
            state = game_engine.from_dict(game.state)
            active = state.active()
            assert active, "the game ended first"
            for seat in active:
                if state.asks(seat)["step"] == step_name:
                    return seat, game.step
            seat = active[i % len(active)]
            legal = [str(a) for a in state.legal_actions(seat)]
            wanted = [a for a in legal if a.endswith(" campaign")]
            action = rng.choice(wanted if wanted and rng.random() < 0.5 else legal)
            step = game.step
        with app.app_context():
            play.order(gid, seat, step, [action])
    raise AssertionError(f"no {step_name} decision")


def test_a_plan_through_the_page_is_played_whole_or_not_at_all(app, jack, dick):
    gid = new_game(jack, dick)
    seat, step = _drive_to(app, gid, "campaigning")
    reader = jack if seat == "kennedy" else dick
    page = reader.get(f"/games/{gid}").data.decode()
    assert 'data-kind="campaigning"' in page and "Support checks" in page
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        view = game_engine.from_dict(game.state).view(seat)
        log_before = len(view["log"])
    plan = view["asks"]["plan"]
    # Over the card's CP: refused with the sum, nothing played.
    most = decision_form._most(view["legal_actions"], "campaign")
    over = {f"n.{st}": str(n) for st, n in list(most.items())[:3]}
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", {"step": step, **over})
    assert refused.status_code == 422 and b"This plan needs" in refused.data
    # One line of a plan refused by the engine (a state declared twice is not possible in one
    # form, so a typed second line): none of the plan is played.
    here = plan["token"]
    bad = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                           {"step": step, f"n.{here}": "1", "lines": "campaign XX 9"})
    assert bad.status_code == 422 and b"none of it was played" in bad.data
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.step == step and len(game_engine.from_dict(game.state).view(seat)["log"]) \
            == log_before
    # A plan that fits: every line played.
    good = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                            {"step": step, f"n.{here}": "1"})
    assert good.status_code == 303, good.data[-2000:]
    with Session(db_engine(app)) as s:
        log = [e[1] for e in game_engine.from_dict(s.get(Game, gid).state).view(seat)["log"]]
    assert f"campaign {here} 1" in log[log_before:]


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
        assert games.log_of(s, gid)[-1].action in (f"campaign {token} 1",) or \
            s.get(Game, gid).step > step


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
