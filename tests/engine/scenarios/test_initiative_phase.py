"""1. Initiative Phase: new cards, the initiative check and the start player."""
from engine.core import CHANCE

from .helpers import decline_trigger, draws, end_turn, force, last_activity_phase, new, reach_debates, start, step


def _deal_turn_one(g):
    for _ in range(12):
        g.apply(CHANCE, g.legal_actions(CHANCE)[0])


def test_initiative_player_chooses_start_player():
    """"The player with the initiative may select the start player, who will play first during
    each Activity Phase of this turn.\""""
    g = new("gmt")
    _deal_turn_one(g)
    draws(g, "nixon", "nixon")
    assert g.active() == ["nixon"]
    assert g.legal_actions("nixon") == ["start kennedy", "start nixon"]
    assert g.legal_actions("kennedy") == []
    g.apply("nixon", "start kennedy")
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_start_player_plays_first_in_every_activity_phase():
    """"Each phase, both players play and resolve a single card, beginning with the start
    player.\""""
    g = start("gmt", initiative="kennedy", start_player="nixon")
    for phase in (1, 2, 3):
        assert g.s["phase"] == phase
        assert g.active() == ["nixon"]
        nixon_card = g.s["hands"]["nixon"][0]
        force(g, ("nixon", f"play {nixon_card} campaign"), ("nixon", "done"))
        decline_trigger(g)
        assert g.active() == ["kennedy"]
        kennedy_card = g.s["hands"]["kennedy"][0]
        force(g, ("kennedy", f"play {kennedy_card} campaign"), ("kennedy", "done"))
        decline_trigger(g)


def test_five_activity_phases_per_turn():
    g = start("gmt")
    for _ in range(5):
        for seat in ("kennedy", "nixon"):
            assert step(g) == "activity"
            force(g, (seat, f"play {g.s['hands'][seat][0]} campaign"), (seat, "done"))
            decline_trigger(g)
    # one card left each: the Campaign Strategy Phase (no Momentum Phase decision arises)
    assert step(g) == "campaign_strategy"
    assert len(g.s["hands"]["kennedy"]) == 1 and len(g.s["hands"]["nixon"]) == 1


def test_deck_reshuffled_from_discards_when_depleted():
    """"If the deck is depleted, shuffle the discards to form a new deck.\""""
    g = start("gmt")
    last_activity_phase(g)
    rest_of_deck = list(g.s["deck"])
    g.s["deck"] = [60, 61, 62]
    g.s["discard"] = [c for c in rest_of_deck if c not in (60, 61, 62)]
    end_turn(g, [g.s["hands"]["kennedy"][-1]], [g.s["hands"]["nixon"][-1]])
    assert g.s["turn"] == 2
    assert sorted(a.split()[2] for a in g.legal_actions(CHANCE)) == ["60", "61", "62"]
    for cid in (60, 61, 62):
        g.apply(CHANCE, f"deal kennedy {cid}")
    # the discards (including the cards discarded this turn) are now the deck
    assert g.s["discard"] == []
    assert 36 in g.s["deck"]                    # played for CP in the fifth Activity Phase
    assert len(g.legal_actions(CHANCE)) == len(g.s["deck"])


def test_seven_cards_dealt_after_the_debates():
    """"On the first five turns (before the Debates), players are dealt six cards; on the last
    two turns (after the Debates), players are dealt seven cards.\""""
    # every debate card for one issue per side: the Debates end after the cards run out
    g = reach_debates([63, 51, 54, 24, 80], [29, 45, 70, 88, 89], initiative="kennedy")
    while g.s["turn"] == 6:
        active = g.active()
        assert active != [CHANCE]
        for seat in active:
            g.apply(seat, g.legal_actions(seat)[0])
    assert g.s["turn"] == 7
    dealt = {"kennedy": 0, "nixon": 0}
    while g.active() == [CHANCE] and g.legal_actions(CHANCE)[0].startswith("deal"):
        action = g.legal_actions(CHANCE)[0]
        dealt[action.split()[1]] += 1
        g.apply(CHANCE, action)
    assert dealt == {"kennedy": 7, "nixon": 7}
