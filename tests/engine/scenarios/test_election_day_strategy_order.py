"""Election Day, 3. Campaign Strategy: the order of each player's Campaign Strategy cards.

Z-Man 1st ed.: "The player with the initiative will resolve their cards first. Each player may
resolve their cards in any order desired." GMT 2nd ed.: "The player with the initiative resolves
his cards first" and nothing more: the cards are resolved in the order they were placed.
Both: "Note: If the Political Capital Bag runs out of cubes at this point, it is not refilled."
(engine/games/tmotp/RULINGS.md, Election Day Campaign Strategy.)
"""
import random

import pytest

from engine.core import CHANCE, play_random
from engine.games.tmotp import standing
from engine.games.tmotp.data import CARDS
from engine.games.tmotp.bots import greedy_action
from engine.games.tmotp.defaults import default_action

from .helpers import draws, reach_election_day, step
from .test_election_day import K_CARDS, N_CARDS, quiet

# K_CARDS: Wisconsin 62, Ohio 61, New York 19, New York 43; N_CARDS: Minnesota 40, North
# Carolina 84, Florida 13, Connecticut 54 (in the order placed).
WI, OH, NY1, NY2 = K_CARDS
MN, NC, FL, CT = N_CARDS
ORDER = "election_day_strategy_order"


def election_day(edition, initiative="kennedy", **board):
    """At Election Day's Campaign Strategy: the initiative check drawn for ``initiative``."""
    g = reach_election_day(K_CARDS, N_CARDS, edition, before_strategy=quiet(**board))
    draws(g, initiative, initiative)
    return g


def fail(g, n=3):
    """Draw the opposing colour for the next ``n`` support checks."""
    for _ in range(n):
        assert g.top["step"] == "support_checks", step(g)
        g.apply(CHANCE, "draw " + ("nixon" if g.top["seat"] == "kennedy" else "kennedy"))


def test_zman_asks_the_initiative_player_first_then_the_other():
    """Z-Man: the initiative player chooses the order of his cards, one card at a time, then the
    other player chooses his; cards naming one state left are resolved without a question."""
    g = election_day("zman", "nixon")
    # Nixon, with the initiative, is asked first; all eight cards are revealed now
    assert step(g) == ORDER and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == [f"resolve {c}" for c in sorted(N_CARDS)]
    assert g.legal_actions("kennedy") == []
    assert g.asks("nixon") == {"step": ORDER, "cards": N_CARDS, "bag": 40 - 2, "checks": 12}
    g.apply("nixon", f"resolve {CT}")
    assert g.top["seat"] == "nixon" and g.top["where"] == "CT" and g.top["left"] == 3
    fail(g)
    assert step(g) == ORDER and g.active() == ["nixon"]
    assert g.legal_actions("nixon") == [f"resolve {c}" for c in sorted([MN, NC, FL])]
    g.apply("nixon", f"resolve {FL}")
    fail(g)
    g.apply("nixon", f"resolve {MN}")
    fail(g)
    # his last card, North Carolina, needs no choice
    assert g.top["step"] == "support_checks" and g.top["where"] == "NC"
    fail(g)
    # then Kennedy orders his: Wisconsin, Ohio and two for New York
    assert step(g) == ORDER and g.active() == ["kennedy"]
    assert g.legal_actions("kennedy") == [f"resolve {c}" for c in sorted(K_CARDS)]
    g.apply("kennedy", f"resolve {NY2}")
    assert g.top["where"] == "NY"
    fail(g)
    g.apply("kennedy", f"resolve {OH}")
    fail(g)
    g.apply("kennedy", f"resolve {NY1}")
    fail(g)
    assert g.top["step"] == "support_checks" and g.top["where"] == "WI"
    fail(g)
    assert step(g) == "over"
    assert [e for e in g.s["log"] if e[1].startswith("resolve")] == [
        ["nixon", f"resolve {CT}"], ["nixon", f"resolve {FL}"], ["nixon", f"resolve {MN}"],
        ["kennedy", f"resolve {NY2}"], ["kennedy", f"resolve {OH}"],
        ["kennedy", f"resolve {NY1}"]]


