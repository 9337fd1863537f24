"""One conformance test over every registered game, as OpenSpiel's ``games_sim_test``: what the
engine protocol (DESIGN.md, "The engine protocol") promises of any game, checked on the random
games of tests/engine/conformance.py (every game registered when the tests are collected, so a
game registered from the tests is covered too; the checks there hold at every state). A game's
own rules - golden samples, scenarios, cards, rulings, what its views show - are tested beside it.

- A random game ends, and the validated replay of its log (chance outcomes logged) rebuilds its
  final state and outcome exactly; a game of nothing but safe defaults ends too.
- ``legal_actions`` is the only validator: every legal action applies, in any letter case, and
  returns its canonical text; actions legal for another seat or elsewhere are refused with the
  engine's error and change nothing (test_conformance_bad_input.py sends arbitrary input).
- The leak test, in the forms every game shares: two states that differ only in what a seat may
  not see give it (and the spectators) the same view - a sealed commitment made one way or
  another while others still decide (the committer sees which), and a chance outcome or another
  that the seat's view of the log shows alike. A view is plain JSON and never holds the seed.
- The game's presenter (server/games) renders every prompt, note and result met, in every
  locale, with every placeholder filled, and names every seat.
"""
from __future__ import annotations

import json
import random
import re

import pytest

import engine.core as engine
from engine.core import CHANCE, Action, IllegalAction, Termination, sample_chance
from server.games import presenter
from server.i18n import game_text

from .conformance import (GAMES, MAX_STEPS, label, option_sets, played, records, restore,
                          seed_of)

LOCALES = ("en", "ja", "es")
BRACES = re.compile(r"[{}]")
CASES = [pytest.param(game, options, id=f"{game}-{label(options)}")
         for game in GAMES for options in option_sets(game)]


def test_every_registered_game_is_played():
    assert GAMES == engine.games() and {c.values[0] for c in CASES} == set(GAMES)


@pytest.mark.parametrize("game, options", CASES)
def test_random_games_end_and_replay_exactly(game, options):
    for rec in played(game, json.dumps(options)):
        again = engine.replay(game, rec.seed, rec.log, options=options)
        assert again.to_dict() == rec.final, "the replay of the log does not rebuild the game"
        assert again.outcome() == rec.outcome


@pytest.mark.parametrize("game, options", CASES)
def test_a_game_of_safe_defaults_ends(game, options):
    state = engine.new_game(game, seed=seed_of(game, options, 0), options=options)
    for _ in range(MAX_STEPS):
        active = state.active()
        if not active:
            assert isinstance(state.outcome().termination, Termination)
            return
        seat = active[0]
        state.apply(seat, sample_chance(state) if seat == CHANCE else state.default_action(seat))
    raise AssertionError("a game of safe defaults does not end")


@pytest.mark.parametrize("game", GAMES)
def test_legal_actions_are_the_only_validator(game):
    """At kept states: every legal action (a sample of up to 12 a seat) applies in any letter
    case and returns its canonical text; actions legal elsewhere (the seat not asked included)
    are refused with IllegalAction and change nothing, unless the game reads one as another
    spelling of a legal action (its ``parse``: what ``apply`` validates with)."""
    rng = random.Random(game)
    elsewhere = sorted({a for rec in records(game) for _, a in rec.log})
    applied = refused = 0
    for rec in records(game):
        for text in rec.positions + rec.sealed:
            state = restore(text)
            before = state.to_dict()
            for seat in (*rec.seats, CHANCE):
                legal = state.legal_actions(seat)
                for action in rng.sample(legal, min(12, len(legal))):
                    written = rng.choice([action, action.upper(), action.swapcase(),
                                          f"  {action}\t"])
                    got = restore(text).apply(seat, written)
                    assert isinstance(got, Action) and str(got) == action, (written, got)
                    applied += 1
                folded = {a.casefold() for a in legal}
                for action in rng.sample(elsewhere, min(12, len(elsewhere))):
                    if action.casefold() in folded:
                        continue
                    try:
                        got = state.parse(seat, action)
                    except IllegalAction:
                        with pytest.raises(IllegalAction) as info:
                            state.apply(seat, action)
                        assert info.value.legal == legal
                        refused += 1
                    else:
                        assert str(got) in legal, f"{seat} {action!r} is taken as {got!r}"
            assert state.to_dict() == before, "a refused action changed the state"
    assert applied > 20 and refused > 20


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_refuses_everything(game):
    for rec in records(game):
        state = engine.from_dict(rec.final)
        for seat, action in rec.log[-5:]:
            with pytest.raises(IllegalAction) as info:
                state.apply(seat, action)
            assert info.value.legal == [] and "over" in str(info.value)
        assert state.to_dict() == rec.final


