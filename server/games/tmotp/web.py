"""What 1960's pages show beyond the shared templates (the Web section of
server/games/presenter.py): the board and the hand (board.py), the decision forms (forms.py),
the lobby's form (new_game.py), the replay's turns and heading, the result's tally (tally.py);
its template parts are templates/games/tmotp/web/."""

from __future__ import annotations

from engine.games.tmotp.data import SEAT_NAMES
import server.games.tmotp.board as board
import server.games.tmotp.focus as focus
import server.games.tmotp.forms as forms
import server.games.tmotp.new_game as new_game
import server.games.tmotp.standing_words as standing_words
import server.games.tmotp.tally as tally
from server.games.tmotp.page_words import Words
from server.web.words import _


class Web:
    def page(self, view: dict, seat: str | None, loc: str) -> dict:
        return board.page(view, seat, loc)

    def public_board(self, view: dict, loc: str) -> dict:
        return board.board_context(view, None, loc)

    def focus(self, form: dict | None, view: dict) -> list[str]:
        return focus.parts(form, view)

    def hand(self, cards: list, loc: str) -> list[dict]:
        return [board.card(c, loc) for c in cards]

    def form(self, decision: dict, view: dict, loc: str) -> dict:
        return forms.build(decision, view, loc)

    def compose(self, data, form: dict):
        return forms.compose(data, form)

    def read_new_game(self, form, user) -> tuple[dict, dict, dict]:
        return new_game.read(form, user)

    def standing_orders(self, loc: str) -> list[dict]:
        return standing_words.standing_orders(loc)

    def turn_of(self, state) -> int:
        return state.s["turn"]

    def turn_link(self, turn: int, back: bool) -> dict:
        return {"label": _("Turn %(turn)s", turn=turn),
                "aria": _("Back to the start of turn %(turn)s", turn=turn) if back
                else _("Forward to the start of turn %(turn)s", turn=turn)}

    def replay_heading(self, view: dict, loc: str) -> str:
        return " · ".join([_("Turn %(turn)s", turn=view["turn"]), board.round_name(view)])

    def result(self, view: dict, loc: str) -> dict:
        return tally.result(view, loc)

    def action_words(self, seat: str, action: str, loc: str) -> str | None:
        """A candidate's order as the replay tells it after his name ("chooses Advertising with
        Give Me A Week (63) (4 CP)"); chance's draws are told by the notes they make."""
        if seat not in SEAT_NAMES:
            return None
        words = Words(loc)
        return words._("chooses %(order)s", order=words.order(action))

    def log_heading(self, message: list, loc: str) -> str | None:
        """A turn's heading at "Turn n begins."; the Debates and Election Day their own."""
        template, args = message[0], message[1] if len(message) > 1 else {}
        if template == "Turn {turn} begins.":
            return _("Turn %(turn)s", turn=args["turn"])
        if template.startswith("The Debates:"):
            return _("The Debates")
        if template.startswith("Election Day event:") or template.startswith("Final Tally:"):
            return _("Election Day")
        return None

    def draw_note(self, message: list) -> bool:
        return message[0] in DRAWS


# The notes of what was drawn: support checks, the initiative, the endorsements, the bag.
DRAWS = frozenset((
    "{seat} makes support checks in {state}: {hits} succeed.",
    "{seat} makes support checks: {hits} succeed.",
    "{seat} wins the initiative check.",
    "{seat} draws Endorsement in {region}.",
    "{seat} draws Major Endorsement.",
    "{card}: {seat} draws again for a failed support check.",
    "The Political Capital Bag is empty and is reseeded with {n} cubes of each colour.",
    "The bag is empty: the remaining Election Day support checks are lost.",
    "The bag is empty: {left} support check(s) for {seat} are lost.",
    "Election Day event: {card}.",
))