@pytest.mark.parametrize("first,state", [(OH, "OH"), (NY1, "NY"), (WI, "WI")])
def test_zman_the_chosen_card_gets_the_last_cubes_when_the_bag_runs_dry(first, state):
    """The bag holds three cubes after the initiative check: the card Kennedy resolves first
    takes them, every other check (his and Nixon's) is lost."""
    g = election_day("zman", "kennedy", bag={"kennedy": 5, "nixon": 0},
                     support={"OH": -1, "NY": -1, "WI": -1})
    assert g.s["bag"] == {"kennedy": 3, "nixon": 0}
    assert g.asks("kennedy")["bag"] == 3 and g.asks("kennedy")["checks"] == 12
    g.apply("kennedy", f"resolve {first}")
    draws(g, "kennedy", "kennedy", "kennedy")
    assert step(g) == "over"                       # no question once the bag is empty
    assert {st: g.s["support"][st] for st in ("OH", "NY", "WI")} == {
        st: (2 if st == state else -1) for st in ("OH", "NY", "WI")}
    assert "The bag is empty: the remaining Election Day support checks are lost." in [
        n[1] for n in g.s["notes"]]
    assert sorted(K_CARDS + N_CARDS) == sorted(c for c in g.s["discard"] if c in K_CARDS + N_CARDS)


def test_zman_the_second_players_order_decides_when_the_bag_runs_dry_during_his_cards():
    """Nixon's twelve checks leave four cubes: Kennedy's first card gets three, his second one."""
    g = election_day("zman", "nixon", bag={"kennedy": 3, "nixon": 15},
                     support={"OH": -1, "WI": -1, "NY": -1})
    assert g.s["bag"] == {"kennedy": 3, "nixon": 13}
    for cid in (MN, NC, FL):
        g.apply("nixon", f"resolve {cid}")
        draws(g, "nixon", "nixon", "nixon")
    draws(g, "nixon", "nixon", "nixon")            # Connecticut, the last, unasked
    assert g.s["bag"] == {"kennedy": 3, "nixon": 1}
    assert g.active() == ["kennedy"] and g.asks("kennedy")["bag"] == 4
    g.apply("kennedy", f"resolve {WI}")
    draws(g, "kennedy", "kennedy", "kennedy")      # Wisconsin: Nixon's cube, then two of his
    assert g.s["support"]["WI"] == 2
    g.apply("kennedy", f"resolve {OH}")            # one cube left for Ohio, then none
    draws(g, "nixon")
    assert step(g) == "over"
    assert g.s["support"]["OH"] == -1 and g.s["support"]["NY"] == -1


def test_zman_a_player_with_one_card_one_state_or_none_is_not_asked():
    """A single forced choice is not asked: one card, two cards of one state, no card."""
    g = reach_election_day(K_CARDS, N_CARDS, "zman", before_strategy=quiet())
    g.s["strategy"] = {"kennedy": [NY1, NY2], "nixon": [MN]}
    draws(g, "kennedy", "kennedy")
    fail(g, 6)                                      # New York twice, no question
    fail(g, 3)                                      # Minnesota
    assert step(g) == "over"
    g = reach_election_day(K_CARDS, N_CARDS, "zman", before_strategy=quiet())
    g.s["strategy"] = {"kennedy": [], "nixon": [MN, CT]}
    draws(g, "kennedy", "kennedy")
    assert g.active() == ["nixon"] and step(g) == ORDER      # Kennedy has none: Nixon next
    assert g.legal_actions("nixon") == [f"resolve {MN}", f"resolve {CT}"]


@pytest.mark.parametrize("initiative", ["kennedy", "nixon"])
def test_gmt_asks_nothing_and_resolves_in_the_order_placed(initiative):
    """GMT: no choice of order; the initiative player's cards as placed, then the other's."""
    g = election_day("gmt", initiative)
    order = []
    while g.active() == [CHANCE]:
        if g.top["left"] == 3:
            order.append((g.top["seat"], g.top["where"]))
        fail(g, 1)
    kennedy = [("kennedy", st) for st in ("WI", "OH", "NY", "NY")]
    nixon = [("nixon", st) for st in ("MN", "NC", "FL", "CT")]
    assert order == (kennedy + nixon if initiative == "kennedy" else nixon + kennedy)
    assert step(g) == "over"


