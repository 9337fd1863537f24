"""The decision form of every game: the seat's legal actions (the engine's, the only validator)
as the game's presenter lays them out (``presenter.form``), and the order a submitted form stands
for (``presenter.compose``, then what every form shares).

A form is a dict with its ``kind``: ``choices`` is the shared kind (every legal action one
choice in words, ``groups`` of them by what they do, laid out by templates/web/
_decision_form.html); any other kind is the game's own, laid out by its part ``form.html``
(templates/games/<game>/web/). Every form keeps the notation field for anything typed by hand,
with a link to how orders are written (``notation_url``: the game's notation page unless its
presenter names another).

A refused form comes back filled in as it was sent (``kept``: every field's value, the field the
refusal is about and why, in the page's words: ``keep`` files them for the request, ``build``
hands them to the form's templates). The engine stays the only judge: ``explain`` only says its
refusal of a line beside the field the line came from (``Order.fields``).
"""

from __future__ import annotations

from dataclasses import dataclass, field as default

from flask import g, has_app_context

from server.games import presenter
from server.web.words import _


def build(decision: dict, view: dict, loc: str) -> dict:
    """The form for ``decision`` (games.decision_for), from ``view`` (the seat's), with its
    game's part and notation link, and what a refused form of the same decision kept."""
    shown = presenter(view["game"])
    return {"notation_url": f"/help/notation/{shown.game}", "part": shown.part("form.html"),
            **shown.form(decision, view, loc), "game": shown.game,
            "kept": _kept_for(decision.get("step"))}


# --- a refused form, shown again as it was filled in -------------------------------------------

@dataclass
class Kept:
    """A refused form's fields as sent (``values``: name -> every value), the field its refusal
    is about (``field``: a field's name, None: the form as a whole) and why (``message``)."""

    values: dict[str, list[str]] = default(default_factory=dict)
    field: str | None = None
    message: str = ""

    def value(self, name: str, default: str = "") -> str:
        """The field's value as sent, else ``default``."""
        return (self.values.get(name) or [default])[0]

    def has(self, name: str, value) -> bool:
        """Whether the box or choice ``name`` = ``value`` was ticked or chosen."""
        return str(value) in self.values.get(name, [])

    def sent(self) -> bool:
        """Whether this is a refused form's input (not a fresh form)."""
        return bool(self.values)

    def invalid(self, name: str) -> bool:
        """Whether the refusal is about the field ``name`` (its input is marked)."""
        return self.field is not None and self.field == name


def keep(data, step, field: str | None = None, message: str = "",
         only: tuple[str, ...] | None = None) -> None:
    """File the posted ``data`` (a MultiDict) for the form of decision ``step`` shown in this
    request's answer; ``only``: just these fields (the rest would mean nothing there)."""
    values = {name: [v for v in data.getlist(name)] for name in data
              if name not in ("csrf_token", "step") and (only is None or name in only)}
    g.kept_form = (step, Kept(values, field, message))


def _kept_for(step) -> Kept:
    kept = g.get("kept_form") if has_app_context() else None
    if kept is None or kept[0] != step:
        return Kept()
    return kept[1]


def explain(order: "Order", line: int | None, reason: str) -> tuple[str | None, str]:
    """(the field, the message) of the engine's refusal ``reason`` (already in the reader's
    words) of the order's ``line`` (None: not of a line): the reason after the words of the
    field the line came from, never its number in an order the player did not write."""
    if line is None or line >= len(order.lines):
        return None, reason
    name, words = order.fields[line] if line < len(order.fields) else (None, "")
    if name == "lines":
        return name, _("Your written order, at “%(line)s”: %(reason)s",
                       line=order.lines[line], reason=reason)
    if words:
        return name, _("%(field)s: %(reason)s", field=words, reason=reason)
    return name, reason


# --- turning a submitted form into an order ---------------------------------------------------

NOTHING_ASKED = {"kind": "choices"}  # compose() when the seat is asked nothing: lines as sent


def nothing_chosen() -> str:
    """Why a form sent with nothing chosen and nothing written is refused."""
    return _("Choose one of the choices, or write an order, then send.")


class Refused(ValueError):
    """A form filled in so that it stands for no order; nothing is sent to the game. ``field``:
    the field it is about (its name in the form), if one."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclass
class Order:
    """What a submitted form stands for: its ``lines``; ``atomic``: a plan, played whole or not
    at all; ``stop``: the step whose action ends after the lines if it is still asked then
    ("then stop"; a plan that spends everything ends it by itself); ``fields``: for each line,
    (the form field it came from, that field in the page's words), to say a refusal there."""

    lines: list[str]
    atomic: bool = False
    stop: str | None = None
    fields: list[tuple[str | None, str]] = default(default_factory=list)

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
    order.fields = (order.fields + [(None, "")] * len(order.lines))[:len(order.lines)]
    if action and order.fields[:1] == [(None, "")]:
        order.fields[0] = ("action", "")
    written = [line.strip() for line in (data.get("lines") or "").splitlines() if line.strip()]
    order.lines += written
    order.fields += [("lines", "")] * len(written)
    return order
