"""How a finished game was decided (Outcome.termination) agrees with what the game says in its
notes and its result, over random games of every game (and a few options)."""
from __future__ import annotations

import pytest

import engine.core as engine
from engine.core import Termination

GAMES = [("tmotp", {}), ("tmotp", {"edition": "zman"}),
         ("mrpresident", {"players": 2}), ("mrpresident", {"players": 3, "edition": "dial"}),
         ("mrpresident", {"players": 3, "plurality": True}),
         ("mrpresident", {"players": 4, "nominee": True}),
         ("mrpresident", {"players": 2, "edition": "dial", "count": "electoral"})]


def _said(state, words: str) -> bool:
    return any(words in note[1] for note in state.s["notes"])


@pytest.mark.parametrize("game_id, options", GAMES)
def test_the_termination_says_how_the_game_was_decided(game_id, options):
    seen = set()
    for seed in range(60 if game_id == "mrpresident" else 12):
        state = engine.play_random(game_id, f"end/{seed}", options=options)
        outcome = state.outcome()
        kind = outcome.termination
        assert outcome.to_dict()["termination"] == kind.value
        seen.add(kind)
        if game_id == "tmotp":
            ev = state.s["result"]["electoral_votes"]
            assert (kind is Termination.DRAW) == (outcome.winner is None)
            assert (kind is Termination.SCORE) == (ev["kennedy"] != ev["nixon"])
        else:
            assert outcome.winner is not None and kind is not Termination.DRAW
            assert (kind is Termination.LOT) == _said(state, "By lot, ")
            overall = _said(state, "the most votes over all the elections decide")
            if overall:
                assert kind in (Termination.TIE_BREAK, Termination.LOT)
            if kind is Termination.SCORE:
                assert not overall
    assert Termination.SCORE in seen


def test_ties_in_the_last_election_of_mr_president():
    """Ties are rare in random play: the three cases by hand (rules: the last election's most
    electoral votes, then the most over all the elections, then lot)."""
    from engine.games.mrpresident.election import termination

    s = {"options": {"count": "electoral"}, "past": [{"tally": {"p1": 200, "p2": 250}}]}
    assert termination(s, {"tally": {"p1": 270, "p2": 260}}) is Termination.SCORE
    assert termination(s, {"tally": {"p1": 265, "p2": 265}}) is Termination.TIE_BREAK
    s["past"] = [{"tally": {"p1": 250, "p2": 250}}]
    assert termination(s, {"tally": {"p1": 265, "p2": 265}}) is Termination.LOT
    popular = {"options": {"count": "popular"}, "past": []}
    assert termination(popular, {"tally": {"p1": 9, "p2": 9}, "ev": {"p1": 300, "p2": 230}}) \
        is Termination.TIE_BREAK  # the popular vote tied, the electoral vote decides


def test_the_1960_election_decided_by_a_tie_break_or_a_draw():
    from engine.games.tmotp.election_day import termination

    assert termination("kennedy", {"kennedy": 303, "nixon": 234}) is Termination.SCORE
    assert termination("nixon", {"kennedy": 269, "nixon": 269}) is Termination.TIE_BREAK
    assert termination(None, {"kennedy": 269, "nixon": 269}) is Termination.DRAW
