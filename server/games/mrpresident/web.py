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
from engine.games.mrpresident.data import STATES
from server.web.words import _

# The note that begins a round: its electoral cards turned up (the log's heading, a draw).
ROUND_NOTE = "Round {round}: {states} turned up, {n} electoral votes."


class Web:
    def page(self, view: dict, seat: str | None, loc: str) -> dict:
        return board.context(view, seat, loc)

    def public_board(self, view: dict, loc: str) -> dict:
        return board.context(view, None, loc)

    def focus(self, form: dict | None, view: dict) -> list[str]:
        """At every decision, the round at stake in brief (round.html: the electoral cards
        turned up, the cards played so far, the standings) right under the prompt; the
        whole table stays with the board."""
        return ["round.html"] if form else []

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

    def action_words(self, seat: str, action: str, loc: str) -> str | None:
        """Each move of the notation (engine/games/mrpresident/NOTATION.md) in words."""
        verb, *rest = action.split()
        cards = [page_words.card(c, loc)["label"] for c in rest if c.isdigit()]
        names = page_words.seat_names(loc)
        if verb == "play" and len(cards) == 2:
            return _("lays two cards: %(first)s and %(second)s", first=cards[0],
                     second=cards[1])
        if verb == "play" and cards:
            return _("lays %(card)s", card=cards[0])
        if verb in ("second", "upset", "stop") and rest == ["none"]:
            return {"second": _("plays no second card"), "upset": _("attempts no upset"),
                    "stop": _("does not answer the upset")}[verb]
        if verb in ("second", "upset", "stop") and cards:
            return {"second": _("answers with a second card: %(card)s", card=cards[0]),
                    "upset": _("attempts an upset with %(card)s", card=cards[0]),
                    "stop": _("answers the upset with %(card)s", card=cards[0])}[verb]
        if verb == "turn" and rest and rest[0] in STATES:
            return _("turns up %(state)s (%(ev)s electoral votes)",
                     state=summary.state_name(rest[0], loc), ev=STATES[rest[0]]["ev"])
        if verb in ("lot", "parties") and rest:
            drawn = ", ".join(names.get(x, x) for x in rest)
            return _("the lot draws %(seats)s", seats=drawn) if verb == "lot" \
                else _("the lot draws the Republican nominees: %(seats)s", seats=drawn)
        return None

    def log_heading(self, message: list, loc: str) -> str | None:
        """A round's heading at the note of its electoral cards turned up."""
        if message[0] == ROUND_NOTE:
            return _("Round %(n)s", n=message[1]["round"])
        return None

    def draw_note(self, message: list) -> bool:
        return message[0] == ROUND_NOTE

    def committed(self, view: dict, committed: int, deciding: int) -> tuple[int, int]:
        """The candidates who laid their cards first this round count among those deciding
        it (three candidates: "1 of 3" while the two others choose, not "0 of 2")."""
        first = summary.laid_first(view)
        return committed + first, deciding + first

    def help(self, loc: str) -> dict:
        return help_page.context(loc)
