"""Random playouts: whole games of random legal actions, in both editions and with the optional rules.

Each game must end (no exception, no seat that must act with nothing legal) and a validated
``replay()`` of its log must rebuild the identical final state. A state restored mid-game must play
on exactly like the original. Every card's event is built: any card may be played as an event, for
CP, triggered or preempted, whenever the rules allow (``test_every_card_has_an_event``);
``python bench/event_coverage.py`` reports how often each event ran.

Speed: 2,000 seeds per edition run as 40 tests of 50 seeds each, so that ``pytest -n 2`` spreads
them over two cores. Every state of those games is checked to round-trip: ``to_dict()`` is a JSON
copy, so a state round-trips exactly when all its values survive JSON unchanged (no tuples, int
keys or sets). At every state the whole state except the append-only log and notes is checked that
way, and the log and note entries added since the previous state are checked too; that is the round
trip of the whole state without re-copying the growing log ~500 times a game. At every 20th state
(staggered by seed) and at the final state the black-box ``from_dict(to_dict())`` round trip is
checked as well. The 2,000 seeds per edition with each optional rule on check the black-box round
trip every 20th state and at the end, the replay, and that the game ends.
"""
from __future__ import annotations

import json
import random

import pytest

from engine.core import CHANCE, DeadEnd, from_dict, new_game, play_random, replay, sample_chance

GAME = "tmotp"
EDITIONS = ("gmt", "zman")
CHUNKS, PER_CHUNK = 40, 50                       # 2,000 seeds per edition
OPTION_CHUNKS = 20                               # 2,000 seeds per edition and optional rule
OPTION_SETS = {
    "vp_cards": {"vp_cards": True},
    "restricted_positioning": {"restricted_positioning": True},
    "both": {"vp_cards": True, "restricted_positioning": True},
}
OPTION_SEEDS = {"vp_cards": 2000, "restricted_positioning": 2000, "both": 200}
MAX_LOG = 5000                                   # a random game is about 500 log entries
FULL_ROUND_TRIP_EVERY = 20


APPEND_ONLY = ("log", "notes")


def _json_exact(value) -> bool:
    return json.loads(json.dumps(value)) == value


def _round_trip_check(seed, every_state=True):
    """Return the per-state check of a playout (see the module docstring)."""
    count = [seed % FULL_ROUND_TRIP_EVERY]
    seen = {key: 0 for key in APPEND_ONLY}

    def check(state):
        count[0] += 1
        s = state.s
        if every_state:
            body = {k: v for k, v in s.items() if k not in APPEND_ONLY}
            assert _json_exact(body), "the state holds values JSON would change"
            for key in APPEND_ONLY:
                assert _json_exact(s[key][seen[key]:]), f"new {key} entries are not JSON values"
                seen[key] = len(s[key])
        if count[0] % FULL_ROUND_TRIP_EVERY == 0:
            d = state.to_dict()
            assert d == s
            restored = from_dict(d)
            assert restored.to_dict() == d
            assert restored.active() == state.active()
        if len(s["log"]) > MAX_LOG:
            raise AssertionError("the game does not end")

    return check


def playout(seed, options: dict, every_state=True):
    """Play one random game to the end with all the checks; raise AssertionError naming the seed."""
    label = f"seed {seed}, options {options}"
    try:
        final = play_random(GAME, seed, options=options, check=_round_trip_check(seed, every_state))
    except DeadEnd as e:
        raise AssertionError(f"{label}: dead end: {e}") from e
    except AssertionError as e:
        raise AssertionError(f"{label}: {e}") from e
    except Exception as e:      # noqa: BLE001 - any crash of the engine fails the playout
        raise AssertionError(f"{label}: {type(e).__name__}: {e}") from e
    assert final.active() == [], label
    outcome = final.outcome()
    assert outcome is not None, label
    assert outcome.winner in ("kennedy", "nixon", None), label
    assert outcome.reason, label
    d = final.to_dict()
    assert from_dict(d).to_dict() == d, label
    try:
        again = replay(GAME, seed, d["log"], options=options)
    except Exception as e:      # noqa: BLE001
        raise AssertionError(f"{label}: replay of the log failed: {type(e).__name__}: {e}") from e
    assert again.to_dict() == d, f"{label}: the replay does not rebuild the final state"
    return final


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("edition", EDITIONS)
def test_random_playouts(edition, chunk):
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        playout(seed, {"edition": edition})


@pytest.mark.parametrize("chunk", range(OPTION_CHUNKS))
@pytest.mark.parametrize("option_set", sorted(OPTION_SETS))
@pytest.mark.parametrize("edition", EDITIONS)
def test_random_playouts_with_optional_rules(edition, option_set, chunk):
    per_chunk = OPTION_SEEDS[option_set] // OPTION_CHUNKS
    for seed in range(10_000 + chunk * per_chunk, 10_000 + (chunk + 1) * per_chunk):
        playout(seed, {"edition": edition, **OPTION_SETS[option_set]}, every_state=False)


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
    """The optional-rule playouts do reach the actions those rules add or remove."""
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


# --- continuing from a restored copy ------------------------------------------------------------

def _step(state, rng: random.Random) -> None:
    """One step of a seeded random game: chance from the game's seed, choices from ``rng``."""
    active = state.active()
    if active == [CHANCE]:
        state.apply(CHANCE, sample_chance(state))
    else:
        seat = rng.choice(active)
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def _finish(state, rng: random.Random):
    while state.active():
        _step(state, rng)
        assert len(state.s["log"]) < MAX_LOG
    return state


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(12))
def test_a_restored_copy_plays_on_identically(edition, seed):
    options = {"edition": edition, "vp_cards": seed % 3 == 1, "restricted_positioning": seed % 4 == 2}
    state = new_game(GAME, seed=seed, options=options)
    pick = random.Random(f"restore/{edition}/{seed}")
    length = len(play_random(GAME, seed, options=options).s["log"])
    stop = pick.randrange(length)
    rng = random.Random(seed)
    while len(state.s["log"]) < stop and state.active():
        _step(state, rng)
    copy = from_dict(state.to_dict())
    assert copy is not state and copy.s is not state.s
    assert copy.to_dict() == state.to_dict()
    assert copy.active() == state.active()
    for seat in ("kennedy", "nixon", CHANCE):
        assert copy.legal_actions(seat) == state.legal_actions(seat)
    continue_seed = pick.random()
    a = _finish(state, random.Random(continue_seed))
    b = _finish(copy, random.Random(continue_seed))
    assert a.to_dict() == b.to_dict()
    assert a.outcome() == b.outcome()
