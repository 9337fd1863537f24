"""What a game declares of itself (engine.core.registry.GameInfo) agrees with the game built:
the lobby learns seats and checks options without building a game."""
from __future__ import annotations

import pytest

import engine.core as engine
from engine.games import GAMES

OPTIONS = {
    "tmotp": [{}, {"edition": "zman"}, {"vp_cards": True, "restricted_positioning": True}],
    "mrpresident": [{}, {"players": 3}, {"players": 4, "edition": "dial"},
                    {"players": 4, "nominee": True}, {"edition": "dial", "count": "electoral"}],
}
BAD = {
    "tmotp": [{"edition": "avalon"}, {"vp_cards": "yes"}],
    "mrpresident": [{"players": 5}, {"edition": "chalkboard", "count": "popular"},
                    {"nominee": True}],
}


def test_the_list_of_games_is_the_registry():
    """engine/games lists the built-in games; the tests register theirs (tests/games)."""
    assert engine.games() == sorted({*GAMES, "sealedbid"})


@pytest.mark.parametrize("game_id", GAMES)
def test_declared_seats_are_the_built_games(game_id):
    info = engine.info(game_id)
    assert info.game_id == game_id
    for options in OPTIONS[game_id]:
        seats = info.seats(options)
        assert seats == tuple(engine.new_game(game_id, seed="x", options=options).seats)
        assert info.min_players <= len(seats) <= info.max_players
        assert set(info.option_defaults) <= set(info.check_options(dict(options)))


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_options_are_refused_alike(game_id):
    for options in BAD[game_id]:
        with pytest.raises(engine.OptionsError) as declared:
            engine.info(game_id).seats(options)
        with pytest.raises(engine.OptionsError) as built:
            engine.new_game(game_id, seed="x", options=options)
        assert str(declared.value) == str(built.value)


def test_an_unknown_game_is_refused_naming_the_games():
    with pytest.raises(engine.OptionsError, match="No game 'chess'; the games are mrpresident"):
        engine.info("chess")


def test_a_game_registered_from_elsewhere_is_listed_then_forgotten():
    from engine.core.registry import GameInfo, unregister

    info = GameInfo("coin", 2, 2, True, check_options=dict, seats_for=lambda o: ("a", "b"))
    engine.register("coin", lambda **kw: None, lambda data, copy=True: None, info)
    try:
        assert "coin" in engine.games() and engine.info("coin").seats() == ("a", "b")
    finally:
        unregister("coin")
    assert "coin" not in engine.games()
