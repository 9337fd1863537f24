"""Report which card events ran in random playouts, per edition (issue 3's coverage report).

Plays random games (engine.core.play_random) in each edition, with and without the optional rules,
and counts every time a card's event handler starts: played as an event, triggered, or played from
inside another event (Tricky Dick, High Hopes). Prints one line per card and the cards never seen.
It is a report, not a test: it always exits 0.

    python bench/event_coverage.py            # 500 games per edition and option set
    python bench/event_coverage.py --games 100
"""
import argparse
import collections
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.core import play_random  # noqa: E402
from engine.games.tmotp import events  # noqa: E402
from engine.games.tmotp.data import CARDS  # noqa: E402

OPTION_SETS = ({}, {"vp_cards": True}, {"restricted_positioning": True})


def instrument(counter: collections.Counter, edition_box: list) -> None:
    """Put a first stage in front of every handler that counts the card (script-side only)."""
    for cid, stages in list(events.EVENTS.items()):
        def record(g, f, cid=cid):
            counter[(edition_box[0], cid)] += 1
        events.EVENTS[cid] = (record, *stages)


def count_plays(log: list, plays: collections.Counter, edition: str) -> None:
    """Count, from a game's log, each card played for CP, preempted, and triggered."""
    last_cp = None
    for seat, action in log:
        words = action.split()
        if words[0] == "play" and words[1] != "candidate" and words[2] != "event":
            last_cp = int(words[1])
            plays[(edition, last_cp, "cp")] += 1
            if len(words) == 4:
                plays[(edition, last_cp, "preempted")] += 1
        elif words[0] == "trigger" and last_cp is not None:
            plays[(edition, last_cp, "triggered")] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per edition and option set")
    args = parser.parse_args()
    counter: collections.Counter = collections.Counter()
    plays: collections.Counter = collections.Counter()
    edition_box = [None]
    instrument(counter, edition_box)
    started = time.perf_counter()
    for edition in ("gmt", "zman"):
        edition_box[0] = edition
        for options in OPTION_SETS:
            for seed in range(args.games):
                g = play_random("tmotp", seed, options={"edition": edition, **options})
                count_plays(g.s["log"], plays, edition)
    elapsed = time.perf_counter() - started
    total = 2 * len(OPTION_SETS) * args.games
    print(f"{total} random games in {elapsed:.1f} s. Per card and edition: event handler runs "
          f"(played as an event, triggered, or from another event) / played for CP / triggered / "
          f"preempted:")
    print(f"{'id':>3}  {'card':<34} {'gmt':>23} {'zman':>23}")
    missing = {"gmt": [], "zman": []}
    for cid in sorted(CARDS):
        card = CARDS[cid]
        row = []
        for edition in ("gmt", "zman"):
            in_deck = edition == "gmt" or card["edition"] == "both_editions"
            n = counter[(edition, cid)]
            cells = [n] + [plays[(edition, cid, k)] for k in ("cp", "triggered", "preempted")]
            row.append(f"{'/'.join(map(str, cells)):>23}" if in_deck else f"{'-':>23}")
            if in_deck and n == 0:
                missing[edition].append(cid)
        print(f"{cid:>3}  {card['name'][:34]:<34} {row[0]} {row[1]}")
    for edition, ids in missing.items():
        deck = sum(1 for c in CARDS.values() if edition == "gmt" or c["edition"] == "both_editions")
        print(f"{edition}: {deck - len(ids)} of {deck} card events ran"
              + (f"; never ran: {', '.join(map(str, ids))}" if ids else " (all of them)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
