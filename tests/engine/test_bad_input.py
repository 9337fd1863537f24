"""Bad input to ``state.apply``: whatever a player (or an email) sends, the engine refuses it cleanly.

Random text, random token lists, real verbs with the wrong number of words, real verbs with random
words, the other seat's legal actions, legal actions from another position, and objects that are
not text are fed to ``state.apply(seat, x)`` at random positions of a few seeded random games.

Always: an ActionError is raised - MalformedAction when the text is not an action of the notation
(not text, empty, a word outside the notation, an unknown verb, the wrong number of words), else
IllegalAction; its message is non-empty and readable (no Python repr or exception names); for
IllegalAction ``err.legal`` is the seat's legal actions (listed in the message when the seat must
act); and the state is unchanged.
"""
from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core import (CHANCE, Action, ActionError, IllegalAction, MalformedAction, from_dict,
                         new_game, play_random)

SEATS = ("kennedy", "nixon")
GAMES = (("gmt", 11), ("zman", 12), ("gmt", 13), ("zman", 14))
TOKEN = re.compile(r"[A-Za-z0-9_+\-]+")
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Words that are close to the notation, to get past the parser more often.
WORDS = ["NY", "ny", "CA", "TX", "ZZ", "1", "2", "0", "-1", "99", "100", "12", "kennedy", "nixon",
         "Nixon", "chance", "event", "campaign", "advertise", "position", "preempt", "candidate",
         "defense", "economy", "civil_rights", "west", "east", "south", "midwest", "none", "all"]


def _options(edition):
    return {"edition": edition, "vp_cards": True}


@functools.lru_cache(maxsize=None)
def _log(game: int):
    edition, seed = GAMES[game]
    return tuple(tuple(e) for e in play_random("tmotp", seed, options=_options(edition)).s["log"])


@functools.lru_cache(maxsize=None)
def _decision_points(game: int):
    """The log positions at which a seat (not chance) must act."""
    return tuple(i for i, (who, _) in enumerate(_log(game)) if who != CHANCE)


@functools.lru_cache(maxsize=512)
def _position_dict(game: int, k: int) -> dict:
    edition, seed = GAMES[game]
    state = new_game("tmotp", seed=seed, options=_options(edition))
    for seat, action in _log(game)[:k]:
        state._do(seat, action)
    return state.to_dict()


def position(game: int, k: int):
    return from_dict(_position_dict(game, k))


@st.composite
def positions(draw):
    """A state of one of the games: mostly a decision point, sometimes any position (chance steps
    and the finished game included). Returns (state, seat): the seat is usually an active one."""
    game = draw(st.integers(0, len(GAMES) - 1))
    if draw(st.integers(0, 3)):
        k = draw(st.sampled_from(_decision_points(game)))
    else:
        k = draw(st.integers(0, len(_log(game))))
    state = position(game, k)
    acting = [x for x in state.active() if x != CHANCE]
    if acting and draw(st.integers(0, 2)):
        seat = draw(st.sampled_from(acting))
    else:
        seat = draw(st.sampled_from(SEATS))
    return Pos(game, k, seat, state)


class Pos(tuple):
    """(state, seat), shown in a failing example as the game, log position and seat."""

    def __new__(cls, game, k, seat, state):
        self = super().__new__(cls, (state, seat))
        self.where = f"{GAMES[game]} at log position {k}, step " \
                     f"{state.top['step'] if state.s['stack'] else 'over'}, seat {seat}"
        return self

    def __repr__(self):
        return f"Pos({self.where})"


def verbs():
    return new_game("tmotp", seed=0)._known_verbs()


# --- the oracle and the checks ----------------------------------------------------------------

def expected(state, seat, x):
    """Return MalformedAction, IllegalAction or None (legal) for ``x`` from the notation's rules."""
    if not isinstance(x, str):
        return MalformedAction
    tokens = x.split()
    if not tokens or not all(TOKEN.fullmatch(t) for t in tokens):
        return MalformedAction
    arity = verbs().get(tokens[0].lower())
    if arity is None or not arity[0] <= len(tokens) - 1 <= arity[1]:
        return MalformedAction
    if seat not in SEATS and seat != CHANCE:
        return IllegalAction
    text = " ".join([tokens[0].lower(), *tokens[1:]]).casefold()
    if any(a.casefold() == text for a in state.legal_actions(seat)):
        return None
    return IllegalAction


