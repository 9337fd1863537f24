"""The board of 1960 on the game page, the replay and the result (templates/games/tmotp/web/
board.html): the mails' summary of a view (summary.py; ``seat`` None: a spectator's), the map
(board_map.py), the bag, the events in force and, during the Debates, the Debate Board
(debate_board.html), built from the view only; and the game page's status line and the reader's
hand (hand.html: a card each)."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS, SEAT_NAMES, STATES
from engine.games.tmotp.debates import HARVARD_BRAIN_TRUST
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
            "to_win": TO_WIN, "debate": debate_board(view, seat, loc),
            "map_key": [{"fill": board_map.COLOURS[(x, carried)][0],
                         "label": (_("%(name)s carries", name=names["seats"][x]) if carried
                                   else _("%(name)s leads", name=names["seats"][x]))}
                        for x in SEAT_NAMES for carried in (True, False)],
            "map": board_map.svg(summary["states"], view.get("tokens") or {},
                                 seat_names=names["seats"], words=_map_words(),
                                 regions=names["regions"],
                                 title=_("The states: who leads where, and by how many cubes"))}


def form_map(view: dict, seat: str, loc: str, targets: dict[str, str]):
    """The map a planner form shows at its top (forms.py): the board's, its ``targets`` (state
    code -> spoken name) tappable and the other states inert, with ids of its own."""
    names = summary_tmotp.terms(loc)
    summary = summary_tmotp.summary(view, seat, 0, loc)
    return board_map.svg(summary["states"], view.get("tokens") or {},
                         seat_names=names["seats"], words=_map_words(),
                         regions=names["regions"], targets=targets, ids="tmotp-form-map",
                         title=_("Tap a state to add one; the states you cannot choose are "
                                 "greyed"))


# GMT rulebook, Election Day: "There are a total of 537 electoral votes available, which means
# any player who takes at least 269 of them has won the game!"
TO_WIN = sum(s["ev"] for s in STATES.values()) // 2 + 1


def debate_board(view: dict, seat: str | None, loc: str) -> dict | None:
    """The Debate Board while the view has one (templates/games/tmotp/web/debate_board.html):
    the issues in their original track order, each with the cards played to either side and
    their CP, who won it and the state support cubes that won it; the cards each side has left
    (the reader's own named); None outside the Debates."""
    debate = view.get("debate")
    if not debate:
        return None
    names = summary_tmotp.terms(loc)
    harvard = summary_tmotp.card_name(HARVARD_BRAIN_TRUST, loc)
    totals, awards = debate.get("totals") or {}, debate.get("awards") or {}
    issues = []
    for issue, tile in sorted(debate["tiles"].items(), key=lambda t: t[1]["position"]):
        sides = []
        for side in SEAT_NAMES:
            played = [card(c, loc) for c in tile.get(side) or []]
            cp = (totals.get(issue) or {}).get(side, 0)
            bonus = cp - sum(c["cp"] for c in played)  # Harvard Brain Trust's +1 (the engine's)
            sides.append({"seat": side, "name": names["seats"][side], "cards": played,
                          "cp": cp, "bonus": bonus, "bonus_name": harvard if bonus else None})
        won = tile.get("won")
        issues.append({"issue": issue, "name": names["issues"].get(issue, issue),
                       "position": tile["position"] + 1, "sides": sides,
                       "won": won, "winner": names["seats"].get(won) if won else None,
                       "award": awards.get(issue)})
    return {"issues": issues, "next_award": debate.get("next_award"),
            "initiative": names["seats"].get(view.get("initiative") or ""),
            "left": [{"seat": x, "name": names["seats"][x],
                      "n": (debate.get("cards_left") or {}).get(x, 0)} for x in SEAT_NAMES],
            "mine": [card(c, loc) for c in debate.get("my_cards") or []] if seat else [],
            "revealed": [{"seat": x, "name": names["seats"][x], "card": card(c, loc)}
                         for x, c in sorted((debate.get("revealed") or {}).items())]}


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
    """A card of a hand as templates/games/tmotp/web/hand.html shows it: Words.card's name, CP,
    candidate icon, issue, state and event, with the keys of its icon (``icon_seat``: a seat or
    "both", for its colour) and issue, the state's name and the rest cubes."""
    data = CARDS[card_id]
    code = data.get("state") or ""
    return {**Words(loc).card(card_id), "rest": data.get("rest"),
            "icon_seat": data.get("icon") or "", "issue_key": data.get("issue") or "",
            "state_name": Words(loc).state_name(code) if code in STATES else ""}


def persistent(view: dict, loc: str) -> list[str]:
    """The events in force: those kept on the board (for the Debates, Election Day,
    prevention) and those in force this turn (card ids, engine/games/tmotp/effects.py). An
    event in force is public even when its card has come back into a hand."""
    ids: list[int] = []
    for kept in (view.get("persistent") or {}).values():
        ids.extend(kept)
    ids.extend(view.get("effects") or [])
    return [summary_tmotp.card_name(int(c), loc) for c in dict.fromkeys(ids)]
