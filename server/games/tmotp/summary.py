"""The summary of a game of 1960 that a mail shows one seat, built from that seat's view only
(`view(seat)`): the engine's static card and state data only supplies names and electoral votes.
Names are in the recipient's language, in the translated rulebook's words (`terms`).
"""

from __future__ import annotations

import unicodedata

from engine.games.tmotp.data import REGIONS, SEAT_NAMES, STATES
from server.games import presenter
from server.i18n import game_text
from server.i18n import gettext

GAME = "tmotp"


def terms(locale: str | None) -> dict[str, dict]:
    """The game's words in ``locale`` (its presenter's)."""
    return presenter(GAME).terms(locale)


def _leader(entry: dict, seats: dict[str, str]) -> str | None:
    return seats.get(entry.get("leader")) if entry else None


def electoral_votes(view: dict) -> dict[str, int]:
    """The electoral votes each candidate has: once Election Day's Final Tally is made, the
    tally the engine's outcome gives (Unpledged Electors' states counted for nobody); before,
    those of the states each leads in (support cubes), as the board shows. Every page, mail and
    replay shows this one tally."""
    final = (view.get("result") or {}).get("electoral_votes")
    if final:
        return {seat: final.get(seat, 0) for seat in SEAT_NAMES}
    votes = {seat: 0 for seat in SEAT_NAMES}
    for code, entry in view["states"].items():
        if entry.get("leader") in votes:
            votes[entry["leader"]] += STATES[code]["ev"]
    return votes


def unpledged(view: dict) -> set[str]:
    """The states the Final Tally gave to nobody (Unpledged Electors), once it is made."""
    return set((view.get("result") or {}).get("unawarded") or [])


def card_name(card_id: int, locale: str = "en") -> str:
    return f"{terms(locale)['cards'][card_id]} ({card_id})"


def _issue_order(view: dict) -> list[str]:
    """The issues most important first. During the Debates the track is refilled as issues are
    debated (GMT rulebook, Debates: "Set the Stage", "Debate!"): an empty slot (None) is
    skipped and its issue comes after the placed ones."""
    placed = [i for i in view["issue_track"] if i is not None]
    return placed + [i for i in view["issues"] if i not in placed]


def width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width font: East Asian wide characters take two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def state_rows(states: list[dict], per_row: int = 4) -> list[str]:
    """The states as a plain-text table, ``per_row`` to a line, its columns aligned by display
    width (ケネディ takes eight columns, Kennedy seven)."""
    cells = [f"{st['code']:<2} {st['ev']:2d} " + (st["leader"] or "-")
             + (f" {st['cubes']}" if st["cubes"] else "") + ("*" if st["carried"] else "")
             for st in states]
    wide = max(map(width, cells), default=0)
    padded = [cell + " " * (wide - width(cell)) for cell in cells]
    return ["  ".join(padded[i:i + per_row]).rstrip() for i in range(0, len(padded), per_row)]


def summary(view: dict, seat: str | None, notes_seen: int = 0, locale: str = "en") -> dict:
    """A plain dict for the templates: nothing in it that the view does not show the seat."""
    names = terms(locale)
    seats, regions, issues = names["seats"], names["regions"], names["issues"]
    spectator = gettext("Spectator", locale)
    votes = electoral_votes(view)
    opponent = next((s for s in SEAT_NAMES if s != seat), None) if seat else None
    leading = max(votes, key=votes.get) if votes and len(set(votes.values())) > 1 else None
    hands = view.get("hands") or {}
    nobody = unpledged(view)
    states = [{"code": code, "name": names["states"][code], "ev": STATES[code]["ev"],
               "leader": None if code in nobody else _leader(entry, seats),
               "leader_seat": None if code in nobody else entry.get("leader"),
               "unpledged": code in nobody,
               "cubes": entry.get("support", 0), "carried": bool(entry.get("carried"))}
              for code, entry in sorted(view["states"].items())]
    return {
        "game": "tmotp",
        "turn": view["turn"],
        "round": view.get("round"),
        "seat_name": seats.get(seat, spectator) if seat else spectator,
        "opponent_name": seats.get(opponent) if opponent else None,
        # "seat" and "leader_seat" are the seats' keys, for markup (a CSS class) that must not
        # change with the language of the names.
        "votes": [{"seat": s, "name": seats[s], "ev": votes[s]} for s in SEAT_NAMES],
        "votes_final": bool((view.get("result") or {}).get("electoral_votes")),
        "lead": ({"name": seats[leading],
                  "by": votes[leading] - min(votes.values())} if leading else None),
        "momentum": [{"name": seats[s], "markers": view["momentum"][s]}
                     for s in SEAT_NAMES],
        "issues": [{"name": issues[i], "leader": _leader(view["issues"][i], seats),
                    "cubes": view["issues"][i]["cubes"]} for i in _issue_order(view)],
        "media": [{"region": regions[r], "leader": _leader(view["media"][r], seats),
                   "cubes": view["media"][r]["cubes"]} for r in REGIONS],
        "endorsements": [{"region": regions[r], "leader": _leader(view["endorsements"][r], seats),
                          "markers": view["endorsements"][r]["markers"]} for r in REGIONS],
        "states": states,
        "state_rows": state_rows(states),
        "hand": [card_name(c, locale) for c in hands.get(seat, [])] if seat else [],
        "hand_sizes": [{"name": seats[s], "cards": n}
                       for s, n in (view.get("hand_sizes") or {}).items()],
        "changes": game_text.texts(view.get("note_messages", view.get("notes", []))[notes_seen:],
                                   locale, GAME),
    }