PYTHONISMS = ("Traceback", "KeyError", "IndexError", "TypeError", "AttributeError", "ValueError",
              "NameError", "object at 0x", "<class", "<function", "Exception")


def assert_readable(msg: str, x) -> None:
    """The message is words, not Python: what the player typed may be quoted back, nothing else."""
    assert msg.strip(), "an empty error message"
    cleaned = msg
    if isinstance(x, str):
        for echo in sorted({x, x.strip(), *x.split()}, key=len, reverse=True):
            if echo:
                cleaned = cleaned.replace(echo, "").replace(echo.lower(), "")
    for bad in PYTHONISMS + ("<", "{'", "['", "('", "\\x", "\\n", "\n\n"):
        assert bad not in cleaned, f"the message shows Python internals ({bad!r}): {msg}"


def check_refused(state, seat, x):
    """Apply ``x``; assert it is refused as the oracle says (or accepted if legal)."""
    before = state.to_dict()
    kind = expected(state, seat, x)
    legal = [str(a) for a in state.legal_actions(seat)] if seat in SEATS else []
    if kind is None:    # the random input happens to be a legal action: it must be accepted
        got = state.apply(seat, x)
        assert str(got) in legal
        return
    with pytest.raises(ActionError) as info:
        state.apply(seat, x)
    err = info.value
    assert type(err) is kind, f"{x!r}: {type(err).__name__} ({err}), expected {kind.__name__}"
    assert err.reason and str(err)
    assert_readable(str(err), x)
    if kind is IllegalAction:
        assert err.legal == legal
        if seat in state.active() and legal:
            assert "Legal:" in str(err)
            for a in legal[:3]:
                assert a in str(err)
    assert state.to_dict() == before, "a refused action changed the state"


# --- the properties ---------------------------------------------------------------------------

@SETTINGS
@given(positions(), st.text())
def test_random_text(pos, text):
    check_refused(*pos, text)


@SETTINGS
@given(positions(), st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30))
def test_random_printable_text(pos, text):
    check_refused(*pos, text)


def _token():
    verb_names = sorted(verbs())
    return st.one_of(
        st.from_regex(TOKEN, fullmatch=True).filter(lambda t: len(t) < 20),
        st.sampled_from(WORDS),
        st.sampled_from(verb_names),
        st.sampled_from(verb_names).map(str.upper),
        st.integers(-5, 120).map(str),
    )


def _spaces():
    return st.sampled_from([" ", "  ", "\t", " \n ", "\r\n"])


@SETTINGS
@given(positions(), st.lists(_token(), max_size=6), _spaces())
def test_random_token_lists(pos, tokens, sep):
    check_refused(*pos, sep.join(tokens))


@SETTINGS
@given(positions(), st.data())
def test_real_verbs_with_the_wrong_number_of_words(pos, data):
    table = verbs()
    verb = data.draw(st.sampled_from(sorted(table)))
    lo, hi = table[verb]
    n = data.draw(st.integers(0, hi + 3).filter(lambda n: not lo <= n <= hi))
    words = data.draw(st.lists(_token(), min_size=n, max_size=n))
    text = " ".join([verb, *words])
    assert expected(*pos, text) is MalformedAction
    check_refused(*pos, text)


@SETTINGS
@given(positions(), st.data())
def test_real_verbs_with_random_words(pos, data):
    table = verbs()
    verb = data.draw(st.sampled_from(sorted(table)))
    lo, hi = table[verb]
    n = data.draw(st.integers(lo, hi))
    words = data.draw(st.lists(_token(), min_size=n, max_size=n))
    if data.draw(st.booleans()):
        verb = verb.upper()
    check_refused(*pos, " ".join([verb, *words]))


