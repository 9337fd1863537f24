"""Standing orders: policies a seat files in advance so the server need not ask it.

- ``trigger``: when the opponent plays a card for campaign points and the seat could spend a
  momentum marker to trigger its event (Triggering Events, 2nd ed. p. 7): ``never`` (pass),
  ``always`` (trigger), ``helps_me`` (trigger only a card bearing the seat's own candidate icon
  or both icons: the rulebook's tip, "the event on that card benefits you") or ``ask``.
- ``second_place``: the second-place issue award of the Momentum Phase: ``momentum`` (a marker),
  ``endorsement`` (an Endorsement Card) or ``ask``.
- ``deadline_default``: order lines applied when the seat's deadline passes, the first of them
  legal then (server/services/deadlines.py); used once.

The server applies a policy the moment the decision comes up, in the transaction of the order
that led to it, and records it as an AutoOrder, which the seat's next mail reports. A policy
whose action is not legal then (it cannot be) leaves the decision to the seat.
"""

from __future__ import annotations

from engine.core import ActionError, MalformedAction
from engine.core.messages import Message, plain
from sqlmodel import Session, select

from server.models import AutoOrder, StandingOrder, utcnow

POLICY_GAME = "tmotp"     # the policies answer decisions of 1960 only
POLICIES = {"trigger": ("never", "always", "helps_me", "ask"),
            "second_place": ("momentum", "endorsement", "ask")}
KINDS = (*POLICIES, "deadline_default")
MAX_DEFAULT_LINES = 10


class StandingOrderError(ValueError):
    """A standing order that cannot be filed; the message says why and what would do."""


def of_game(session: Session, game_id: int) -> dict[str, dict[str, object]]:
    """{seat: {kind: value}} of the game's standing orders."""
    out: dict[str, dict[str, object]] = {}
    for row in session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id)):
        out.setdefault(row.seat, {})[row.kind] = row.value
    return out


def answer(asks: dict | None, seat: str, policy: dict) -> tuple[str, str] | None:
    """The (action, rule) a seat's policies give for the decision it is asked, or None (ask)."""
    if not asks or not policy:
        return None
    if asks["step"] == "trigger":
        choice = policy.get("trigger", "ask")
        if choice == "never":
            return "pass", "trigger:never"
        if choice == "always":
            return "trigger", "trigger:always"
        if choice == "helps_me":
            helps = asks.get("icon") in (seat, "both")
            return ("trigger" if helps else "pass"), "trigger:helps_me"
    if asks["step"] == "award_choice":
        choice = policy.get("second_place", "ask")
        if choice in ("momentum", "endorsement"):
            return choice, f"second_place:{choice}"
    return None


class Standing:
    """The game's policies, read from the database only when a decision they could answer
    comes up (most orders never meet one), and the AutoOrders given by them."""

    def __init__(self, session: Session, game_id: int):
        self.session, self.game_id = session, game_id
        self._policies: dict | None = None
        self.given: list[tuple[str, str, str]] = []  # (seat, action, rule)

    def answer(self, state, seat: str) -> str | None:
        asks = state.asks(seat)
        if not asks or asks["step"] not in ("trigger", "award_choice"):
            return None
        if self._policies is None:
            self._policies = of_game(self.session, self.game_id)
        given = answer(asks, seat, self._policies.get(seat, {}))
        if given is None or given[0] not in state.legal_actions(seat):
            return None
        self.given.append((seat, given[0], given[1]))
        return given[0]

    def record(self, step: int) -> None:
        """Add the AutoOrders of the policies applied (in the order's transaction)."""
        for seat, action, rule in self.given:
            self.session.add(AutoOrder(game_id=self.game_id, seat=seat, step=step,
                                       actions=[action], source="standing", rule=rule))
        self.given = []


