"""Each game names the rating pool of a seat (issue 27 item 6): 1960's sides apart, Mr.
President's by number of candidates, and a game that names none pools each seat alone."""

from __future__ import annotations

import pytest

import engine.core as engine
from engine.core import OptionsError


def test_1960_rates_kennedy_and_nixon_apart():
    info = engine.info("tmotp")
    assert [info.role_of({}, seat) for seat in info.seats({})] == ["kennedy", "nixon"]
    assert info.role_of({"edition": "zman"}, "nixon") == "nixon"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mr_president_pools_by_number_of_candidates(players):
    info = engine.info("mrpresident")
    options = {"players": players}
    assert {info.role_of(options, s) for s in info.seats(options)} == {f"{players} candidates"}


def test_a_game_without_roles_pools_each_seat_and_bad_options_are_refused():
    info = engine.info("sealedbid")
    seats = info.seats({})
    assert [info.role_of({}, s) for s in seats] == list(seats)
    with pytest.raises(OptionsError):
        engine.info("mrpresident").role_of({"players": 9}, "p1")