@SETTINGS
@given(positions(), st.data())
def test_legal_actions_of_the_other_seat(pos, data):
    state, seat = pos
    theirs = [a for x in (*SEATS, CHANCE) if x != seat for a in state.legal_actions(x)]
    assume(theirs)
    action = data.draw(st.sampled_from(theirs))
    if data.draw(st.booleans()):
        action = action.swapcase()
    check_refused(state, seat, action)


@SETTINGS
@given(positions(), positions(), st.data())
def test_legal_actions_from_another_position(pos, elsewhere, data):
    there, _ = elsewhere
    theirs = [a for x in (*SEATS, CHANCE) for a in there.legal_actions(x)]
    assume(theirs)
    check_refused(*pos, data.draw(st.sampled_from(theirs)))


NOT_TEXT = st.one_of(
    st.none(), st.integers(), st.floats(allow_nan=True), st.booleans(), st.binary(max_size=10),
    st.lists(st.text(max_size=5), max_size=3), st.tuples(st.text(max_size=5)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(b"pass"), st.just(["pass"]), st.just(("campaign", "NY", "2")), st.just(object()),
)


@SETTINGS
@given(positions(), NOT_TEXT)
def test_objects_that_are_not_text(pos, x):
    check_refused(*pos, x)


@SETTINGS
@given(positions(), st.one_of(st.sampled_from(["Kennedy", "NIXON", "nixon ", "johnson", "", "both",
                                               "spectator", "kennedy,nixon"]),
                              st.text(max_size=8), st.none(), st.integers()))
def test_a_bad_seat_name_is_an_illegal_action(pos, bad_seat):
    state, _ = pos
    assume(bad_seat not in (*SEATS, CHANCE))
    acting = [x for x in state.active() if x != CHANCE]
    action = state.legal_actions(acting[0])[0] if acting else "pass"
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        state.apply(bad_seat, action)
    assert_readable(str(info.value), bad_seat if isinstance(bad_seat, str) else "")
    assert "kennedy" in str(info.value) and "nixon" in str(info.value)
    assert state.to_dict() == before


# --- a few fixed cases ------------------------------------------------------------------------

@pytest.mark.parametrize("x, kind", [
    ("", MalformedAction), ("   ", MalformedAction), ("fly NY", MalformedAction),
    ("campaign", MalformedAction), ("campaign NY 2 3", MalformedAction), ("pass now", MalformedAction),
    ("campaign N.Y. 2", MalformedAction), (None, MalformedAction), (5, MalformedAction),
    (["pass"], MalformedAction), ("pass", IllegalAction), ("campaign NY 2", IllegalAction),
    ("deal kennedy 1", IllegalAction),
])
def test_fixed_refusals_at_the_first_decision(x, kind):
    game = 0
    state = position(game, _decision_points(game)[0])
    seat = state.active()[0]
    assert seat in SEATS
    assert expected(state, seat, x) is kind
    check_refused(state, seat, x)


def test_the_parser_agrees_with_the_oracle_on_notation():
    for text in ("campaign NY 2", " PLAY 12 event ", "strategy 3 4"):
        assert str(Action.parse(text)) == " ".join([text.split()[0].lower(), *text.split()[1:]])


def test_a_refusal_on_a_finished_game_says_it_is_over():
    game = 1
    state = position(game, len(_log(game)))
    assert state.active() == []
    with pytest.raises(IllegalAction) as info:
        state.apply("kennedy", "pass")
    assert "over" in str(info.value)
    assert info.value.legal == []


def test_every_position_is_reachable_by_validated_apply():
    """The oracle's premise: the logs replay through ``apply`` (so positions are real)."""
    rng = random.Random(0)
    for game in range(len(GAMES)):
        edition, seed = GAMES[game]
        state = new_game("tmotp", seed=seed, options=_options(edition))
        for seat, action in _log(game):
            text = action.swapcase() if rng.random() < 0.3 else action
            assert state.apply(seat, text) == action
        assert state.to_dict() == _position_dict(game, len(_log(game)))
