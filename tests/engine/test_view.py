"""1960's view(seat): own hand, counts for what is hidden, revealed hands, sealed commitments.
(That no view holds the seed, and the leak test every game shares, are the conformance test's:
tests/engine/test_conformance.py.)"""
import json

from engine.core import CHANCE, advance_chance, new_game


def opening(seed=11):
    g = new_game("tmotp", seed=f"secret-seed-{seed}")
    advance_chance(g)
    return g


def test_own_hand_shown_opponent_hand_counted():
    g = opening()
    v = g.view("kennedy")
    assert v["hands"] == {"kennedy": g.s["hands"]["kennedy"]}
    assert v["hand_sizes"] == {"kennedy": 6, "nixon": 6}
    assert v["deck_count"] == len(g.s["deck"])
    assert "deck" not in v


def test_spectator_sees_no_hand():
    g = opening()
    v = g.view(None)
    assert v["hands"] == {}
    assert v["hand_sizes"] == {"kennedy": 6, "nixon": 6}


def test_a_shown_hand_is_a_snapshot_for_the_seat_it_is_shown_to_this_turn():
    g = opening()
    hand = list(g.s["hands"]["kennedy"])
    turn = g.s["turn"]
    g.s["shown_hands"] = [{"turn": turn, "seat": "kennedy", "to": "nixon", "cards": hand}]
    assert g.view("nixon")["shown_hands"] == {"kennedy": hand}     # e.g. Opposition Research
    assert "kennedy" not in g.view("nixon")["hands"]
    assert g.view(None)["shown_hands"] == {} and g.view("kennedy")["shown_hands"] == {}
    g.s["hands"]["kennedy"] = g.s["hands"]["kennedy"][1:]          # a card played since
    assert g.view("nixon")["shown_hands"] == {"kennedy": hand}
    g.s["turn"] = turn + 1                                          # gone with the turn
    assert g.view("nixon")["shown_hands"] == {}


def test_dealt_cards_redacted_in_the_opponents_log():
    g = opening()
    deals = [a for who, a in g.view("nixon")["log"] if who == CHANCE and a.startswith("deal")]
    assert "deal kennedy" in deals
    assert all(a == "deal kennedy" or a.startswith("deal nixon ") for a in deals)


def test_sealed_strategy_commitment_hidden_until_both_commit():
    g = opening()
    g.apply(g.active()[0], "start kennedy")
    while g.top["step"] != "campaign_strategy":       # play every card for CP, then stop
        seat = g.active()[0]
        if seat == CHANCE:
            advance_chance(g)
            continue
        legal = g.legal_actions(seat)
        pick = next((a for a in legal if a.endswith(" advertise")), None) or \
            next((a for a in legal if a.startswith("media") or a == "pass" or a == "done"), legal[0])
        g.apply(seat, pick)
    card = g.legal_actions("kennedy")[0]
    g.apply("kennedy", card)
    nixon_view = g.view("nixon")
    assert nixon_view["committed"] == ["kennedy"]
    assert nixon_view["my_commitment"] is None
    assert card not in json.dumps(nixon_view["log"][-1])
    assert g.view("kennedy")["my_commitment"] == card
