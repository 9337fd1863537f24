"""How strong the bots are: the strong bot against random bots (and the greedy rule of thumb), in
whole games, with its decision time on this machine.

Run from the repository root:  python bench/bot_strength.py [--games N] [--iterations K] [--only TEXT]

Mr. President: for 2, 3 and 4 candidates in the chalkboard edition's standard game (the short
National Campaign, plurality with three or four) and the dial edition's (the long game by
popular vote), one strong bot against random bots, its seat turned round game by game; the goal
is 80 % of the games won. Prints each win rate with its 95 % interval, its ratio to the goal, and
the strong bot's decision time p50/p95 (ms). Games run in one process a core. No assertions:
it always exits 0.
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from common import percentile  # noqa: E402  (puts the repository on sys.path)
from engine import bots  # noqa: E402

GOAL = 0.80
CASES = [
    ("mrpresident", "chalkboard", {"edition": "chalkboard", "players": 2}),
    ("mrpresident", "chalkboard", {"edition": "chalkboard", "players": 3, "plurality": True}),
    ("mrpresident", "chalkboard", {"edition": "chalkboard", "players": 4, "plurality": True}),
    ("mrpresident", "dial", {"edition": "dial", "players": 2}),
    ("mrpresident", "dial", {"edition": "dial", "players": 3}),
    ("mrpresident", "dial", {"edition": "dial", "players": 4}),
]


def one_game(job):
    game_id, options, seed, opponent, budget = job
    seats = [f"p{i + 1}" for i in range(options["players"])]
    hero = seats[seed % len(seats)]
    players = {x: bots.make(game_id, "strong", **budget) if x == hero
               else bots.make(game_id, opponent) for x in seats}
    times = []

    def decide(seat, bot, view, rng):
        start = time.perf_counter()
        action = bot.choose(view, rng)
        if seat == hero and len(view["legal_actions"]) > 1:
            times.append(time.perf_counter() - start)
        return action

    final = bots.play_match(game_id, f"bench/{seed}", players, options=options, decide=decide)
    return final.outcome().winner == hero, times


def wilson(wins: int, n: int) -> tuple:
    if n == 0:
        return (0.0, 0.0)
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per case (default 60)")
    parser.add_argument("--iterations", type=int, default=200,
                        help="the strong bot's playouts per decision (default 200)")
    parser.add_argument("--noise", type=float, default=None,
                        help="the share of random orders in the strong bot's model of others")
    parser.add_argument("--opponent", default="random", help="random (default) or greedy")
    parser.add_argument("--only", default="", help="run the cases whose name has this text")
    args = parser.parse_args(argv)
    workers = os.cpu_count() or 1
    print(f"python {platform.python_version()}, {workers} cores; {args.games} games a case, "
          f"strong bot {args.iterations} playouts a decision, against {args.opponent}")
    print(f"{'case':44} {'won':>9} {'95% interval':>15} {'ratio':>6} {'p50 ms':>7} {'p95 ms':>7}")
    with ProcessPoolExecutor(workers) as pool:
        for game_id, edition, options in CASES:
            name = f"{game_id} {edition} {options['players']}p " + \
                ("plurality" if options.get("plurality") else "")
            if args.only not in name:
                continue
            budget = {"iterations": args.iterations}
            if args.noise is not None:
                budget["noise"] = args.noise
            jobs = [(game_id, options, seed, args.opponent, budget)
                    for seed in range(args.games)]
            results = list(pool.map(one_game, jobs))
            wins = sum(won for won, _ in results)
            times = [t for _, ts in results for t in ts]
            low, high = wilson(wins, len(results))
            rate = wins / len(results)
            print(f"{name:44} {wins:>4}/{len(results):<4} {low:6.0%}-{high:<6.0%} "
                  f"{rate / GOAL:6.2f} {percentile(times, 50) * 1000:7.0f} "
                  f"{percentile(times, 95) * 1000:7.0f}", flush=True)
    print(f"goal: the strong bot wins {GOAL:.0%} (ratio >= 1.00)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
