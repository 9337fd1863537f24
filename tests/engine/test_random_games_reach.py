"""What random games of 1960 reach: every card's event can be played, for CP, triggered or
preempted, whenever the rules allow, and the optional rules' actions come up in play
(``python bench/event_coverage.py`` reports how often each event runs). Random playouts with
their round trips and replays are the conformance test's (tests/engine/test_conformance.py).
"""
from __future__ import annotations

import pytest

from engine.core import CHANCE, new_game, play_random

GAME = "tmotp"
EDITIONS = ("gmt", "zman")


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_card_has_an_event(edition):
    """The previous issue's limitation is gone: every card in the deck, and both Vice President
    cards, can be played as an event (and so triggered or preempted) in a fresh game."""
    from engine.games.tmotp.events import EVENTS, event_playable
    from engine.games.tmotp.setup import deck_for
    state = new_game(GAME, seed=1, options={"edition": edition})
    deck = deck_for(state.options)
    assert len(deck) == (97 if edition == "gmt" else 91)
    for cid in deck:
        assert cid in EVENTS and event_playable(state, cid), cid


def test_vp_cards_and_restricted_positioning_are_exercised():
    """Random games with the optional rules do reach the actions those rules add or remove."""
    seen = set()

    def check(state):
        for seat in state.active():
            if seat != CHANCE:
                seen.update(a.split()[0] + (" candidate" if " candidate " in a else "")
                            for a in state.legal_actions(seat))

    for seed in range(5):
        play_random(GAME, seed, options={"vp_cards": True, "restricted_positioning": True},
                    check=check)
    assert "vp" in seen and "play candidate" in seen
