"""1960's hidden places: two states that differ only in what a seat cannot see give that seat
identical views, for states built by editing 1960's hidden cards at any point of a game. (The
forms every game shares - a sealed commitment made one way or another, a chance outcome the
seat's log does not show, no seed in a view - are the conformance test's,
tests/engine/test_conformance.py; it compares where the difference arises, these pairs hold it
through the game.)

Pairs are built from random mid-game positions of both editions:

(a) cards swapped between the opponent's hand and the deck (hand size kept);
(b) the deck (and the endorsement deck) permuted, and the hidden cards (deck, the opponent's hand,
    his face-down Campaign Strategy / Debate cards) redealt among their places, sizes kept;
(c) the opponent's face-down Campaign Strategy cards (``s["strategy"][opp]``, or his unrevealed
    Debate cards during the Debates) exchanged for cards from the deck.

The seat's view must be identical in each case, and so must the spectators' view (``view(None)``,
for whom both hands are hidden). The discard pile and everything else public are never touched.
So that the test can fail, it also checks that a seat's view does change when its own hand
changes, and that the log in a view redacts the cards dealt to others.
"""
from __future__ import annotations

import json
import random

import pytest

from engine.core import CHANCE, from_dict, new_game, sample_chance

EDITIONS = ("gmt", "zman")
SEATS = ("kennedy", "nixon")
VIEWERS = ("kennedy", "nixon", None)
SEEDS = range(12)
SAMPLES_PER_GAME = 10


def other(seat):
    return "nixon" if seat == "kennedy" else "kennedy"


def walk(edition, seed, options=None):
    """Yield every state of a seeded random game (the live object: copy it to keep it)."""
    state = new_game("tmotp", seed=seed, options={"edition": edition, **(options or {})})
    rng = random.Random(f"leak/{edition}/{seed}")
    while True:
        yield state
        active = state.active()
        if not active:
            return
        if active == [CHANCE]:
            state._do(CHANCE, sample_chance(state))
        else:
            seat = rng.choice(active)
            state._do(seat, rng.choice(state.legal_actions(seat)))


def sample_positions(edition, seed, n=SAMPLES_PER_GAME):
    """Return copies of ``n`` random decision states of a game, plus every state of its
    Campaign Strategy and Debate steps (where the face-down cards are)."""
    rng = random.Random(f"positions/{edition}/{seed}")
    out = []
    for state in walk(edition, seed, {"vp_cards": seed % 2 == 1}):
        active = state.active()
        if not active or active == [CHANCE]:
            continue
        if rng.random() < n / 250 or state.s["round"] in ("campaign_strategy", "debates"):
            out.append(from_dict(state.to_dict()))
    assert out
    return out


def hidden_from(d, viewer):
    """The seats whose hands and face-down cards ``viewer`` cannot see (a hand shown by an event
    is a snapshot in ``shown_hands``: the hand itself stays hidden)."""
    return [x for x in SEATS if x != viewer]


def hidden_places(d, viewer):
    """Return [(list, sorted?)] of the card lists hidden from ``viewer``: the deck first."""
    places = [d["deck"]]
    for x in hidden_from(d, viewer):
        places.append(d["hands"][x])
        places.append(d["strategy"][x])
        if d["debate"] is not None:
            places.append(d["debate"]["cards"][x])
    return places


# --- pair builders: each returns a changed copy of ``d`` or None when it does not apply ------

def swap_hand_and_deck(d, viewer, rng):
    """(a) Swap 1-3 cards between a hidden hand and the deck."""
    d = json.loads(json.dumps(d))
    owners = [x for x in hidden_from(d, viewer) if d["hands"][x]]
    if not owners or not d["deck"]:
        return None
    hand = d["hands"][rng.choice(owners)]
    k = rng.randint(1, min(3, len(hand), len(d["deck"])))
    out_of_hand = rng.sample(hand, k)
    into_hand = rng.sample(d["deck"], k)
    for a, b in zip(out_of_hand, into_hand):
        hand[hand.index(a)] = b
        d["deck"][d["deck"].index(b)] = a
    hand.sort()
    d["deck"].sort()
    return d


def redeal_hidden(d, viewer, rng):
    """(b) Permute the decks and redeal every hidden card among the hidden places."""
    d = json.loads(json.dumps(d))
    places = hidden_places(d, viewer)
    pool = [c for place in places for c in place]
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    for i, place in enumerate(places):
        n = len(place)
        place[:] = pool[:n] if i == 0 else sorted(pool[:n])    # the deck in a random order
        del pool[:n]
    rng.shuffle(d["endorsement_deck"])
    return d


