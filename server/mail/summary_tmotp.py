"""The summary of a game of 1960 that a mail shows one seat, built from that seat's view only
(`view(seat)`): the engine's static card and state data only supplies names and electoral votes.
"""

from __future__ import annotations

from engine.games.tmotp.data import (CARDS, ISSUE_NAMES, REGION_NAMES, REGIONS, SEAT_NAMES,
                                     STATES)


def _leader(entry: dict) -> str | None:
    return SEAT_NAMES.get(entry.get("leader")) if entry else None


def electoral_votes(view: dict) -> dict[str, int]:
    """Electoral votes of the states each candidate leads in (support cubes), as the board shows."""
    votes = {seat: 0 for seat in SEAT_NAMES}
    for code, entry in view["states"].items():
        if entry.get("leader") in votes:
            votes[entry["leader"]] += STATES[code]["ev"]
    return votes


def card_name(card_id: int) -> str:
    return f"{CARDS[card_id]['name']} ({card_id})"


def summary(view: dict, seat: str | None, notes_seen: int = 0) -> dict:
    """A plain dict for the templates: nothing in it that the view does not show the seat."""
    votes = electoral_votes(view)
    opponent = next((s for s in SEAT_NAMES if s != seat), None) if seat else None
    leading = max(votes, key=votes.get) if votes and len(set(votes.values())) > 1 else None
    hands = view.get("hands") or {}
    return {
        "turn": view["turn"],
        "round": view.get("round"),
        "seat_name": SEAT_NAMES.get(seat, "Spectator") if seat else "Spectator",
        "opponent_name": SEAT_NAMES.get(opponent) if opponent else None,
        "votes": [{"name": SEAT_NAMES[s], "ev": votes[s]} for s in SEAT_NAMES],
        "lead": ({"name": SEAT_NAMES[leading],
                  "by": votes[leading] - min(votes.values())} if leading else None),
        "momentum": [{"name": SEAT_NAMES[s], "markers": view["momentum"][s]}
                     for s in SEAT_NAMES],
        "issues": [{"name": ISSUE_NAMES[i], "leader": _leader(view["issues"][i]),
                    "cubes": view["issues"][i]["cubes"]} for i in view["issue_track"]],
        "media": [{"region": REGION_NAMES[r], "leader": _leader(view["media"][r]),
                   "cubes": view["media"][r]["cubes"]} for r in REGIONS],
        "endorsements": [{"region": REGION_NAMES[r], "leader": _leader(view["endorsements"][r]),
                          "markers": view["endorsements"][r]["markers"]} for r in REGIONS],
        "states": [{"code": code, "name": STATES[code]["name"], "ev": STATES[code]["ev"],
                    "leader": _leader(entry), "cubes": entry.get("support", 0),
                    "carried": bool(entry.get("carried"))}
                   for code, entry in sorted(view["states"].items())],
        "hand": [card_name(c) for c in hands.get(seat, [])] if seat else [],
        "hand_sizes": [{"name": SEAT_NAMES[s], "cards": n}
                       for s, n in (view.get("hand_sizes") or {}).items()],
        "changes": list(view.get("notes", [])[notes_seen:]),
    }
