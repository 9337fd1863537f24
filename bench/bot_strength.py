"""How strong the bots are: the strong bot against random bots and the greedy rule of thumb, in
whole games, with its decision time on this machine.

Run from the repository root:  python bench/bot_strength.py [--games N] [--iterations K] [--only TEXT]

1960: for each edition and each seat, the strong bot against the random bot (goal: 90 % of the
games won) and against the greedy bot (goal: 65 %), 200 games a case.
Mr. President: for 2, 3 and 4 candidates in the chalkboard edition's standard game (the short
National Campaign, plurality with three or four) and the dial edition's (the long game by
popular vote), one strong bot against random bots, its seat turned round game by game; the goal
is 80 % of the games won, 60 games a case. Prints each win rate with its 95 % interval, its
ratio to the goal, and the strong bot's decision time p50/p95 (ms) over the decisions with
more than one legal choice. Games run in one process a core. No assertions: it always exits 0.
The strong bot plays with its default budget (1960: 32 playouts a decision; Mr. President:
200) unless --iterations is given.
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

GOALS = {"random": 0.90, "greedy": 0.65}      # 1960's; Mr. President's: 0.80 against random
MP_GOAL = 0.80


def cases(mp_opponent: str) -> list:
    """(name, game, options, the strong bot's seat or None to turn it round, opponent, goal,
    games)."""
    out = []
    for edition in ("gmt", "zman"):
        for seat in ("kennedy", "nixon"):
            for opponent in ("random", "greedy"):
                out.append((f"tmotp {edition} {seat} vs {opponent}", "tmotp",
                            {"edition": edition}, seat, opponent, GOALS[opponent], 200))
    for edition, options in (
            ("chalkboard", {"edition": "chalkboard", "players": 2}),
            ("chalkboard", {"edition": "chalkboard", "players": 3, "plurality": True}),
            ("chalkboard", {"edition": "chalkboard", "players": 4, "plurality": True}),
            ("dial", {"edition": "dial", "players": 2}),
            ("dial", {"edition": "dial", "players": 3}),
            ("dial", {"edition": "dial", "players": 4})):
        name = f"mrpresident {edition} {options['players']}p vs {mp_opponent}" + \
            (" plurality" if options.get("plurality") else "")
        out.append((name, "mrpresident", options, None, mp_opponent, MP_GOAL, 60))
    return out


def one_game(job):
    game_id, options, seed, hero, opponent, budget = job
    if game_id == "tmotp":
        seats = ["kennedy", "nixon"]
    else:
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
    parser.add_argument("--games", type=int, default=None,
                        help="games per case (default: 200 for 1960, 60 for Mr. President)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="the strong bot's playouts per decision (default: the bot's own)")
    parser.add_argument("--noise", type=float, default=None,
                        help="the share of random orders in the strong bot's model of others")
    parser.add_argument("--opponent", default="random",
                        help="Mr. President's opponents: random (default) or greedy")
    parser.add_argument("--only", default="", help="run the cases whose name has this text")
    args = parser.parse_args(argv)
    workers = os.cpu_count() or 1
    print(f"python {platform.python_version()}, {workers} cores; strong bot "
          f"{args.iterations or 'default'} playouts a decision")
    print(f"{'case':44} {'won':>9} {'95% interval':>15} {'goal':>5} {'ratio':>6} {'p50 ms':>7} "
          f"{'p95 ms':>7}")
    with ProcessPoolExecutor(workers) as pool:
        for name, game_id, options, hero, opponent, goal, games in cases(args.opponent):
            if args.only not in name:
                continue
            budget = {} if args.iterations is None else {"iterations": args.iterations}
            if args.noise is not None and game_id == "mrpresident":    # its bot's model of others
                budget["noise"] = args.noise
            jobs = [(game_id, options, seed, hero, opponent, budget)
                    for seed in range(args.games or games)]
            results = list(pool.map(one_game, jobs))
            wins = sum(won for won, _ in results)
            times = [t for _, ts in results for t in ts]
            low, high = wilson(wins, len(results))
            rate = wins / len(results)
            print(f"{name:44} {wins:>4}/{len(results):<4} {low:6.0%}-{high:<6.0%} {goal:5.0%} "
                  f"{rate / goal:6.2f} {percentile(times, 50) * 1000:7.1f} "
                  f"{percentile(times, 95) * 1000:7.1f}", flush=True)
    print("goal: the strong bot wins its case's share of the games (ratio >= 1.00)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
