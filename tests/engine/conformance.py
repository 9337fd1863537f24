"""The random games of the conformance test (tests/engine/test_conformance.py and
test_conformance_bad_input.py): every registered game, read when the tests are collected, played
with uniformly random legal actions under a few option sets, and checked at every state for what
the engine protocol (DESIGN.md, "The engine protocol") promises of any game. Each game is played
once, whichever test asks first; the tests read what it leaves (a ``Record``).

At every state:
- the state goes through ``to_dict`` -> JSON -> ``from_dict`` unchanged, and the game plays on
  from the restored copy (so the validated replay of the log, test_conformance.py, shows that a
  restored copy plays on as the original would);
- who acts, what is legal and what chance may bring agree: legal actions are sorted, free of
  duplicates, canonical notation (``engine.core.Action``) of the arity the game declares, and
  present exactly for the seats asked (``asks`` says what they decide, ``default_action`` is
  one of them); a chance step's probabilities are positive and sum to one; a game still played
  has no outcome and a finished one an outcome with a ``Termination``.

The option sets are the game's declared defaults (``engine.core.info(game)``), each flag turned
over and all of them, each count raised by one and two, and the string values the declaration
cannot list (``MORE_OPTIONS``), less those the game refuses. An option set is played from
``MIN_STEPS`` logged actions' worth of games (one long game or several short ones), at least
``WHISTLESTOP_CONFORMANCE_GAMES`` games (default 1; a few hundred for a deeper search).
"""
from __future__ import annotations

import functools
import json
import os
import random
from dataclasses import dataclass, field

import engine.core as engine
from engine.core import CHANCE, Action, Termination, history, sample_chance
from engine.core.messages import data

GAMES = engine.games()
GAMES_PER_SET = int(os.environ.get("WHISTLESTOP_CONFORMANCE_GAMES", "1"))
MIN_STEPS = 300             # logged actions played at least per option set
MAX_STEPS = 20_000          # the longest random game of the built-in games logs about 1,000
SAMPLE_EVERY = 12           # about one state in this many is kept for the tests
KEPT = 8                    # at most this many sealed and chance states kept from one game

# Option values a game's declaration cannot list (it gives defaults only): a string option's
# other values, and the combinations they need.
MORE_OPTIONS = {
    "tmotp": [{"edition": "zman"},
              {"edition": "zman", "vp_cards": True, "restricted_positioning": True}],
    "mrpresident": [{"edition": "dial"}, {"edition": "dial", "players": 3, "count": "electoral"},
                    {"edition": "chalkboard", "version": "long", "players": 3},
                    {"players": 4, "nominee": True, "parties": "lot"}],
}


def option_sets(game: str) -> list[dict]:
    """The option sets ``game`` is played with (see the module's doc), each once."""
    info = engine.info(game)
    defaults = dict(info.option_defaults)
    flags = {k: not v for k, v in defaults.items() if isinstance(v, bool)}
    tried = [{}, *({k: v} for k, v in flags.items()), flags]
    tried += [{k: v + n} for k, v in defaults.items()
              if isinstance(v, int) and not isinstance(v, bool) for n in (1, 2)]
    tried += MORE_OPTIONS.get(game, [])
    out, seen = [], set()
    for options in tried:
        try:
            checked = json.dumps(info.check_options(dict(options)), sort_keys=True)
        except engine.OptionsError:
            continue
        if checked not in seen:
            seen.add(checked)
            out.append(options)
    return out


def label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


@dataclass
class Record:
    """What a checked random game leaves for the tests: its log and final state, states kept
    along the way (as JSON text), and every text a player is shown ([template, args])."""
    game: str
    options: dict
    seed: str
    seats: tuple
    log: list = field(default_factory=list)
    final: dict | None = None
    outcome: engine.Outcome | None = None
    positions: list = field(default_factory=list)   # any state: decisions, chance, the end
    sealed: list = field(default_factory=list)      # several seats decide at once
    chance: list = field(default_factory=list)      # a chance outcome is due
    texts: dict = field(default_factory=dict)       # JSON of [template, args] -> the same
    legal_seen: set = field(default_factory=set)


def seed_of(game: str, options: dict, n: int) -> str:
    """A seed that would stand out in a view (no view may hold it)."""
    return f"conformance-secret/{game}/{label(options)}/{n}"


@functools.cache
def played(game: str, options_json: str) -> tuple[Record, ...]:
    """The checked random games of ``game`` with these options (see the module's doc)."""
    out, steps = [], 0
    while len(out) < GAMES_PER_SET or steps < MIN_STEPS:
        out.append(play(game, json.loads(options_json), len(out)))
        steps += len(out[-1].log)
    return tuple(out)


def records(game: str) -> list[Record]:
    """Every checked random game of ``game``, of every option set."""
    return [rec for options in option_sets(game) for rec in played(game, json.dumps(options))]


def restore(text: str):
    """The state kept as ``text`` (a fresh object each time)."""
    return engine.from_dict(json.loads(text), copy=False)


