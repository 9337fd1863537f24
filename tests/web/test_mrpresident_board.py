"""Mr. President's table (server/games/mrpresident/board.py, its part board.html)
rendered from every seat's view and the spectators' at every decision of random games of every
variant: it renders whatever the round brought (tied votes carried, replayed elections, buried
and set-aside ties, conventions and nominees), its scoreboard is the view's, and no card laid
face down by another seat is ever named."""

from __future__ import annotations

import html
import re

from engine.core.driver import play_random
from engine.games.mrpresident.data import CARDS
from server.games.mrpresident import summary as summary_mrpresident
from server.games import presenter
from server.games.mrpresident import board as mrpresident_board
from server.web.pages import environment
from tests.web.test_mrpresident_form import VARIANTS, play

THIS_ROUND = re.compile(r'<ul class="this-round"[^>]*>(.*?)</ul>', re.S)


def render(view: dict, seat: str | None) -> str:
    # the server's count of sealed orders, as server/web/board.py passes it
    context = mrpresident_board.context({**view, "committed": 1}, seat, "en")
    template = environment("en").get_template(presenter("mrpresident").part("board.html"))
    return html.unescape(template.render(csrf_token=lambda: "", locale="en", **context))


def test_the_table_renders_every_situation_and_hides_face_down_cards(app):
    seen: set[str] = set()
    calls = [0]

    def check(state):
        s = state.s
        calls[0] += 1
        if calls[0] % 2:  # every other decision
            return
        for seat in [None, *s["seats"]]:
            view = state.view(seat)
            page = render(view, seat)
            ctx = mrpresident_board.context(view, seat, "en")["summary"]
            for contest in ctx["contests"]:
                for row in contest["sides"]:
                    assert row["tally"] == s["contests"][contest["key"]]["tally"][row["side"]]
                seen.update("pots" for _p in contest["pots"])
            found = THIS_ROUND.search(page)
            for x, p in s["plays"].items():
                hidden = p["cards"][p["shown"]:]
                if x != seat and hidden and found:
                    line = next(li for li in found.group(1).split("<li>")
                                if li.startswith(f"Candidate {x[1:]}:"))
                    shown_names = {CARDS[c]["name"] for c in p["cards"][:p["shown"]]}
                    for c in hidden:
                        if CARDS[c]["name"] not in shown_names:
                            assert CARDS[c]["name"] not in line, (seat, x, c)
                    assert "face down" in line
                    seen.add("face down")
            last = ctx["last_round"]
            if last:
                entry = s["history"][-1]
                seen.update(k for k in ("buried", "set_aside", "winners", "order") if k in entry)
            if ctx["past"]:
                seen.add("past")
            if any(n["president"] for n in ctx["nominees"]):
                seen.add("nominees")

    with app.test_request_context():
        for k, options in enumerate(VARIANTS):
            play(options, f"board/{k}", check)
    assert {"pots", "face down", "buried", "winners", "order", "nominees"} <= seen, seen


class _Replayed(Exception):
    pass


def test_a_replayed_election_shows_the_earlier_tallies(app):
    """Four candidates without the plurality rule: nobody reaches 270, the election is played
    again (the random game of seed "p3" gets there after its first election)."""
    def check(state):
        if state.s["election"] > 1:
            raise _Replayed(state)

    with app.test_request_context():
        try:
            play_random("mrpresident", "p3", options={"edition": "chalkboard", "players": 4},
                        check=check)
        except _Replayed as replayed:
            state = replayed.args[0]
        else:
            raise AssertionError("no election was replayed")
        page = render(state.view(None), None)
        status = " · ".join(summary_mrpresident.status(state.view(None), "en"))
    past = state.s["past"][0]
    assert "Earlier elections, replayed" in page and "Election 1:" in page
    assert all(f"Candidate {x[1:]} {n}" in page for x, n in past["tally"].items())
    assert "Election 2 (the earlier had no winner and was replayed)" in status
