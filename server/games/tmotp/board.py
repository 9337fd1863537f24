"""The board of 1960 on the game page, the replay and the result (templates/games/tmotp/web/
board.html): the mails' summary of a view (summary.py; ``seat`` None: a spectator's), the map
(board_map.py), the bag and the events in force, built from the view only; and the game page's
status line and the reader's hand."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS
import server.games.tmotp.board_map as board_map
import server.games.tmotp.summary as summary_tmotp
from server.games.tmotp.page_words import Words
from server.web.words import _


def page(view: dict, seat: str | None, loc: str) -> dict:
    """What the game page's parts show: the board, the part of the turn, the reader's hand."""
    return {**board_context(view, seat, loc), "round_name": round_name(view),
            "hand": [card(c, loc) for c in (view.get("hands") or {}).get(seat, [])]
            if seat else []}


def board_context(view: dict, seat: str | None, loc: str) -> dict:
    """What templates/games/tmotp/web/board.html shows of ``view`` (the seat's; None: public)."""
    names = summary_tmotp.terms(loc)
    summary = summary_tmotp.summary(view, seat, 0, loc)
    return {"view": view, "summary": summary, "seats": names["seats"],
            "bag": view.get("bag") or {}, "persistent": persistent(view, loc),
            "map": board_map.svg(summary["states"], view.get("tokens") or {},
                                 seat_names=names["seats"], words=_map_words(),
                                 title=_("The states: who leads where, and by how many cubes"))}


def round_name(view: dict) -> str:
    """The part of the turn, in the rulebook's words (the engine's ``round``, ``phase``)."""
    rnd = view.get("round")
    if rnd == "activity":
        return _("Activity Phase, round %(n)s of 5", n=view.get("phase"))
    return {"initiative": _("Initiative"), "campaign_strategy": _("Campaign Strategy"),
            "momentum": _("Momentum Phase"), "debates": _("The Debates"),
            "election_day": _("Election Day"), "over": _("Game over")}.get(rnd, rnd or "")


def _map_words() -> dict[str, str]:
    return {"ev": _("EV"), "cubes": _("support cubes"), "carried": _("carried"),
            "no_leader": _("no support"), "token": _("{name}'s candidate token here"),
            "unpledged": _("nobody (unpledged electors)")}


def card(card_id: int, loc: str) -> dict:
    """A card of a hand as templates/games/tmotp/web/hand.html lists it."""
    return {**Words(loc).card(card_id), "rest": CARDS[card_id].get("rest")}


def persistent(view: dict, loc: str) -> list[str]:
    """The events in force: those kept on the board (for the Debates, Election Day,
    prevention) and those in force this turn (card ids, engine/games/tmotp/effects.py). An
    event in force is public even when its card has come back into a hand."""
    ids: list[int] = []
    for kept in (view.get("persistent") or {}).values():
        ids.extend(kept)
    ids.extend(view.get("effects") or [])
    return [summary_tmotp.card_name(int(c), loc) for c in dict.fromkeys(ids)]
