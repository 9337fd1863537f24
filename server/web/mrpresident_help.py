"""GET /help/mrpresident: how this server plays Mr. President, on one page: the action notation
(the engine's NOTATION.md), the house values the rules do not print (the campaign cards' points,
the electoral cards with their votes and colour bands, the Popular Vote Chart's rule and the
chart itself for two, three and four candidates), and the rulings (the engine's RULINGS.md).
Reached from the game page, the open game and the lobby."""

from __future__ import annotations

from flask import Blueprint
from markupsafe import Markup

from engine.games.mrpresident.data import (BANDS, CARDS, CLOSE_SHARES, CLOSE_SPREAD, MAJORITY,
                                           STATES, TOTAL_EV)
from server.games.mrpresident import summary
from server.web import help as notation_help
from server.web import mrpresident_words as words
from server.web.pages import page
from server.web.words import locale

bp = Blueprint("mrpresident_help", __name__)


@bp.get("/help/mrpresident")
def show():
    loc = locale()
    states = sorted(STATES.values(), key=lambda s: s["name"])
    return page(
        "mrpresident_help.html", 200, loc,
        notation=Markup(notation_help.markdown_html("mrpresident", "NOTATION.md", shift=1)),
        rulings=Markup(notation_help.markdown_html("mrpresident", "RULINGS.md", shift=1)),
        cards=[words.card(cid, loc) for cid in sorted(CARDS)], bands=_bands(loc),
        states=[summary.state(s["code"], loc) for s in states], total_ev=TOTAL_EV,
        majority=MAJORITY,
        charts=[{"players": n, "places": summary.places(n, loc),
                 "spread": CLOSE_SPREAD[n], "shares": " / ".join(map(str, CLOSE_SHARES[n])),
                 "rows": [{**summary.state(s["code"], loc), **s["popular"][n],
                           "total": sum(s["popular"][n]["regular"])} for s in states]}
                for n in (2, 3, 4)])


def _bands(loc: str) -> list[dict]:
    """The rules' colour bands of the electoral cards, with their range of votes."""
    return [{"band": b, "name": summary._band(b, loc), "low": low,
             "high": high if high < 999 else None} for b, low, high in BANDS]