def check(kind: str, value, state=None, seat: str | None = None) -> object:
    """The value to store for a standing order, or StandingOrderError saying what would do.
    With the game's ``state`` and the ``seat``, a default order's lines must be in the game's
    notation (whether one is legal is known only when the deadline passes)."""
    if kind in POLICIES:
        if state is not None and state.game_id != POLICY_GAME:
            raise StandingOrderError(plain("The {kind} standing order answers a decision of "
                                           "1960 that this game does not have; file a default "
                                           "order instead.", kind=kind))
        if value not in POLICIES[kind]:
            raise StandingOrderError(plain("A {kind} standing order is one of {values}, not "
                                           "{value}.", kind=kind, values=", ".join(POLICIES[kind]),
                                           value=repr(value)))
        return value
    if kind == "deadline_default":
        lines = [value] if isinstance(value, str) else value
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise StandingOrderError(plain("A default order is a list of order lines, such as "
                                           "[\"pass\"] or [\"play 12 campaign\"]."))
        lines = [x.strip() for x in lines if x.strip()]
        if not 1 <= len(lines) <= MAX_DEFAULT_LINES:
            raise StandingOrderError(plain("A default order has 1 to {n} lines.",
                                           n=MAX_DEFAULT_LINES))
        if state is not None and seat is not None:
            for line in lines:
                try:
                    state.parse(seat, line)
                except MalformedAction as exc:
                    raise StandingOrderError(plain("{line}: {reason}", line=repr(line),
                                                   reason=exc.reason)) from None
                except ActionError:
                    pass  # not legal now; it may be at the deadline
        return lines
    raise StandingOrderError(_unknown(kind))


def _unknown(kind) -> Message:
    return plain("The standing orders are {kinds}; not {kind}.", kinds=", ".join(KINDS),
                 kind=repr(kind))


def file(session: Session, game_id: int, seat: str, kind: str, value, state=None) -> None:
    """File (or replace) a standing order; ``ask`` or an empty value withdraws it. The caller
    commits."""
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                   StandingOrder.seat == seat,
                                                   StandingOrder.kind == kind)).first()
    withdrawn = value in (None, "ask", [], "")
    value = None if withdrawn else check(kind, value, state, seat)
    if withdrawn:
        if kind not in KINDS:
            raise StandingOrderError(_unknown(kind))
        if row is not None:
            session.delete(row)
        return
    if row is None:
        row = StandingOrder(game_id=game_id, seat=seat, kind=kind)
    row.value, row.updated_at = value, utcnow()
    session.add(row)


def filed_lines(session: Session, game_id: int, seat: str) -> list[str]:
    """The lines of the seat's filed default order ([] if none)."""
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                   StandingOrder.seat == seat,
                                                   StandingOrder.kind == "deadline_default")
                       ).first()
    return list(row.value or []) if row is not None else []


def use_default(session: Session, game_id: int, seat: str) -> None:
    """A filed default is used once: withdraw it (in the transaction that applied it)."""
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                   StandingOrder.seat == seat,
                                                   StandingOrder.kind == "deadline_default")
                       ).first()
    if row is not None:
        session.delete(row)


# --- standing orders written as lines of a reply ---------------------------------------------
REPLY_WORD = "standing"
REPLY_KINDS = {"trigger": "trigger", "second_place": "second_place",
               "second-place": "second_place", "default": "deadline_default"}
REPLY_EXAMPLES = ["standing trigger helps_me", "standing second_place momentum",
                  "standing default play 12 campaign", "standing trigger ask"]


def is_reply_line(line: str) -> bool:
    return [w.casefold() for w in line.split(maxsplit=1)[:1]] == [REPLY_WORD]


def from_reply(lines: list[str]) -> dict[str, object]:
    """{kind: value} of the standing-order lines of a reply (``standing trigger helps_me``;
    ``standing default <order line>``, several making a list), or StandingOrderError."""
    filed: dict[str, object] = {}
    for line in lines:
        words = line.split(maxsplit=2)
        kind = REPLY_KINDS.get(words[1].casefold()) if len(words) > 1 else None
        if kind is None or len(words) < 3:
            raise StandingOrderError(plain("{line} is not a standing order. Write one of: "
                                           "{examples}.", line=repr(line),
                                           examples="; ".join(REPLY_EXAMPLES)))
        if kind == "deadline_default":
            value = words[2].strip()
            if value.casefold() != "ask":
                filed.setdefault(kind, [])
                filed[kind].append(value)  # type: ignore[union-attr]
            else:
                filed[kind] = "ask"
        else:
            filed[kind] = words[2].strip().casefold()
    return filed


def describe(filed: dict[str, object]) -> list[str]:
    """The standing orders filed, as lines the answer can show (in the notation)."""
    out = []
    for kind, value in filed.items():
        word = "default" if kind == "deadline_default" else kind
        values = value if isinstance(value, list) else [value]
        out.extend(f"{REPLY_WORD} {word} {v}" for v in values)
    return out
