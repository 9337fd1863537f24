"""Emails needing an answer, per player per game, over random games of 1960.

Run from the repository root:  python bench/mail_answers.py [--games N]

Every decision the server must ask a seat about is a mail the player has to answer. Three ways
of running the same random games (same seeds, same random choices wherever a player is asked):
- **ask everything**: every decision of a seat is asked, even one with a single legal action;
- **auto-resolution**: a decision with one legal action is taken for the seat (the server's
  behaviour: server/services/games._advance);
- **+ standing orders**: also the trigger decision (policy ``helps_me``) and the second-place
  award (``momentum``) are answered by the seat's standing orders
  (the game's answer, engine/games/tmotp/standing.py, as the server applies it), as a player
  who filed them would have it.
Two counts for each: **decisions** asked (a reply per decision), and **mails** when a reply
carries the whole play in several lines (``play 12 campaign`` / ``campaign NY 2`` / ``done``):
decisions in a row by the same seat are one mail. The ratios are measured against "ask
everything" in the same run; the goal is that each measure asks fewer (ratio < 1). Exit
status 1 if not.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys

import common  # noqa: F401  (puts the repository on sys.path)
from engine.core import CHANCE, new_game, sample_chance

POLICY = {"trigger": "helps_me", "second_place": "momentum"}
MODES = ("ask everything", "auto-resolution", "+ standing orders")


def play(seed: int, mode: str) -> tuple[dict[str, int], dict[str, int]]:
    """Play one random game; return the decisions asked of each seat, and its mails."""
    state = new_game("tmotp", seed=f"answers/{seed}")
    asked = {seat: 0 for seat in state.seats}
    mails = {seat: 0 for seat in state.seats}
    last = None
    while True:
        active = state.active()
        if not active:
            return asked, mails
        if active == [CHANCE]:
            state.apply(CHANCE, sample_chance(state))
            continue
        seat = active[0]
        legal = state.legal_actions(seat)
        if mode != MODES[0] and len(legal) == 1:
            state.apply(seat, legal[0])
            continue
        if mode == MODES[2] and len(active) == 1:
            kind = state.standing_policy(seat)
            given = state.standing_answer(seat, POLICY[kind]) if kind else None
            if given is not None:
                state.apply(seat, given[0])
                continue
        asked[seat] += 1
        if len(active) > 1 or last != seat:
            mails[seat] += 1
        last = seat if len(active) == 1 else None
        # The same choice in every mode wherever a player is asked: a choice drawn from a
        # generator of its own for this decision keeps the games comparable.
        state.apply(seat, random.Random(f"{seed}/{len(state.s['log'])}").choice(legal))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    means: dict[tuple[str, str], float] = {}
    print(f"{args.games} random games; per player per game (mean, median, max):")
    for mode in MODES:
        counts: dict[str, list[int]] = {"decisions": [], "mails": []}
        for seed in range(args.games):
            asked, mails = play(seed, mode)
            counts["decisions"].extend(asked.values())
            counts["mails"].extend(mails.values())
        for what, values in counts.items():
            means[mode, what] = statistics.mean(values)
            print(f"  {mode:18s} {what:9s} {means[mode, what]:6.1f} "
                  f"{statistics.median(values):5.0f} {max(values):5d}")
    ok = True
    for what in ("decisions", "mails"):
        base = means[MODES[0], what]
        for mode in MODES[1:]:
            ratio = means[mode, what] / base
            ok &= ratio < 1
            print(f"ratio {what}: {mode} / ask everything = {ratio:.3f} (goal < 1)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
