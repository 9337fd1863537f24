"""Instructions an order executes, the real app's and the limit's, counted by valgrind.

Run from the repository root (needs valgrind):
    python bench/order_instructions.py [--games N] [--root TREE]

bench/order_throughput.py measures the goal (orders a second through gunicorn, against the
limit in the same run), but this machine's speed changes by half within an hour, so a change
of a few per cent on the order path cannot be seen in it. This counts instead what does not
change with the machine's load: the instructions the Python process executes (valgrind's
callgrind: the same count, to about a tenth of a per cent, run after run; but about 1-2 % more
for the same code from /work than from /tmp, so compare trees at paths of the same kind). Each app plays
the same orders as order_throughput's (40 games by default, to their first simultaneous step)
in one process, through Flask's test client, with a redis-server of its own as the broker; the
collector set as the gunicorn workers set it (server/gunicorn_conf.py: frozen after the warm-up
game, the same thresholds). Each app runs twice, with and without the timed orders, so the
count of the orders alone is the difference. Only the Python process's own instructions are
counted: not the kernel's (its system calls), not Redis's.

A ratio of instructions is not the goal's ratio (the clients, the kernel and Redis take their
share of the machine in that one); use this to compare two trees (``--root``) or a change
before and after. Python's hashes are fixed (PYTHONHASHSEED=0) so that the runs are repeatable.
No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

APPS = ("real", "limit")


def child(root: Path, app: str, games: int, timed: bool) -> None:
    """Play the orders with the apps of the tree ``root`` in this process and print how many
    were timed."""
    sys.path.insert(0, str(root / "bench"))
    sys.path.insert(0, str(root))
    from common import start_redis

    folder = Path(tempfile.mkdtemp(prefix="ws-instr-"))
    redis, port = start_redis(folder)
    try:
        os.environ.update(WHISTLESTOP_VAR_DIR=str(folder / "var"),
                          WHISTLESTOP_DATABASE_URL=f"sqlite:///{folder / 'bench.db'}",
                          WHISTLESTOP_BROKER_URL=f"redis://127.0.0.1:{port}/0",
                          WHISTLESTOP_RESULT_BACKEND="",
                          BENCH_SQLITE_PATH=str(folder / "bench.db"), BENCH_LIMIT_SENDS="1")
        import order_throughput

        _url, plans = order_throughput.setup(folder, games)
        if app == "limit":
            from bench.raw_orders_app import app as wsgi
        else:
            from server.app import create_app
            wsgi = create_app()
        client = wsgi.test_client()

        def play(game: dict) -> int:
            for seat, step, action in game["plan"]:
                answer = client.post(f"/api/v1/games/{game['id']}/orders",
                                     json={"step": step, "actions": [action]},
                                     headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
                if answer.status_code != 200:
                    raise SystemExit(f"{app}: {answer.status_code} {answer.get_data()[:300]!r}")
            return len(game["plan"])

        play(plans[0])  # the warm-up: statements compiled, lazy imports done
        gc.freeze()  # as server/gunicorn_conf.py's post_worker_init does
        gc.set_threshold(50_000, 20, 100)
        print(f"orders {sum(play(game) for game in plans[1:]) if timed else 0}")
    finally:
        redis.terminate()
        redis.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def counted(root: Path, app: str, games: int, timed: bool) -> tuple[int, int]:
    """(instructions, orders) of one child run under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, str(Path(__file__).resolve()), "--child", app,
               "--root", str(root), "--games", str(games)] + ([] if timed else ["--untimed"])
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    total = re.search(r"Collected : (\d+)", done.stderr)
    orders = re.search(r"^orders (\d+)$", done.stdout, re.M)
    if done.returncode != 0 or total is None or orders is None:
        raise RuntimeError(f"{app} failed: {done.stdout[-500:]} {done.stderr[-1500:]}")
    return int(total.group(1)), int(orders.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per app (default 40)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the tree whose apps are counted (default: this one); it needs "
                             "bench/order_throughput.py and bench/raw_orders_app.py")
    parser.add_argument("--child", choices=APPS, help=argparse.SUPPRESS)
    parser.add_argument("--untimed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.root.resolve(), args.child, args.games, not args.untimed)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind); nothing counted")
        return 0
    root = args.root.resolve()
    print(f"Instructions an order executes (valgrind callgrind), {root}, {args.games} games to "
          f"their first simultaneous step; each app with and without its timed orders")
    began = time.time()
    runs = [(app, timed) for app in APPS for timed in (True, False)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(runs, pool.map(lambda run: counted(root, run[0], args.games, run[1]),
                                          runs)))
    per_order = {}
    for app in APPS:
        (with_orders, orders), (without, _) = results[(app, True)], results[(app, False)]
        per_order[app] = (with_orders - without) / orders
        print(f"  {app:5} {orders} orders: {per_order[app] / 1e6:.3f} M instructions an order "
              f"({with_orders / 1e6:.1f} M with them, {without / 1e6:.1f} M without)")
    print(f"the limit's instructions over the real app's: "
          f"{per_order['limit'] / per_order['real']:.3f}  ({time.time() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
