"""Playing a game from a seed: chance sampled from the seed, replay of a logged game."""
import random

from .protocol import CHANCE
from .registry import new_game


def chance_rng(seed, step: int) -> random.Random:
    """Return the generator for the chance step at log position ``step`` of the game seeded ``seed``.

    Derived from the seed and the position only, so the draw at a position never depends on
    what was sampled before it and a worker that retries a step draws the same outcome.
    """
    return random.Random(f"{seed}/{step}")


def sample_chance(state) -> str:
    """Return the chance outcome the game's seed gives for the pending chance step."""
    actions, weights = state.chance_weights()
    if len(actions) == 1:
        return actions[0]
    return chance_rng(state.seed, state.log_length()).choices(actions, weights)[0]


def advance_chance(state) -> int:
    """Apply seeded chance outcomes until a seat must act or the game ends; return how many."""
    n = 0
    while state.active() == [CHANCE]:
        state._do(CHANCE, sample_chance(state))
        n += 1
    return n


def play_random(game_id: str, seed, *, players=None, options=None, policy_seed=None, check=None):
    """Play a whole game with uniformly random legal actions; return the final state.

    ``check(state)`` (optional) is called after every action, for tests.
    """
    state = new_game(game_id, seed=seed, players=players, options=options)
    rng = random.Random(f"policy/{seed if policy_seed is None else policy_seed}")
    while True:
        active = state.active()
        if not active:
            return state
        if active == [CHANCE]:
            state._do(CHANCE, sample_chance(state))
        else:
            for seat in active:
                legal = state.legal_actions(seat)
                if not legal:
                    raise DeadEnd(f"{seat} must act but has no legal action: {state.prompt(seat)}")
                state._do(seat, rng.choice(legal))
                if state.active() != active:
                    break
        if check is not None:
            check(state)


def replay(game_id: str, seed, log, *, players=None, options=None):
    """Return the state reached by applying ``log`` ([seat, action] pairs) from the opening, validated."""
    state = new_game(game_id, seed=seed, players=players, options=options)
    for seat, action in log:
        state.apply(seat, action)
    return state


class DeadEnd(RuntimeError):
    """A seat must act but has no legal action: always a bug in the rules."""
