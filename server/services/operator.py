"""Read-side queries for operators (the `whistlestop` CLI): a game's record, replay checks,
and what is stuck. Nothing here changes the database except `republish`, which says so."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import engine.core as engine
from engine.core import ActionError, OptionsError
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server import db
from server.models import Game, Order, OutboxMessage, Seat, User, aware, utcnow
from server.services import game_history, outbox
from server.services.games import GameNotFound, log_of, state_json, whole_state



def age_seconds(moment: datetime | None, now: datetime) -> float | None:
    return None if moment is None else max(0.0, (now - aware(moment)).total_seconds())


def _iso(moment: datetime | None) -> str | None:
    return aware(moment).isoformat() if moment else None


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


def outbox_rows(session: Session, game_id: int) -> list[OutboxMessage]:
    """The outbox rows about one game (their payload names it)."""
    return list(session.exec(
        select(OutboxMessage)
        .where(OutboxMessage.payload["game_id"].as_integer() == game_id)
        .order_by(OutboxMessage.id)).all())


def _outbox_dict(row: OutboxMessage, now: datetime) -> dict:
    return {"id": row.id, "kind": row.kind, "payload": row.payload,
            "created_at": _iso(row.created_at), "published_at": _iso(row.published_at),
            "delivered_at": _iso(row.delivered_at), "attempts": row.attempts, "last_error": row.last_error,
            "age_seconds": round(age_seconds(row.created_at, now), 1)}


# --- show-game ------------------------------------------------------------------------------
def game_record(session: Session, game_id: int, *, log_count: int = 10,
                reveal: bool = False, now: datetime | None = None) -> dict:
    """Everything an operator looks at first, as plain data.

    Hidden information (the texts of sealed orders, the unredacted log of a game in play, the
    seed) is left out unless ``reveal``; the seed of a finished game is public.
    """
    now = now or utcnow()
    game = get_game(session, game_id)
    seats = []
    for seat, user in session.exec(select(Seat, User).join(User, isouter=True)
                                   .where(Seat.game_id == game_id).order_by(Seat.id)).all():
        seats.append({"seat": seat.seat, "user_id": seat.user_id,
                      "email": user.email if user else None,
                      "name": user.display_name if user else None,
                      "invited": seat.invite_email, "joined_at": _iso(seat.joined_at)})
    pending = session.exec(select(Order).where(Order.game_id == game_id,
                                               Order.status == "pending")
                           .order_by(Order.step, Order.seat)).all()
    state = whole_state(session, game) if game.state else None
    decision = []
    if state is not None and game.status == "active":
        committed = {o.seat for o in pending if o.step == game.step}
        active = state.active()
        for seat in active:
            decision.append({"seat": seat, "prompt": state.prompt(seat),
                             "legal_actions": len(state.legal_actions(seat)),
                             "sealed": seat in committed if len(active) > 1 else None})
    rows = log_of(session, game_id)
    total = len(rows)
    shown = rows[max(0, total - log_count):] if log_count > 0 else []
    if game.status == "finished" or reveal or state is None:
        log = [{"seq": r.seq, "seat": r.seat, "action": r.action, "chance": r.is_chance}
               for r in shown]
        redacted = False
    else:  # the spectators' view of the log: draws into hidden hands are not shown
        view_log = state.view(None).get("log", [])
        log = [{"seq": r.seq, "seat": r.seat,
                "action": view_log[r.seq][1] if r.seq < len(view_log) else "(hidden)",
                "chance": r.is_chance} for r in shown]
        redacted = True
    return {
        "id": game.id, "game_type": game.game_type, "options": game.options,
        "status": game.status, "step": game.step, "public": game.public,
        "created_at": _iso(game.created_at), "updated_at": _iso(game.updated_at),
        "finished_at": _iso(game.finished_at), "deadline_at": _iso(game.deadline_at),
        "seed_hash": game.seed_hash,
        "seed": game.seed if game.status == "finished" or reveal else None,
        "result": game.result, "seats": seats, "decision": decision,
        "pending_orders": [{"id": o.id, "step": o.step, "seat": o.seat,
                            "actions": list(o.actions) if reveal else None,
                            "sealed": not reveal, "updated_at": _iso(o.updated_at)}
                           for o in pending],
        "log_total": total, "log": log, "log_redacted": redacted,
        "outbox": [_outbox_dict(row, now) for row in outbox_rows(session, game_id)],
    }


# --- replay ---------------------------------------------------------------------------------
@dataclass
class ReplayCheck:
    game_id: int
    ok: bool
    skipped: str | None = None  # why nothing was compared (a game not started)
    differences: list[str] = field(default_factory=list)  # first differing key paths
    error: str | None = None  # the log itself does not replay


def differences(a: Any, b: Any, path: str = "", limit: int = 10) -> list[str]:
    """The first differing key paths of two JSON values (at most ``limit``)."""
    out: list[str] = []

    def walk(x, y, where):
        if len(out) >= limit:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for key in sorted(set(x) | set(y), key=str):
                here = f"{where}.{key}" if where else str(key)
                if key not in x or key not in y:
                    out.append(here + (" (only in the replay)" if key in x
                                       else " (only in the cache)"))
                    if len(out) >= limit:
                        return
                else:
                    walk(x[key], y[key], here)
        elif isinstance(x, list) and isinstance(y, list):
            for i, (p, q) in enumerate(zip(x, y)):
                walk(p, q, f"{where}[{i}]")
                if len(out) >= limit:
                    return
            if len(x) != len(y):
                out.append(f"{where or '(top)'} (length {len(x)} in the replay, "
                           f"{len(y)} in the cache)")
        elif x != y or type(x) is not type(y):
            out.append(where or "(top)")

    walk(a, b, path)
    return out[:limit]


def replay_check(session: Session, game_id: int) -> ReplayCheck:
    """Replay the stored log from the seed and compare it with the cached state."""
    game = get_game(session, game_id)
    if game.state is None:
        return ReplayCheck(game_id, ok=True, skipped="not started: no state to compare")
    log = game_history.log_in_play(session, game_id)
    try:
        replayed = engine.replay(game.game_type, game.seed, log, options=dict(game.options))
    except (ActionError, OptionsError) as exc:
        return ReplayCheck(game_id, ok=False, error=f"the log does not replay: {exc}")
    fresh = state_json(replayed)
    try:    # the cached state with its history (notes) from their rows
        stored = state_json(whole_state(session, game))
    except ValueError as exc:
        return ReplayCheck(game_id, ok=False, error=f"the stored history does not fit: {exc}")
    if fresh == stored:
        return ReplayCheck(game_id, ok=True)
    return ReplayCheck(game_id, ok=False, differences=differences(fresh, stored))


def all_game_ids(session: Session) -> list[int]:
    return list(session.exec(select(Game.id).order_by(Game.id)).all())


# --- stuck-steps ----------------------------------------------------------------------------
def stuck(session: Session, step_seconds: float, decision_seconds: float,
          now: datetime | None = None) -> dict[str, list[dict]]:
    """What is stuck, in three lists:

    - ``steps``: active games whose current simultaneous step has a sealed order from every
      active seat, but has not resolved with no commit for ``step_seconds``;
    - ``outbox``: rows not consumed by their task ``step_seconds`` after they were written;
    - ``decisions``: active games with no activity for ``decision_seconds`` (a player who does
      not answer), other than the steps above.
    """
    now = now or utcnow()
    step_cutoff = now - timedelta(seconds=step_seconds)
    steps = []
    # The same definition the periodic sweep uses to publish a lost resolution again.
    for game_id, step in outbox.unresolved_steps(session, step_seconds):
        orders = session.exec(select(Order).where(
            Order.game_id == game_id, Order.step == step, Order.status == "pending")).all()
        last = max((aware(o.updated_at) for o in orders), default=None)
        steps.append({"game_id": game_id, "step": step,
                      "seats": sorted(o.seat for o in orders), "committed_at": _iso(last),
                      "age_seconds": round(age_seconds(last, now), 1) if last else None})
    rows = session.exec(select(OutboxMessage).where(OutboxMessage.delivered_at.is_(None),
                                                    OutboxMessage.created_at < step_cutoff)
                        .order_by(OutboxMessage.id)).all()
    stuck_outbox = [_outbox_dict(row, now) for row in rows]
    stuck_steps = {s["game_id"] for s in steps}
    decision_cutoff = now - timedelta(seconds=decision_seconds)
    decisions = []
    for game in session.exec(select(Game).where(Game.status == "active",
                                                Game.updated_at < decision_cutoff)
                             .order_by(Game.id)).all():
        if game.id in stuck_steps:
            continue
        state = engine.from_dict(game.state) if game.state else None
        active = state.active() if state else []
        committed = set(session.exec(select(Order.seat).where(
            Order.game_id == game.id, Order.step == game.step,
            Order.status == "pending")).all())
        decisions.append({"game_id": game.id, "step": game.step,
                          "waiting_for": [s for s in active if s not in committed],
                          "since": _iso(game.updated_at),
                          "age_seconds": round(age_seconds(game.updated_at, now), 1)})
    return {"steps": steps, "outbox": stuck_outbox, "decisions": decisions}


# --- republish-outbox -----------------------------------------------------------------------
class UnknownOutboxRows(LookupError):
    pass


def republish(db_engine: Engine, ids: list[int] | None = None) -> dict[str, int]:
    """Send rows now: the given ones (consumed or not), or else every row not consumed yet.

    Returns {"sent", "failed"}: rows sent, and rows whose send failed (broker down; they keep
    ``last_error`` and the relay sends them at its next run). Tasks are idempotent, so sending
    a row twice does no harm.
    """
    if ids:
        with Session(db_engine) as session:
            db.reading(session)
            rows = session.exec(select(OutboxMessage).where(OutboxMessage.id.in_(ids))
                                .order_by(OutboxMessage.id)).all()
            missing = sorted(set(ids) - {row.id for row in rows})
            if missing:
                raise UnknownOutboxRows(missing)
            written = [outbox.Written.of(r) for r in rows]
        sent = outbox.send(db_engine, written)
        outbox.mark_sent(db_engine, [r.id for r in written[:sent]])
        return {"sent": sent, "failed": len(written) - sent}
    sent = outbox.publish_pending(db_engine, redeliver_after=0, limit=10 ** 9)
    with Session(db_engine) as session:
        failed = session.exec(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.delivered_at.is_(None), OutboxMessage.last_error.is_not(None))).one()
    return {"sent": sent, "failed": failed}
