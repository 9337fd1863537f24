#!/usr/bin/env python3
"""Rebuild engine/games/mrpresident/data/states.json from ../shared/data/us-1964-results.csv
(run by hand when the reference changes).

The engine never reads ../shared at run time. It keeps the 1964 facts (electoral votes with DC,
total popular vote, Johnson, Goldwater); the popular vote chart is derived from them by the rule
written in engine/games/mrpresident/data.py (``popular_chart``), so the rule is code, tested.
"""
import csv
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "engine" / "games" / "mrpresident" / "data"


def main() -> int:
    with open(SHARED / "us-1964-results.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    states = [{"code": r["code"], "name": r["name"], "ev": int(r["electoral_votes"]),
               "total": int(r["total_votes"]), "johnson": int(r["johnson_votes"]),
               "goldwater": int(r["goldwater_votes"])} for r in rows]
    states.sort(key=lambda s: s["code"])
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "states.json").write_text(json.dumps(states, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    print(f"{len(states)} states, {sum(s['ev'] for s in states)} electoral votes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