def play(game: str, options: dict, n: int) -> Record:
    """Play random game ``n`` of ``game`` with ``options``, checking every state."""
    seed = seed_of(game, options, n)
    state = engine.new_game(game, seed=seed, options=options)
    rec = Record(game, options, seed, tuple(state.seats))
    assert rec.seats == engine.info(game).seats(options), "the declared seats are not the game's"
    rng = random.Random(f"policy/{seed}")
    keep = random.Random(f"keep/{seed}")
    for _ in range(MAX_STEPS):
        state, text = round_trip(state)
        check_protocol(state, rec)
        active = state.active()
        if not active:
            break
        keep_state(rec, text, active, keep)
        rec.texts.update(text_item(state.prompt(None)))
        if active == [CHANCE]:
            seat, action = CHANCE, sample_chance(state)
        else:
            for x in active:
                rec.texts.update(text_item(state.prompt(x)))
            seat = rng.choice(active)
            action = rng.choice(state.legal_actions(seat))
        trimmed = engine.from_dict(history.split(json.loads(text))[0], copy=False)
        assert state.apply(seat, action) == action
        check_trimmed(state, trimmed, seat, action)
        rec.log.append([seat, action])
    else:
        raise AssertionError(f"{game} {options} seed {seed}: the game does not end")
    rec.final = state.to_dict()
    rec.outcome = state.outcome()
    rec.positions.append(text)
    for viewer in (*rec.seats, None):
        for note in state.view(viewer)["note_messages"]:     # as the pages list them
            rec.texts.update(text_item(note))
    rec.texts.update(text_item(rec.outcome.reason))
    return rec


def check_trimmed(whole, trimmed, seat: str, action: str) -> None:
    """The state trimmed of its history before ``action`` (engine.core.history, as the server
    stores it) plays it as the whole state did: the same state but for the history, which
    ends with the same log entries and notes; and its view refuses, not shows a part."""
    assert trimmed.apply(seat, action) == action
    w, t = whole.to_dict(), trimmed.to_dict()
    assert w["log"][t["log_from"]:] == t["log"], "a trimmed state logs otherwise"
    assert w["notes"][t["notes_from"]:] == t["notes"], "a trimmed state notes otherwise"
    assert history.split(w)[0] == history.split(t)[0], "a trimmed state plays otherwise"
    assert trimmed.active() == whole.active() and trimmed.log_length() == whole.log_length()
    assert all(trimmed.legal_actions(x) == whole.legal_actions(x) for x in whole.active())
    try:
        trimmed.view(None)
    except history.HistoryNotHeld:
        return
    raise AssertionError("the view of a trimmed state does not refuse")


def round_trip(state):
    """The state through ``to_dict`` -> JSON -> ``from_dict``, checked unchanged; and its JSON."""
    d = state.to_dict()
    text = json.dumps(d)
    loaded = json.loads(text)
    assert loaded == d, "the state holds values that JSON changes (tuples, int keys, sets)"
    restored = engine.from_dict(loaded, copy=False)
    assert restored is not state and restored.to_dict() == d, "from_dict(to_dict()) differs"
    return restored, text


def keep_state(rec: Record, text: str, active: list, keep: random.Random) -> None:
    """Keep some states, at random, for the tests: sealed steps and chance steps apart."""
    kept = rec.chance if active == [CHANCE] else rec.sealed if len(active) > 1 else None
    if kept is not None and len(kept) < KEPT and keep.random() < 3 / SAMPLE_EVERY:
        kept.append(text)
    if keep.random() < 1 / SAMPLE_EVERY and len(rec.positions) < 4 * KEPT:
        rec.positions.append(text)


def text_item(message) -> dict:
    """{key: the message's [template, args] as the server stores it (through JSON)}."""
    stored = json.loads(json.dumps(data(message) if isinstance(message, str) else message))
    return {json.dumps(stored, sort_keys=True): stored}


def check_protocol(state, rec: Record) -> None:
    """Who acts, what is legal and what chance brings agree (see the module's doc)."""
    active = state.active()
    seats = rec.seats
    assert len(active) == len(set(active)) and set(active) <= {*seats, CHANCE}, active
    legal = {x: state.legal_actions(x) for x in (*seats, CHANCE)}
    for x, actions in legal.items():
        assert isinstance(actions, list)
        assert actions == sorted(actions) and len(actions) == len(set(actions)), x
        for a in actions:
            if a not in rec.legal_seen:
                rec.legal_seen.add(a)
                check_notation(state, a)
    if not active:
        assert not any(legal.values()), "a finished game has legal actions"
        outcome = state.outcome()
        assert outcome is not None and outcome.reason, "a finished game has no outcome"
        assert isinstance(outcome.termination, Termination)
        assert outcome.winner in (*seats, None)
        stored = json.loads(json.dumps(outcome.to_dict()))
        assert stored["termination"] == outcome.termination.value
        return
    assert state.outcome() is None, "a game still played has an outcome"
    if active == [CHANCE]:
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance step with no outcome"
        assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert sorted(a for a, _ in outcomes) == legal[CHANCE]
        assert not any(legal[x] for x in seats), "a seat may act at a chance step"
        return
    assert CHANCE not in active and legal[CHANCE] == [] and state.chance_outcomes() == []
    for x in seats:
        asked = x in active
        assert bool(legal[x]) == asked, f"{x}: legal actions {'missing' if asked else 'unasked'}"
        assert (state.asks(x) is not None) == asked, x
        if asked:
            assert state.default_action(x) in legal[x], f"{x}: the safe default is not legal"


def check_notation(state, action: str) -> None:
    """A legal action is canonical notation with the arity the game declares."""
    parsed = Action.parse(action)
    assert str(parsed) == action, f"{action!r} is not in canonical notation"
    assert str(Action.parse(f"  {action.replace(' ', '   ')}\t")) == action
    lo, hi = state._known_verbs()[parsed.verb]
    assert lo <= len(parsed.args) <= hi, f"{action!r}: the verb table's arity disagrees"
