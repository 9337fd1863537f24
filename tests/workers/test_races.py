"""The order service under concurrent writers, on a SQLite file and on PostgreSQL (no broker):
racing orders for one decision are accepted once, and the losers get a clean StaleStep."""

from __future__ import annotations

import random
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor

from sqlmodel import Session, select

from engine.core import from_dict
from server import db
from server.models import Game, LogEntry, Order
from server.services import games as svc
from server.services.games import StaleStep
from tests.workers.conftest import players, state_of

THREADS = 8
ROUNDS = 15


def test_racing_sequential_orders_apply_once(worker_db_url):
    """THREADS sessions submit an order for the same sequential decision at once, ROUNDS times:
    exactly one is applied, every other gets StaleStep naming the next step (never an
    IntegrityError from the second insert of the same (game, step, seat) order row)."""
    engines = [db.make_engine(worker_db_url) for _ in range(THREADS)]
    main = db.make_engine(worker_db_url)
    rng = random.Random(5)
    try:
        with Session(main) as s:
            gid = svc.create_game(s, "tmotp", {}, players(s), seed="sequential-race").id
        with ThreadPoolExecutor(THREADS) as pool:
            for _ in range(ROUNDS):
                with Session(main) as s:
                    game, state = state_of(s, gid)
                    while len(state.active()) != 1 or len(
                            state.legal_actions(state.active()[0])) < 2:
                        seat = state.active()[0] if len(state.active()) == 1 else None
                        if seat is None:  # a simultaneous step: commit both, resolve
                            for x in state.active():
                                svc.submit_order(s, gid, x, game.step,
                                                 [rng.choice(state.legal_actions(x))],
                                                 by_player=False)
                            svc.resolve_step(s, gid, game.step)
                        else:
                            svc.submit_order(s, gid, seat, game.step,
                                             [state.legal_actions(seat)[0]], by_player=False)
                        game, state = state_of(s, gid)
                    step, log_len = game.step, from_dict(game.state).log_length()
                seat = state.active()[0]
                barrier = threading.Barrier(THREADS)

                def submit(i):
                    action = state.legal_actions(seat)[i % len(state.legal_actions(seat))]
                    barrier.wait(timeout=60)
                    try:
                        with Session(engines[i]) as session:
                            svc.submit_order(session, gid, seat, step, [action])
                    except StaleStep as exc:
                        return ("stale", exc.step)
                    except Exception:
                        return ("error", traceback.format_exc())
                    return ("ok", action)

                outcomes = list(pool.map(submit, range(THREADS)))
                errors = [o[1] for o in outcomes if o[0] == "error"]
                assert not errors, "\n".join(errors)
                ok = [o[1] for o in outcomes if o[0] == "ok"]
                assert len(ok) == 1, outcomes
                assert all(o == ("stale", step + 1) for o in outcomes if o[0] != "ok")
                with Session(main) as s:
                    assert s.get(Game, gid).step == step + 1
                    orders = s.exec(select(Order).where(Order.game_id == gid,
                                                        Order.step == step)).all()
                    assert [(o.seat, o.actions, o.status) for o in orders] == [
                        (seat, ok, "applied")]
                    first = s.exec(select(LogEntry).where(LogEntry.game_id == gid,
                                                          LogEntry.seq == log_len)).one()
                    assert [first.seat, first.action] == [seat, ok[0]]
        with Session(main) as s:
            assert svc.rebuild(s, gid)
    finally:
        for engine in [main, *engines]:
            engine.dispose()
