"""How fast the 1960 engine plays and replays games, against the project's goals.

Run from the repository root:  python bench/engine_speed.py [--games N]

Prints (a) random complete games per second on one core (``play_random`` over N seeds in each
edition), (b) the time to replay a finished game's log - validated through ``replay()`` (every
action checked against ``legal_actions``) and, for comparison, unvalidated through ``_do`` - as
median and p95 in ms, and (c) each figure's ratio to its goal, measured in the same run. No
assertions: it always exits 0.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from common import percentile  # noqa: E402  (puts the repository on sys.path)
from engine.core import new_game, play_random, replay  # noqa: E402

GAME = "tmotp"
EDITIONS = ("gmt", "zman")
GOAL_GAMES_PER_S = 50.0
GOAL_REPLAY_MS = 20.0


def replay_unvalidated(seed, log, options):
    state = new_game(GAME, seed=seed, options=options)
    for seat, action in log:
        state._do(seat, action)
    return state


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeds per edition (default 200)")
    args = parser.parse_args(argv)
    n = max(1, args.games)

    print(f"Whistlestop engine speed: {GAME}, {n} random games per edition, one core "
          f"(Python {platform.python_version()}, {platform.machine()})")

    play_random(GAME, -1)   # warm up (imports, data loading) outside the timings
    finished = []           # (seed, options, log, final dict)
    play_time = 0.0
    actions = 0
    for edition in EDITIONS:
        options = {"edition": edition}
        t0 = time.perf_counter()
        games = [play_random(GAME, seed, options=options) for seed in range(n)]
        dt = time.perf_counter() - t0
        play_time += dt
        logs = sum(len(g.s["log"]) for g in games)
        actions += logs
        print(f"  {edition:5} play_random: {n} games in {dt:.2f} s = {n / dt:.1f} games/s "
              f"({logs / n:.0f} log entries per game, {dt / logs * 1e6:.1f} us per entry)")
        finished += [(seed, options, g.s["log"], g.to_dict()) for seed, g in zip(range(n), games)]

    games_per_s = len(finished) / play_time
    validated, unvalidated = [], []
    mismatches = 0
    for seed, options, log, final in finished:
        t0 = time.perf_counter()
        state = replay(GAME, seed, log, options=options)
        validated.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        raw = replay_unvalidated(seed, log, options)
        unvalidated.append((time.perf_counter() - t0) * 1000)
        if state.to_dict() != final or raw.to_dict() != final:
            mismatches += 1

    med, p95 = statistics.median(validated), percentile(validated, 95)
    umed, up95 = statistics.median(unvalidated), percentile(unvalidated, 95)
    print(f"  replay() validated:      median {med:.2f} ms, p95 {p95:.2f} ms, max {max(validated):.2f} ms")
    print(f"  replay via _do (no validation): median {umed:.2f} ms, p95 {up95:.2f} ms "
          f"(validation costs x{med / umed:.1f})")
    if mismatches:
        print(f"  WARNING: {mismatches} replays did not rebuild the final state")
    print()
    print(f"games/s: {games_per_s:.1f} (goal {GOAL_GAMES_PER_S:g}; "
          f"ratio {games_per_s / GOAL_GAMES_PER_S:.2f})")
    print(f"replay median {med:.2f} ms (goal < {GOAL_REPLAY_MS:g} ms; "
          f"ratio {med / GOAL_REPLAY_MS:.2f})")
    print(f"replay p95 {p95:.2f} ms (goal < {GOAL_REPLAY_MS:g} ms; ratio {p95 / GOAL_REPLAY_MS:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
