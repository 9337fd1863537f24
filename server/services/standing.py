"""Standing orders: answers a seat files in advance so the server need not ask it.

- a game's policies: the kinds and values the game declares
  (engine.core.GameInfo.standing_policies), each answering a decision of that game; the game's
  state says which kind answers the decision a seat has now and what a value gives
  (``standing_policy`` / ``standing_answer``, in the game's folder under engine/games). The
  server stores them, checks them against the declaration and applies the answer: it knows no
  game's rules.
- ``deadline_default``: the server's own, for every game: order lines applied when the seat's
  deadline passes, the first of them legal then (server/services/deadlines.py); used once.

The server applies a policy the moment the decision comes up, in the transaction of the order
that led to it, and records it as an AutoOrder (with the game's rule id, such as
``trigger:never``), which the seat's next mail reports. A policy whose action is not legal then
(it cannot be) leaves the decision to the seat.
"""

from __future__ import annotations

import engine.core as engine
from engine.core import ActionError, MalformedAction
from engine.core.messages import Message, plain
from sqlalchemy import bindparam
from sqlmodel import Session, select

from server import db
from server.models import AutoOrder, Game, StandingOrder, utcnow
from server.raw_sql import Raw

DEADLINE_DEFAULT = "deadline_default"
MAX_DEFAULT_LINES = 10


def policies(game_type: str | None = None) -> dict[str, tuple[str, ...]]:
    """{kind: values} of the policies ``game_type`` declares; without a game, every game's."""
    if game_type is not None:
        return dict(engine.info(game_type).standing_policies)
    out: dict[str, tuple[str, ...]] = {}
    for game in engine.games():
        for kind, values in engine.info(game).standing_policies.items():
            out[kind] = tuple(dict.fromkeys((*out.get(kind, ()), *values)))
    return out


def kinds(game_type: str | None = None) -> tuple[str, ...]:
    """The standing orders a seat of ``game_type`` (without a game: of any game) may file."""
    return (*policies(game_type), DEADLINE_DEFAULT)


class StandingOrderError(ValueError):
    """A standing order that cannot be filed; the message says why and what would do."""


# Read on the order path whenever a decision a policy could answer comes up: built once, run on
# the driver's cursor (server/raw_sql.py), no ORM objects made.
_OF_GAME = Raw(select(StandingOrder.seat, StandingOrder.kind, StandingOrder.value)
               .where(StandingOrder.game_id == bindparam("game_id")))


def of_game(session: Session, game_id: int) -> dict[str, dict[str, object]]:
    """{seat: {kind: value}} of the game's standing orders."""
    out: dict[str, dict[str, object]] = {}
    session.flush()  # as the ORM's select would: a policy filed in this transaction counts
    for seat, kind, value in _OF_GAME.rows(db.connection(session), {"game_id": game_id}):
        out.setdefault(seat, {})[kind] = value
    return out


class Standing:
    """The game's policies, read from the database only when a decision they could answer
    comes up (most orders never meet one), and the AutoOrders given by them."""

    def __init__(self, session: Session, game_id: int):
        self.session, self.game_id = session, game_id
        self._policies: dict | None = None
        self.given: list[tuple[str, str, str]] = []  # (seat, action, rule)
        # The engine log's positions of the entries no person chose: forced single choices and
        # the policies' answers (games._advance), which a take back undoes and the game makes
        # again (engine.core.may_retract's ``automatic``).
        self.automatic: list[int] = []

    def made(self, start: int, end: int) -> None:
        """The engine log's entries ``start`` to ``end`` were made without asking anybody."""
        self.automatic.extend(range(start, end))

    def automatic_since(self, log_from: int) -> list[int]:
        """The positions of the automatic entries in the log segment from ``log_from``."""
        return [i - log_from for i in self.automatic if i >= log_from]

    def answer(self, state, seat: str) -> str | None:
        """The action the seat's policy gives for its decision now, or None (ask the seat)."""
        kind = state.standing_policy(seat)
        if kind is None:
            return None
        if self._policies is None:
            self._policies = of_game(self.session, self.game_id)
        value = self._policies.get(seat, {}).get(kind)
        given = state.standing_answer(seat, value) if value is not None else None
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


