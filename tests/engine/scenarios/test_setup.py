"""Setting Up The Game (GMT manual, "Setting Up The Game"; Z-Man "Setup")."""
import json
from pathlib import Path

import pytest

from engine.core import CHANCE

from .helpers import EDITIONS, new, start

DATA = Path(__file__).resolve().parents[3] / "engine" / "games" / "tmotp" / "data"
STATES = {s["code"]: s for s in json.loads((DATA / "states.json").read_text())}
CARDS = {c["id"]: c for c in json.loads((DATA / "cards.json").read_text())}


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_starting_state_support_from_candidate_icons(edition):
    """"Place the appropriate number of state support cubes in each state as indicated by
    candidate icons; each icon represents one point of starting Support.\""""
    g = new(edition)
    for code, st in STATES.items():
        expected = st["start"].get("kennedy", 0) - st["start"].get("nixon", 0)
        assert g.s["support"][code] == expected, code
    # spot checks against the printed map: two Kennedy icons in Massachusetts, two Nixon in Kansas
    assert g.s["support"]["MA"] == 2 and g.s["support"]["KS"] == -2
    assert g.s["support"]["NY"] == 0 and g.s["support"]["CA"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_candidate_tokens_in_home_states(edition):
    """"Kennedy in Massachusetts, Nixon in California.\""""
    g = new(edition)
    assert g.s["tokens"] == {"kennedy": "MA", "nixon": "CA"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_two_momentum_markers_each_and_empty_media_issues(edition):
    g = new(edition)
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}
    assert all(v == 0 for v in g.s["media"].values())
    assert all(v == 0 for v in g.s["issues"].values())
    assert all(v == 0 for v in g.s["endorsements"].values())


@pytest.mark.parametrize("edition,cubes", [("gmt", 12), ("zman", 10)])
def test_setup_bag_seeded_twelve_each_gmt_ten_each_zman(edition, cubes):
    """GMT: "Seed the Political Capital Bag with twelve cubes from each player."
    Z-Man: "Seed the Political Capital Bag with ten cubes from each player.\""""
    g = new(edition)
    assert g.s["bag"] == {"kennedy": cubes, "nixon": cubes}


@pytest.mark.parametrize("edition,size", [("gmt", 97), ("zman", 91)])
def test_setup_campaign_deck_97_cards_gmt_91_zman(edition, size):
    g = new(edition)
    assert len(g.s["deck"]) == size
    if edition == "zman":
        assert not set(g.s["deck"]) & {92, 93, 94, 95, 96, 97}


def test_setup_vp_cards_optional_rule_sets_the_vp_cards_aside():
    """VP optional rule: "During Setup, each player removes their Vice President Card from the
    Campaign Card deck, placing it to one side with their Candidate Card.\""""
    plain = new("gmt")
    vp = new("gmt", vp_cards=True)
    assert {39, 42} <= set(plain.s["deck"])
    assert not {39, 42} & set(vp.s["deck"])
    assert len(vp.s["deck"]) == len(plain.s["deck"]) - 2
    assert vp.s["vp_available"] == {"kennedy": True, "nixon": True}
    assert plain.s["vp_available"] == {"kennedy": False, "nixon": False}


def test_setup_first_turn_deals_kennedy_six_then_nixon_six():
    """Initiative Phase, New Cards: six cards each on the first five turns."""
    g = new("gmt")
    assert g.s["turn"] == 1
    for _ in range(6):
        assert g.active() == [CHANCE]
        assert all(a.startswith("deal kennedy ") for a in g.legal_actions(CHANCE))
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    for _ in range(6):
        assert all(a.startswith("deal nixon ") for a in g.legal_actions(CHANCE))
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])
    assert len(g.s["hands"]["kennedy"]) == 6 and len(g.s["hands"]["nixon"]) == 6
    assert len(g.s["deck"]) == 97 - 12
    # next: the Initiative Check, a draw of cubes
    assert all(a.startswith("draw ") for a in g.legal_actions(CHANCE))


def test_setup_forced_hands_are_dealt_and_removed_from_deck():
    g = start("gmt", kennedy=[1, 2, 3, 5, 6, 8], nixon=[4, 9, 12, 18, 25, 27])
    assert g.s["hands"]["kennedy"] == [1, 2, 3, 5, 6, 8]
    assert g.s["hands"]["nixon"] == [4, 9, 12, 18, 25, 27]
    assert not set(g.s["deck"]) & {1, 2, 3, 4, 5, 6, 8, 9, 12, 18, 25, 27}