# --- the leak test ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_view_never_shows_what_its_seat_may_not_see(game):
    rng = random.Random(game)
    sealed = hidden_chance = 0
    for rec in records(game):
        for text in rec.positions:
            state = restore(text)
            for viewer in (*rec.seats, None):
                shown = json.dumps(state.view(viewer))
                assert rec.seed not in shown, f"the view of {viewer} holds the seed"
                assert json.loads(shown) == state.view(viewer), "a view is not plain JSON"
        for text in rec.sealed:
            sealed += sealed_commitments_are_hidden(text, rec.seats, rng)
        for text in rec.chance:
            hidden_chance += hidden_chance_is_hidden(text, rec.seats, rng)
    if engine.info(game).simultaneous:
        assert sealed > 0, "a game with sealed steps met none"
    assert sealed + hidden_chance > 0, "nothing hidden was compared"


def sealed_commitments_are_hidden(text: str, seats: tuple, rng: random.Random) -> int:
    """Several seats decide at once: each in turn commits one legal action or another while the
    others still decide. Nobody else (nor the spectators) may tell which; the committer can.
    Returns the pairs compared."""
    state = restore(text)
    active = state.active()
    compared = 0
    for committer in active:
        legal = state.legal_actions(committer)
        if len(legal) < 2:
            continue
        first, second = rng.sample(legal, 2)
        a, b = restore(text), restore(text)
        a.apply(committer, first)
        b.apply(committer, second)
        waiting = [x for x in active if x != committer]
        assert a.active() == waiting == b.active(), "a seat that committed is asked again"
        where = f"{committer} commits {first!r} or {second!r} at {active}"
        for viewer in (*[x for x in seats if x != committer], None):
            assert_same_view(a, b, viewer, where)
        assert a.view(committer) != b.view(committer), f"{where}: the committer sees neither"
        compared += 1
    return compared


def hidden_chance_is_hidden(text: str, seats: tuple, rng: random.Random) -> int:
    """The chance outcome drawn or another, where a seat's view of the log shows the same entry
    (a card dealt to another seat): the rest of its view must not tell them apart either.
    Returns the pairs compared."""
    state = restore(text)
    outcomes = [a for a, _ in state.chance_outcomes()]
    drawn = sample_chance(state)
    compared = 0
    for other in rng.sample(outcomes, min(4, len(outcomes))):
        if other == drawn:
            continue
        a, b = restore(text), restore(text)
        a.apply(CHANCE, drawn)
        b.apply(CHANCE, other)
        for viewer in (*seats, None):
            va, vb = a.view(viewer), b.view(viewer)
            if "log" in va and va["log"] == vb["log"]:
                assert_same_view(a, b, viewer, f"chance brings {drawn!r} or {other!r}")
                compared += 1
    return compared


def assert_same_view(a, b, viewer, where: str) -> None:
    va, vb = a.view(viewer), b.view(viewer)
    if va != vb:
        diff = sorted(k for k in set(va) | set(vb) if va.get(k) != vb.get(k))
        raise AssertionError(f"{where}: the view of {viewer or 'the spectators'} differs in {diff}")


# --- the presenter ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_presenter_renders_every_text_in_every_locale(game):
    """Every prompt, note and result met in the random games, as the server stores it, in every
    locale: words, with every placeholder filled; and every seat has a name."""
    shown = presenter(game)
    texts, seats = {}, set()
    for rec in records(game):
        texts.update(rec.texts)
        seats.update(rec.seats)
    assert len(texts) > 10
    for loc in LOCALES:
        names = shown.seat_names(loc)
        assert shown.terms(loc)["seats"] == names
        for seat in seats:
            assert names.get(seat, "").strip() and not BRACES.search(names[seat]), (loc, seat)
        for key, stored in texts.items():
            said = game_text.text(stored, loc, game)
            assert said.strip() and not BRACES.search(said), f"{loc}: {key} -> {said!r}"
