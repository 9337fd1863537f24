"""How this server plays Mr. President, on one page (/help/mrpresident, server/web/help.py; the
part templates/games/mrpresident/web/help.html): beside the action notation and the rulings
(the engine's NOTATION.md and RULINGS.md, which the shared page gives), the house values the
rules do not print: the campaign cards' points, the electoral cards with their votes and colour
bands, the Popular Vote Chart's rule and the chart itself for two, three and four candidates.
Reached from the game page, the open game and the lobby."""

from __future__ import annotations

from engine.games.mrpresident.data import (BANDS, CARDS, CLOSE_SHARES, CLOSE_SPREAD, MAJORITY,
                                           STATES, TOTAL_EV)
import server.games.mrpresident.page_words as words
import server.games.mrpresident.summary as summary


def context(loc: str) -> dict:
    """The house values the help page shows, in ``loc``'s words."""
    states = sorted(STATES.values(), key=lambda s: summary.state_name(s["code"], loc))
    return dict(
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
