"""A state's history kept apart (engine.core.history, issue 28). The conformance test plays
every registered game from a trimmed state at every step (conformance.check_trimmed); these
check what random games reach too seldom, and the parts themselves."""
from __future__ import annotations

import json
import random

import pytest

import engine.core as engine
from engine.core import CHANCE, history, sample_chance


def _play_to(game: str, options: dict, found, seeds=range(200)):
    """The first state of a random game where ``found(state)``, and the rng that played it."""
    for n in seeds:
        state = engine.new_game(game, seed=f"history/{n}", options=options)
        rng = random.Random(n)
        while state.active():
            if found(state):
                return state, rng
            active = state.active()
            if active == [CHANCE]:
                state.apply(CHANCE, sample_chance(state))
            else:
                seat = rng.choice(active)
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no random game reached the state")


def _upset_half_committed(state) -> bool:
    top = state.s["stack"][-1]
    return top["step"] == "upset" and len(top.get("commits", {})) >= 1 \
        and len(state.active()) >= 1


def test_an_upset_resolves_alike_from_a_state_trimmed_while_it_is_being_committed():
    # The dial's upset step reads its own commitments' log entries when it resolves (which
    # attempts are withdrawn unseen, dial.py): the trimmed state keeps them.
    whole, rng = _play_to("mrpresident", {"edition": "dial", "players": 3},
                          _upset_half_committed)
    trimmed = engine.from_dict(history.split(whole.to_dict())[0])
    assert trimmed.s["log"] == whole.s["log"][-len(whole.s["stack"][-1]["commits"]):]
    while len(whole.active()) > 1 or whole.s["stack"][-1]["step"] == "upset":
        seat = whole.active()[0]
        action = rng.choice(whole.legal_actions(seat))
        whole.apply(seat, action)
        trimmed.apply(seat, action)
    assert trimmed.s["withdrawn"] == whole.s["withdrawn"]
    assert history.split(trimmed.to_dict())[0] == history.split(whole.to_dict())[0]


def test_a_state_trimmed_of_the_commitments_it_resolves_refuses_rather_than_guesses():
    whole, rng = _play_to("mrpresident", {"edition": "dial", "players": 3},
                          _upset_half_committed)
    data = whole.to_dict()
    rest = history.split(data)[0]
    rest["log_from"] += len(rest["log"])
    rest["log"] = []        # the commitments' entries dropped too
    trimmed = engine.from_dict(rest)
    with pytest.raises(history.HistoryNotHeld):
        while whole.s["stack"][-1]["step"] == "upset":
            seat = whole.active()[0]
            action = rng.choice(whole.legal_actions(seat))
            whole.apply(seat, action)
            trimmed.apply(seat, action)


@pytest.mark.parametrize("game", engine.games())
def test_split_and_join_give_back_the_whole_state(game):
    state, _ = _play_to(game, {}, lambda s: len(s.s["notes"]) > 2 and s.active() != [CHANCE])
    data = json.loads(json.dumps(state.to_dict()))
    rest, (log_from, log), (notes_from, notes) = history.split(data)
    assert (log_from, notes_from) == (0, 0) and log == data["log"] and notes == data["notes"]
    assert rest["notes"] == [] and rest["log_from"] + len(rest["log"]) == len(data["log"])
    assert rest["notes_from"] == len(data["notes"]) > 0
    assert history.join(rest, log, notes) == data
    with pytest.raises(history.HistoryNotHeld):
        engine.from_dict(rest).view(None)
    # A history that does not end where the state does is refused, not joined.
    with pytest.raises(ValueError, match="does not fit"):
        history.join(rest, log[:-1], notes)
    with pytest.raises(ValueError, match="does not fit"):
        history.join(rest, log, notes + [notes[-1]])


def test_a_trimmed_state_splits_again_from_where_it_starts():
    state, rng = _play_to("tmotp", {}, lambda s: s.log_length() > 30 and s.active() != [CHANCE])
    whole = engine.from_dict(state.to_dict())
    trimmed = engine.from_dict(history.split(state.to_dict())[0])
    for _ in range(25):
        active = whole.active()
        seat = CHANCE if active == [CHANCE] else rng.choice(active)
        action = sample_chance(whole) if seat == CHANCE else rng.choice(whole.legal_actions(seat))
        whole.apply(seat, action)
        trimmed.apply(seat, action)
    rest, (log_from, log), (notes_from, notes) = history.split(trimmed.to_dict())
    w = whole.to_dict()
    assert log == w["log"][log_from:] and notes == w["notes"][notes_from:] and notes
    assert history.join(rest, w["log"], w["notes"]) == w
