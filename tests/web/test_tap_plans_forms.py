"""The planners placed by tapping (issue 47, items 2 and 6; server/games/tmotp/forms.py): every
cube of an Advertising in one order (``media R`` a cube, whole or not at all) through the web
order route; the rows of Advertising and Positioning say who leads each region's media support
or issue and by how many cubes; the Campaigning and support placement forms carry a map whose
offered states are buttons (role, Tab, a spoken name with EV and support) and whose ids are
not the board's own."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from sqlmodel import Session
from werkzeug.datastructures import MultiDict

from engine.games.tmotp.data import REGIONS, STATES
from server.models import Game
from server.services import games
from server.web import decision_form
from tests.web.pages_helpers import db_engine
from tests.web.test_browser_tap_plans import find, log_of
from tests.web.test_decision_form import _at, _form


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.targets = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "g" and "target" in (a.get("class") or "").split():
            self.targets.append(a)


def test_advertising_is_one_planner_of_every_region_with_its_media_support(app):
    state, seat = _at("advertising")
    view = state.view(seat)
    with app.test_request_context():
        form = _form(state, seat)
        assert form["kind"] == "advertising"
        assert [r["code"] for r in form["rows"]] == list(REGIONS)
        left = view["decision"]["left"]
        assert form["left"] == left and all(r["max"] == left for r in form["rows"])
        for r in form["rows"]:
            media = view["media"][r["code"]]
            assert r["cubes"] == media["cubes"]
            if media["cubes"]:
                assert r["leader"] == media["leader"].capitalize() and "leads" in r["lead"]
            else:
                assert r["leader"] == "" and r["lead"] == "no cubes"
        east, south = REGIONS[0], REGIONS[2]
        order = decision_form.compose(MultiDict({f"n.{east}": "1", f"n.{south}": "0"}), form)
        assert order.lines == [f"media {east}"] and order.atomic
        if left >= 2:
            order = decision_form.compose(MultiDict({f"n.{south}": "1", f"n.{east}": "1"}),
                                          form)
            assert sorted(order.lines) == sorted([f"media {east}", f"media {south}"])
        with pytest.raises(decision_form.Refused, match="whole number from 0 to"):
            decision_form.compose(MultiDict({f"n.{east}": str(left + 1)}), form)


def test_positioning_rows_say_who_leads_each_issue_and_by_how_many_cubes(app):
    state, seat = _at("positioning", seeds=range(40, 240))
    view = state.view(seat)
    with app.test_request_context():
        form = _form(state, seat)
        for r in form["rows"]:
            issue = view["issues"][r["code"]]
            assert r["cubes"] == issue["cubes"]
            if issue["cubes"]:
                assert r["leader"] and r["leader"] in r["lead"]
            else:
                assert r["lead"] == "no cubes"


def test_the_campaigning_form_maps_states_to_tap_with_ids_of_its_own(app, jack, dick):
    gid, seat, step, state = find(app, [jack, dick], lambda s, x: s.asks(x).get("step")
                                  == "campaigning" and bool(s.asks(x).get("plan")),
                                  " campaign", "map")
    reader = jack if seat == "kennedy" else dick
    page = reader.get(f"/games/{gid}").data.decode()
    parsed = _Ids()
    parsed.feed(page)
    assert len(parsed.ids) == len(set(parsed.ids)), \
        sorted({i for i in parsed.ids if parsed.ids.count(i) > 1})
    offered = set(re.findall(r'name="n\.([A-Z]{2})"', page))
    assert {t["data-state"] for t in parsed.targets} == offered
    for t in parsed.targets:
        assert t["role"] == "button" and t["tabindex"] == "0"
        name = STATES[t["data-state"]]["name"]
        assert t["aria-label"].startswith(f"{name} ({t['data-state']}), "
                                          f"{STATES[t['data-state']]['ev']} EV, support now ")
        assert t["aria-label"].endswith("CP planned here: 0")
    assert "Type the numbers instead" in page and 'class="tap-map"' in page


def test_several_media_cubes_go_in_one_order_through_the_page(app, jack, dick):
    def wanted(state, seat):
        return state.asks(seat).get("step") == "advertising" and \
            (state.view(seat).get("decision") or {}).get("left", 0) >= 2
    gid, seat, step, state = find(app, [jack, dick], wanted, " advertise", "adv-page")
    left = state.view(seat)["decision"]["left"]
    reader = jack if seat == "kennedy" else dick
    page = reader.get(f"/games/{gid}").data.decode()
    assert 'data-kind="advertising"' in page
    before = len(log_of(app, gid))
    # More cubes than are left: refused, and none is placed.
    east, west = REGIONS[0], REGIONS[3]
    over = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                            {"step": step, f"n.{east}": str(left), f"n.{west}": "1"})
    assert over.status_code == 422 and b"Refused, nothing was changed" in over.data
    assert len(log_of(app, gid)) == before
    good = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                            {"step": step, f"n.{east}": str(left - 1), f"n.{west}": "1"})
    assert good.status_code == 303, good.data[-2000:]
    mine = [a for who, a in log_of(app, gid)[before:] if who == seat]
    assert sorted(mine) == sorted([f"media {east}"] * (left - 1) + [f"media {west}"]), mine
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert (games.whole_state(s, game).asks(seat) or {}).get("step") != "advertising"


def test_support_placement_maps_only_the_states_it_offers(app):
    state, seat = _at("place_support", seeds=range(0, 400))
    with app.test_request_context():
        form = _form(state, seat)
        assert form["kind"] == "placement" and form["board"]
        parsed = _Ids()
        parsed.feed(str(form["map"]))
        offered = {r["code"] for r in form["rows"]}
        assert {t["data-state"] for t in parsed.targets} == offered
        assert str(form["map"]).count('class="state') == 50
        assert str(form["map"]).count(" inert") == 50 - len(offered)
        assert all(t["aria-label"].endswith("cubes placed here: 0") for t in parsed.targets)
        assert set(parsed.ids) == {"tmotp-form-map-title", "tmotp-form-map-desc"}
