#!/usr/bin/env python3
"""Rebuild engine/games/tmotp/data/*.json from ../shared/data (run by hand when the reference changes).

The engine never reads ../shared at run time; it reads the files this script writes, which keep
stable integer ids and the rulings the project made on doubtful values.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "engine" / "games" / "tmotp" / "data"

CARD_FIELDS = ("id", "name", "cp", "rest", "icon", "issue", "state", "persistent", "duration",
               "edition", "vp", "campaign_strategy_allowed", "named_states", "named_regions", "effect")


def main() -> int:
    cards = json.loads((SHARED / "1960-campaign-cards.json").read_text())
    by_name = {c["name"]: c["id"] for c in cards}
    out_cards = []
    for c in cards:
        row = {k: c[k] for k in CARD_FIELDS}
        row["prevents"] = sorted(by_name[n] for n in c["prevents"])
        row["doubts"] = c["doubts"] or ""
        out_cards.append(row)
    states = json.loads((SHARED / "1960-states.json").read_text())
    out_states = [
        {"code": s["code"], "name": s["name"], "ev": s["electoral_votes"], "region": s["region"],
         "zone": s["code"].lower() if s["separate_travel_zone"] else s["region"],
         "start": s["start_support"] or {}, "edge": s["edge"], "doubts": s["doubts"] or ""}
        for s in states
    ]
    endorse = json.loads((SHARED / "1960-endorsement-cards.json").read_text())
    out_endorse = []
    for kind in endorse["cards"]:
        for _ in range(kind["count"]):
            out_endorse.append({"id": len(out_endorse) + 1, "name": kind["name"], "region": kind["region"]})
    cands = json.loads((SHARED / "1960-candidate-cards.json").read_text())
    out_cands = [{"seat": c["candidate"], "name": c["name"], "cp": c["cp"], "rest": c["rest"],
                  "home_state": c["home_state"]} for c in cands]
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in (("cards", out_cards), ("states", out_states),
                       ("endorsements", out_endorse), ("candidates", out_cands)):
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(out_cards)} cards, {len(out_states)} states, {len(out_endorse)} endorsements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