def check(kind: str, value, state=None, seat: str | None = None,
          game_type: str | None = None) -> object:
    """The value to store for a standing order, or StandingOrderError saying what would do.
    A policy must be one the game (``game_type``, else the ``state``'s) declares. With the
    game's ``state`` and the ``seat``, a default order's lines must be in the game's notation
    (whether one is legal is known only when the deadline passes)."""
    if game_type is None and state is not None:
        game_type = state.game_id
    declared = policies(game_type)
    if kind in declared:
        if value not in declared[kind]:
            raise StandingOrderError(plain("A {kind} standing order is one of {values}, not "
                                           "{value}.", kind=kind, values=", ".join(declared[kind]),
                                           value=repr(value)))
        return value
    if game_type is not None and kind in policies():
        raise StandingOrderError(plain("The {kind} standing order answers a decision that "
                                       "this game does not have; its standing orders are "
                                       "{kinds}.", kind=kind, kinds=", ".join(kinds(game_type))))
    if kind == DEADLINE_DEFAULT:
        lines = [value] if isinstance(value, str) else value
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise StandingOrderError(plain("A default order is a list of order lines, each in "
                                           "the game's notation."))
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
    raise StandingOrderError(_unknown(kind, game_type))


def _unknown(kind, game_type: str | None) -> Message:
    return plain("The standing orders are {kinds}; not {kind}.",
                 kinds=", ".join(kinds(game_type)), kind=repr(kind))


def file(session: Session, game_id: int, seat: str, kind: str, value, state=None) -> None:
    """File (or replace) a standing order; ``ask`` or an empty value withdraws it (any game's
    kind may be withdrawn: none is filed where the game has no such decision). The caller
    commits."""
    game_type = state.game_id if state is not None else session.get(Game, game_id).game_type
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                   StandingOrder.seat == seat,
                                                   StandingOrder.kind == kind)).first()
    withdrawn = value in (None, "ask", [], "")
    value = None if withdrawn else check(kind, value, state, seat, game_type)
    if withdrawn:
        if kind not in kinds():
            raise StandingOrderError(_unknown(kind, game_type))
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
                                                   StandingOrder.kind == DEADLINE_DEFAULT)
                       ).first()
    return list(row.value or []) if row is not None else []


def use_default(session: Session, game_id: int, seat: str) -> None:
    """A filed default is used once: withdraw it (in the transaction that applied it)."""
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                   StandingOrder.seat == seat,
                                                   StandingOrder.kind == DEADLINE_DEFAULT)
                       ).first()
    if row is not None:
        session.delete(row)


# --- standing orders written as lines of a reply ---------------------------------------------
REPLY_WORD = "standing"
REPLY_DEFAULT = "default"   # the word of a default order: ``standing default <order line>``


def _reply_examples() -> list[str]:
    """Lines of each kind any game declares, a default order and a withdrawal, to show how."""
    return [*(f"{REPLY_WORD} {kind} {values[0]}" for kind, values in policies().items()),
            f"{REPLY_WORD} {REPLY_DEFAULT} <order>", f"{REPLY_WORD} {REPLY_DEFAULT} ask"]


REPLY_EXAMPLES = _reply_examples()


def _reply_kind(word: str) -> str | None:
    """The kind a reply's word names (``second-place`` for ``second_place`` too), or None."""
    word = word.casefold()
    if word == REPLY_DEFAULT:
        return DEADLINE_DEFAULT
    return next((kind for kind in policies() if word in (kind, kind.replace("_", "-"))), None)


def is_reply_line(line: str) -> bool:
    return [w.casefold() for w in line.split(maxsplit=1)[:1]] == [REPLY_WORD]


def from_reply(lines: list[str]) -> dict[str, object]:
    """{kind: value} of the standing-order lines of a reply (``standing <kind> <value>``;
    ``standing default <order line>``, several making a list), or StandingOrderError."""
    filed: dict[str, object] = {}
    for line in lines:
        words = line.split(maxsplit=2)
        kind = _reply_kind(words[1]) if len(words) > 1 else None
        if kind is None or len(words) < 3:
            raise StandingOrderError(plain("{line} is not a standing order. Write one of: "
                                           "{examples}.", line=repr(line),
                                           examples="; ".join(REPLY_EXAMPLES)))
        if kind == DEADLINE_DEFAULT:
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
        word = REPLY_DEFAULT if kind == DEADLINE_DEFAULT else kind
        values = value if isinstance(value, list) else [value]
        out.extend(f"{REPLY_WORD} {word} {v}" for v in values)
    return out
