"""What Mr. President's pages show beyond the shared templates (the Web section of
server/games/presenter.py): the table, scoreboard and hand from the mails' summary (board.py),
the decision form (forms.py), the lobby's form (new_game.py), the replay's rounds for turns, the
help page's house values (help.py); its template parts are templates/games/mrpresident/web/."""

from __future__ import annotations

import server.games.mrpresident.board as board
import server.games.mrpresident.forms as forms
import server.games.mrpresident.help as help_page
import server.games.mrpresident.new_game as new_game
import server.games.mrpresident.page_words as page_words
import server.games.mrpresident.summary as summary
from server.web.words import _


class Web:
    def page(self, view: dict, seat: str | None, loc: str) -> dict:
        return board.context(view, seat, loc)

    def public_board(self, view: dict, loc: str) -> dict:
        return board.context(view, None, loc)

    def hand(self, cards: list, loc: str) -> list[dict]:
        return page_words.cards(cards, loc)

    def form(self, decision: dict, view: dict, loc: str) -> dict:
        return forms.build(decision, view, loc)

    def compose(self, data, form: dict):
        return forms.compose(data, form)

    def read_new_game(self, form, user) -> tuple[dict, dict, dict]:
        return new_game.read(form)

    def turn_of(self, state) -> tuple:
        """An election's stage's round: the replay's "turns" are rounds."""
        s = state.s
        return (s["election"], s["stage"], s["round"])

    def turn_link(self, turn: tuple, back: bool) -> dict:
        n = turn[2]
        return {"label": _("Round %(n)s", n=n),
                "aria": _("Back to the start of round %(n)s", n=n) if back
                else _("Forward to the start of round %(n)s", n=n)}

    def replay_heading(self, view: dict, loc: str) -> str:
        return " · ".join(summary.status(view, loc))

    def result(self, view: dict, loc: str) -> dict:
        return board.context(view, None, loc)

    def help(self, loc: str) -> dict:
        return help_page.context(loc)