def change_strategy(d, viewer, rng):
    """(c) Exchange a hidden player's face-down Campaign Strategy (or Debate) cards for deck cards."""
    d = json.loads(json.dumps(d))
    changed = False
    for x in hidden_from(d, viewer):
        face_down = [d["strategy"][x]]
        if d["debate"] is not None:
            face_down.append(d["debate"]["cards"][x])
        for cards in face_down:
            if not cards or len(d["deck"]) < len(cards):
                continue
            new = rng.sample(d["deck"], len(cards))
            for c in new:
                d["deck"].remove(c)
            d["deck"] = sorted(d["deck"] + cards)
            cards[:] = sorted(new)
            changed = True
    return d if changed else None


BUILDERS = {"hand_and_deck": swap_hand_and_deck, "redeal_hidden": redeal_hidden,
            "strategy": change_strategy}


def assert_same_view(a, b, viewer, what):
    va, vb = a.view(viewer), b.view(viewer)
    if va != vb:
        diff = sorted(k for k in set(va) | set(vb) if va.get(k) != vb.get(k))
        raise AssertionError(f"{what}: the view of {viewer or 'the spectators'} changes in {diff}")


# Each builder in both editions in the full suite; the fast tier (scripts/test --fast) runs each
# in one edition, the one where it is quicker.
FAST_EDITION = {"redeal_hidden": "gmt"}


@pytest.mark.parametrize("builder, edition", [
    pytest.param(builder, edition, id=f"{builder}-{edition}",
                 marks=() if edition == FAST_EDITION.get(builder, "zman") else pytest.mark.slow)
    for builder in sorted(BUILDERS) for edition in EDITIONS])
def test_hidden_information_does_not_change_views(edition, builder):
    rng = random.Random(f"{edition}/{builder}")
    made = 0
    for seed in SEEDS:
        for state in sample_positions(edition, seed):
            d = state.to_dict()
            for viewer in VIEWERS:
                changed = BUILDERS[builder](d, viewer, rng)
                if changed is None or changed == d:
                    continue
                made += 1
                other_state = from_dict(changed)
                where = f"{builder}, {edition} seed {seed}, log {len(d['log'])}, step {state.top['step']}"
                assert_same_view(state, other_state, viewer, where)
                if viewer is not None:
                    # Also hidden from the spectators: the opponent's cards.
                    assert_same_view(state, other_state, None, where)
    assert made > 100


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seats_own_hand_does_change_its_view(edition):
    """The control: the same change made to a seat's own hand shows in its view (and only there)."""
    rng = random.Random(edition)
    made = 0
    for seed in SEEDS[:4]:
        for state in sample_positions(edition, seed):
            d = state.to_dict()
            for seat in SEATS:
                if not d["hands"][seat] or not d["deck"]:
                    continue
                changed = json.loads(json.dumps(d))
                hand = changed["hands"][seat]
                a, b = rng.choice(hand), rng.choice(changed["deck"])
                hand[hand.index(a)] = b
                changed["deck"][changed["deck"].index(b)] = a
                hand.sort()
                changed["deck"].sort()
                other_state = from_dict(changed)
                assert state.view(seat)["hands"][seat] != other_state.view(seat)["hands"][seat]
                assert state.view(seat) != other_state.view(seat)
                assert_same_view(state, other_state, other(seat), "own hand")
                assert_same_view(state, other_state, None, "own hand")
                made += 1
    assert made > 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_own_strategy_cards_are_in_the_own_view_only(edition):
    checked = 0
    for seed in SEEDS[:4]:
        for state in sample_positions(edition, seed):
            for seat in SEATS:
                if not state.s["strategy"][seat]:
                    continue
                assert state.view(seat)["strategy"] == {seat: state.s["strategy"][seat]}
                assert seat not in state.view(other(seat))["strategy"]
                assert state.view(None)["strategy"] == {}
                counts = state.view(other(seat))["strategy_counts"]
                assert counts[seat] == len(state.s["strategy"][seat])
                checked += 1
    assert checked > 10


# --- the log in a view ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_views_redact_the_cards_dealt_to_others(edition):
    for seed in SEEDS[:4]:
        for state in sample_positions(edition, seed, n=3):
            log = state.s["log"]
            for viewer in VIEWERS:
                view = state.view(viewer)
                json.dumps(view)        # a view is plain JSON data
                assert len(view["log"]) == len(log)
                deals = 0
                for (who, action), (vwho, vaction) in zip(log, view["log"]):
                    assert vwho == who
                    words = action.split()
                    if who == CHANCE and words[0] == "deal":
                        deals += 1
                        if words[1] == viewer:
                            assert vaction == action
                        else:
                            assert vaction == f"deal {words[1]}", vaction
                    elif words[0] == "strategy" and who != viewer:
                        assert vaction == "strategy (face down)"
                        assert not any(ch.isdigit() for ch in vaction)
                assert deals >= 12
                if viewer is None:
                    assert view["hands"] == {}
                else:
                    assert list(view["hands"]) == [viewer]
                    assert view["hands"][viewer] == state.s["hands"][viewer]
                assert view["hand_sizes"] == {x: len(state.s["hands"][x]) for x in SEATS}
                assert "deck" not in view and view["deck_count"] == len(state.s["deck"])
