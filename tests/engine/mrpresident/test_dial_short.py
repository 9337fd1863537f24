"""Dial (2nd) edition, the short version: "four State Cards are turned up at a time for a total
of 10 rounds. In the 11th round, five cards are turned up, and in the 12th, six cards." Ruling: a
round whose cards were buried is played again and does not count."""
from engine.core import CHANCE

from .helpers import act, chart, dial, ev, no_upset, play_round, position, step, tally, turn, won


def test_four_cards_a_round_then_five_then_six_in_twelve_rounds():
    g = dial(2, version="short")
    sizes = []
    while g.active():
        assert step(g) == "turn_up"
        sizes.append(g.top["left"])
        turn(g, *sorted(g.s["deck"])[:g.top["left"]])
        # p1 lays his highest card, p2 his lowest (they meet at 7: a tie for first, settled by
        # the scoreboard, not buried)
        act(g, {"p1": f"play {max(g.s['hands']['p1'])}", "p2": f"play {min(g.s['hands']['p2'])}"})
        while step(g) in ("upset", "lot"):
            if step(g) == "lot":
                g.apply(CHANCE, g.legal_actions(CHANCE)[0])
            else:
                no_upset(g)
    assert sizes == [4] * 10 + [5, 6]
    assert g.s["deck"] == [] and g.s["round"] == 12
    assert [len(h["states"]) for h in g.s["history"]] == sizes
    assert not any(h["void"] for h in g.s["history"])
    assert g.outcome() is not None and g.s["result"]["winner"] in ("p1", "p2")


def test_every_place_takes_the_sum_of_the_four_states_votes():
    g = dial(3, version="short")
    codes = ["NY", "CA", "TX", "AK"]
    play_round(g, codes, {"p1": "play 5", "p2": "play 13", "p3": "play 9"})
    no_upset(g)
    order = ["p2", "p3", "p1"]
    assert tally(g) == {seat: sum(chart(c, 3, "regular")[k] for c in codes)
                        for k, seat in enumerate(order)}
    assert g.s["contests"]["national"]["ev"]["p2"] == ev(*codes) == 111
    assert won(g)["p2"] == codes


def test_a_buried_round_is_played_again_and_does_not_count():
    g = dial(2, version="short", count="electoral")
    codes = ["NY", "CA", "TX", "AK"]
    play_round(g, codes, {"p1": "play 9", "p2": "play 9"})
    assert set(codes) <= set(g.s["deck"]) and len(g.s["deck"]) == 51
    assert g.s["history"][-1]["void"] is True and g.s["history"][-1]["states"] == codes
    assert step(g) == "turn_up" and g.s["round"] == 1 and g.top["left"] == 4
    play_round(g, ["PA", "OH", "IL", "FL"], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert tally(g) == {"p1": ev("PA", "OH", "IL", "FL"), "p2": 0}
    assert g.s["round"] == 2 and g.top["left"] == 4


def test_a_buried_11th_round_is_the_11th_again_with_five_cards():
    g = dial(2, version="short", count="electoral")
    eleventh = ["AK", "DE", "NV", "VT", "WY"]
    rest = ["DC", "HI", "ID", "ME", "MT", "ND"]
    position(g, round=11, deck=eleventh + rest, tally={"p1": 240, "p2": 240})
    assert g.top["left"] == 5
    play_round(g, eleventh, {"p1": "play 9", "p2": "play 9"})
    assert g.s["round"] == 11 and g.top["left"] == 5 and len(g.s["deck"]) == 11
    play_round(g, rest[:5], {"p1": "play 13", "p2": "play 1"})
    no_upset(g)
    assert g.s["round"] == 12 and g.top["left"] == 6
    assert g.legal_actions(CHANCE) == sorted(f"turn {c}" for c in eleventh + rest[5:])
