"""Bad input to ``state.apply``, for every registered game (hypothesis): whatever a player (or an
email) sends, the engine refuses it cleanly. Sent at states kept from the conformance test's
random games (tests/engine/conformance.py): any text, text made of the game's own words, JSON
values and other objects that are not text, actions legal for another seat or at another state,
and seats that are not in the game.

Always: an ActionError is raised - MalformedAction when the input is not an action of the
notation (not text, empty, a word outside the notation, an unknown verb, the wrong number of
words), else IllegalAction - never another exception; its message is words, not Python; for
IllegalAction ``err.legal`` is the seat's legal actions (listed in the message when the seat
must act); and the state is unchanged. Well-formed input the game reads as another spelling of
a legal action (its ``parse``) is applied as that action.
"""
from __future__ import annotations

import functools
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, ActionError, IllegalAction, MalformedAction

from .conformance import GAMES, records, restore

TOKEN = re.compile(r"[A-Za-z0-9_+\-]+")
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PYTHONISMS = ("Traceback", "KeyError", "IndexError", "TypeError", "AttributeError", "ValueError",
              "NameError", "object at 0x", "<class", "<function", "Exception")


@functools.cache
def kept(game: str) -> tuple:
    """States of the game's random games to send bad input to (JSON text)."""
    return tuple(t for rec in records(game) for t in rec.positions + rec.sealed + rec.chance)


@functools.cache
def words(game: str) -> tuple:
    """The words of the game's notation met in its random games, its verbs and its seats."""
    seen = {w for rec in records(game) for _, a in rec.log for w in a.split()}
    state = restore(kept(game)[0])
    return tuple(sorted(seen | set(state._known_verbs()) | set(state.seats) | {CHANCE}))


@st.composite
def positions(draw, game):
    """(state, seat): a kept state, and mostly a seat asked there."""
    states = kept(game)
    state = restore(states[draw(st.integers(0, len(states) - 1))])
    acting = [x for x in state.active() if x != CHANCE]
    if acting and draw(st.integers(0, 2)):
        return state, draw(st.sampled_from(acting))
    return state, draw(st.sampled_from([*state.seats, CHANCE]))


def tokens(game):
    return st.one_of(st.from_regex(TOKEN, fullmatch=True).filter(lambda t: len(t) < 20),
                     st.sampled_from(words(game)), st.sampled_from(words(game)).map(str.upper),
                     st.integers(-5, 120).map(str))


def texts(game):
    """Text far from the notation and near it: any text, the game's words in any number."""
    spaces = st.sampled_from([" ", "  ", "\t", " \n ", "\r\n"])
    return st.one_of(
        st.text(),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
        st.builds(lambda ts, sep: sep.join(ts), st.lists(tokens(game), max_size=6), spaces),
        st.builds(lambda v, ts: " ".join([v, *ts]), st.sampled_from(words(game)),
                  st.lists(tokens(game), max_size=4)),
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=8)
NOT_TEXT = st.one_of(JSON_VALUES.filter(lambda x: not isinstance(x, str)),
                     st.binary(max_size=10), st.tuples(st.text(max_size=5)), st.just(object()))


def expected(state, seat, x):
    """MalformedAction, IllegalAction or None (legal) for ``x``, by the notation's rules."""
    if not isinstance(x, str):
        return MalformedAction
    said = x.split()
    if not said or not all(TOKEN.fullmatch(w) for w in said):
        return MalformedAction
    arity = state._known_verbs().get(said[0].lower())
    if arity is None or not arity[0] <= len(said) - 1 <= arity[1]:
        return MalformedAction
    if seat not in state.seats and seat != CHANCE:
        return IllegalAction
    canonical = " ".join([said[0].lower(), *said[1:]]).casefold()
    if any(a.casefold() == canonical for a in state.legal_actions(seat)):
        return None
    return IllegalAction


def assert_readable(message: str, x) -> None:
    """The message is words, not Python: what the player typed may be quoted back, nothing else."""
    assert message.strip(), "an empty error message"
    cleaned = message
    if isinstance(x, str):
        for echo in sorted({x, x.strip(), *x.split()}, key=len, reverse=True):
            if echo:
                cleaned = cleaned.replace(echo, "").replace(echo.lower(), "")
    for bad in PYTHONISMS + ("<", "{'", "['", "('", "\\x", "\\n", "\n\n"):
        assert bad not in cleaned, f"the message shows Python internals ({bad!r}): {message}"


def check_refused(state, seat, x) -> None:
    """Apply ``x``: refused as the notation's rules say (or applied if it is legal after all)."""
    before = state.to_dict()
    kind = expected(state, seat, x)
    legal = state.legal_actions(seat) if seat in (*state.seats, CHANCE) else []
    if kind is None:
        assert str(state.apply(seat, x)) in legal
        return
    try:
        got = state.apply(seat, x)
    except ActionError as refusal:
        err = refusal
    else:       # well formed, and another spelling of a legal action (the game's ``parse``)
        assert kind is IllegalAction and str(got) in legal, f"{x!r} is taken as {got!r}"
        return
    assert type(err) is kind, f"{x!r}: {type(err).__name__} ({err}), expected {kind.__name__}"
    assert err.reason and str(err)
    assert_readable(str(err), x)
    if kind is IllegalAction:
        assert err.legal == legal
        if seat in state.active() and legal:
            assert "Legal:" in str(err) and all(a in str(err) for a in legal[:3])
    assert state.to_dict() == before, "a refused action changed the state"


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_any_text_is_refused_with_the_engines_error(game, data):
    state, seat = data.draw(positions(game))
    check_refused(state, seat, data.draw(texts(game)))


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_values_that_are_not_text_are_refused(game, data):
    state, seat = data.draw(positions(game))
    check_refused(state, seat, data.draw(NOT_TEXT))


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_actions_legal_for_another_seat_or_elsewhere_are_refused(game, data):
    state, seat = data.draw(positions(game))
    there, _ = data.draw(positions(game))
    theirs = sorted({a for x in (*there.seats, CHANCE) for a in there.legal_actions(x)}
                    | {a for x in (*state.seats, CHANCE) if x != seat
                       for a in state.legal_actions(x)})
    assume(theirs)
    action = data.draw(st.sampled_from(theirs))
    check_refused(state, seat, action.swapcase() if data.draw(st.booleans()) else action)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_a_seat_that_is_not_in_the_game_is_refused(game, data):
    state, _ = data.draw(positions(game))
    bad = data.draw(st.one_of(st.text(max_size=8), st.none(), st.integers(),
                              st.sampled_from(words(game)).map(str.upper)))
    assume(bad not in (*state.seats, CHANCE))
    acting = [x for x in state.active() if x != CHANCE]
    action = state.legal_actions(acting[0])[0] if acting else words(game)[0]
    before = state.to_dict()
    with pytest.raises(ActionError) as info:
        state.apply(bad, action)
    assert_readable(str(info.value), bad if isinstance(bad, str) else "")
    if type(info.value) is IllegalAction:
        assert all(x in str(info.value) for x in state.seats)
    assert state.to_dict() == before