def test_the_other_players_cards_are_hidden_before_the_reveal_and_public_after():
    """Face down until step 3 ("Both players retrieve the four cards ... and reveal them"):
    at the initiative check Kennedy's view holds no card of Nixon's; from the reveal on both
    views and the spectators' show every card not yet resolved."""
    g = reach_election_day(K_CARDS, N_CARDS, "zman", before_strategy=quiet())
    view = g.view("kennedy")
    assert view["strategy"] == {"kennedy": K_CARDS} and view["strategy_counts"]["nixon"] == 4
    assert view["election_strategy"] == {"kennedy": [], "nixon": []}
    assert view["public"]["strategy"]["nixon"] == []
    assert not set(N_CARDS) & set(view["public"]["discard"])
    draws(g, "nixon", "nixon")
    for seat in ("kennedy", "nixon", None):
        assert g.view(seat)["election_strategy"] == {"kennedy": K_CARDS, "nixon": N_CARDS}
    g.apply("nixon", f"resolve {FL}")
    assert g.view("kennedy")["election_strategy"]["nixon"] == [MN, NC, CT]


def test_the_strategy_order_standing_order():
    """``given`` resolves the next card as placed; ``when_short`` does so while the bag holds a
    cube for every check left, and asks once it may run out; ``ask`` asks."""
    g = election_day("zman", "kennedy")
    assert g.standing_policy("kennedy") == "strategy_order"
    assert g.standing_answer("kennedy", "given") == (f"resolve {WI}", "strategy_order:given")
    assert g.standing_answer("kennedy", "when_short") == (f"resolve {WI}",
                                                          "strategy_order:when_short")
    assert g.standing_answer("kennedy", "ask") is None
    short = election_day("zman", "kennedy", bag={"kennedy": 13, "nixon": 0})
    assert short.asks("kennedy")["bag"] == 11
    assert short.standing_answer("kennedy", "when_short") is None
    assert short.standing_answer("kennedy", "given") == (f"resolve {WI}", "strategy_order:given")
    assert standing.answer({"step": "trigger", "card": 1, "icon": "both"}, "kennedy",
                           "given") is None


def test_the_safe_default_and_the_bots_answer_with_a_legal_card():
    g = election_day("zman", "kennedy", support={"NY": -1, "OH": -4, "WI": 5})
    legal = g.legal_actions("kennedy")
    assert default_action(g, "kennedy") == f"resolve {NY1}"      # the lowest card
    choice = greedy_action(g, "kennedy", random.Random(1))
    assert choice in legal
    assert choice in (f"resolve {NY1}", f"resolve {NY2}")       # the closest, richest contest


def test_in_random_zman_games_every_order_asked_is_answered_legally_by_each_policy():
    """Through the protocol, over whole random Z-Man games: the question comes only with two
    states or more left and a cube in the bag, and ``given`` / ``when_short`` answer it with the
    card placed first, a legal action."""
    met = []

    def check(state):
        for seat in state.active():
            if seat == CHANCE or state.top["step"] != ORDER:
                continue
            asks = state.asks(seat)
            assert len({CARDS[c]["state"] for c in asks["cards"]}) >= 2 and asks["bag"] > 0
            assert state.standing_policy(seat) == "strategy_order"
            given = (f"resolve {asks['cards'][0]}", "strategy_order:given")
            assert given[0] in state.legal_actions(seat)
            assert state.standing_answer(seat, "given") == given
            short = state.standing_answer(seat, "when_short")
            assert short == (None if asks["bag"] < asks["checks"]
                             else (given[0], "strategy_order:when_short"))
            met.append(seat)

    for seed in range(3):
        play_random("tmotp", f"order/{seed}", options={"edition": "zman"}, check=check)
    assert met
