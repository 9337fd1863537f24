"""The decision form of every game: the seat's legal actions (the engine's, the only validator)
as the game's presenter lays them out (``presenter.form``), and the order a submitted form stands
for (``presenter.compose``, then what every form shares).

A form is a dict with its ``kind``: ``choices`` is the shared kind (every legal action one
choice in words, ``groups`` of them by what they do, laid out by templates/web/
_decision_form.html); any other kind is the game's own, laid out by its part ``form.html``
(templates/games/<game>/web/). Every form keeps the notation field for anything typed by hand,
with a link to how orders are written (``notation_url``: the game's notation page unless its
presenter names another).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.games import presenter
from server.web.words import _


def build(decision: dict, view: dict, loc: str) -> dict:
    """The form for ``decision`` (games.decision_for), from ``view`` (the seat's), with its
    game's part and notation link."""
    shown = presenter(view["game"])
    return {"notation_url": f"/help/notation/{shown.game}", "part": shown.part("form.html"),
            **shown.form(decision, view, loc), "game": shown.game}


# --- turning a submitted form into an order ---------------------------------------------------

NOTHING_ASKED = {"kind": "choices"}  # compose() when the seat is asked nothing: lines as sent


def nothing_chosen() -> str:
    """Why a form sent with nothing chosen and nothing written is refused."""
    return _("Choose one of the choices, or write an order, then send.")


class Refused(ValueError):
    """A form filled in so that it stands for no order; nothing is sent to the game."""


@dataclass
class Order:
    """What a submitted form stands for: its ``lines``; ``atomic``: a plan, played whole or not
    at all; ``stop``: the step whose action ends after the lines if it is still asked then
    ("then stop"; a plan that spends everything ends it by itself)."""

    lines: list[str]
    atomic: bool = False
    stop: str | None = None

    def then(self, state, seat: str) -> str | None:
        """games.submit_order's ``then``: "done" once, while the seat is still asked ``stop``."""
        if self.stop and (state.asks(seat) or {}).get("step") == self.stop \
                and "done" in [str(a) for a in state.legal_actions(seat)]:
            self.stop = None
            return "done"
        return None


def compose(data, form: dict) -> Order:
    """The order the posted ``data`` (a MultiDict) stands for on ``form``: what the game's
    presenter reads of its own fields, else the chosen action (radio ``action``); then the
    lines written in the notation. Raises Refused."""
    order = presenter(form["game"]).compose(data, form) if "game" in form else Order([])
    action = (data.get("action") or "").strip()
    if action and not order.lines:
        order.lines = [action]
    order.lines += [line.strip() for line in (data.get("lines") or "").splitlines()
                    if line.strip()]
    return order
