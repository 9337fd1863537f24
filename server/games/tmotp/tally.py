"""The result page of a finished game of 1960 (templates/games/tmotp/web/result.html): the
public board with the electoral votes each candidate won, and who took each state."""

from __future__ import annotations

from engine.games.tmotp.data import SEAT_NAMES, STATES
import server.games.tmotp.summary as summary_tmotp
from server.games.tmotp.board import board_context
from server.web.words import _


def result(view: dict, loc: str) -> dict:
    """What the result page shows of the spectators' final ``view``: its board, the tally."""
    board, counted = board_context(view, None, loc), tally(view, loc)
    board["summary"]["votes"] = counted["tally"]  # the votes won, not only those led
    return {**board, **counted}


def tally(view: dict, loc: str) -> dict:
    """The electoral votes each candidate won and who took each state: Election Day's final
    tally when the game got there (Unpledged Electors may keep a state from anybody), else
    the board as it stood when the game ended (a resignation, a forfeit)."""
    words = summary_tmotp.terms(loc)
    seat_words, state_words = words["seats"], words["states"]
    final = view.get("result") or {}
    unawarded = summary_tmotp.unpledged(view)
    votes = summary_tmotp.electoral_votes(view)
    rows = []
    for code, entry in sorted(view["states"].items(), key=lambda item: state_words[item[0]]):
        seat = entry.get("leader") if code not in unawarded else None
        rows.append({"code": code, "name": state_words[code], "ev": STATES[code]["ev"],
                     "seat": seat, "who": seat_words.get(seat) if seat else
                     (_("nobody (unpledged electors)") if code in unawarded else _("nobody")),
                     "cubes": entry.get("support", 0)})
    return {"tally": [{"seat": s, "name": seat_words[s], "ev": votes.get(s, 0)}
                      for s in SEAT_NAMES],
            "tally_final": bool(final.get("electoral_votes")), "state_rows": rows}
