"""The order service against a real SQLite database: sequential orders, sealed simultaneous
orders resolved exactly once, forced choices never asked, the log rebuilding the cache."""

from __future__ import annotations

import random

import pytest
from engine.core import IllegalAction, MalformedAction, from_dict
from sqlmodel import func, select

from server.models import Game, LogEntry, Order, OutboxMessage
from server.services import games as svc
from server.services.games import StaleStep

SEATS = {"kennedy": None, "nixon": None}


def _new(session, seed="seed-1"):
    return svc.create_game(session, "tmotp", {}, SEATS, seed=seed).id


def _state(session, gid):
    session.expire_all()
    return from_dict(session.get(Game, gid).state)


def _count(session, model, gid=None):
    q = select(func.count()).select_from(model)
    if gid is not None and hasattr(model, "game_id"):
        q = q.where(model.game_id == gid)
    return session.exec(q).one()


def _snapshot(session, gid):
    session.expire_all()
    g = session.get(Game, gid)
    return (g.step, g.status, g.state, _count(session, LogEntry, gid),
            _count(session, Order, gid), _count(session, OutboxMessage))


def _check_nothing_forced_is_asked(session, gid, actor=None):
    """Nobody is asked a forced choice; every real choice is notified, except to the seat that
    has just acted and goes on (its answer carries the next decision)."""
    session.expire_all()
    game = session.get(Game, gid)
    state = from_dict(game.state)
    active = state.active()
    assert active != ["chance"]
    if len(active) == 1:
        assert len(state.legal_actions(active[0])) >= 2
    asked = session.exec(select(OutboxMessage).where(OutboxMessage.kind == "your_decision")).all()
    asked = {m.payload["seat"] for m in asked
             if m.payload["game_id"] == gid and m.payload["step"] == game.step}
    for seat in active:
        told = len(state.legal_actions(seat)) >= 2 and (seat != actor or len(active) > 1)
        assert (seat in asked) == told


def _play_one(session, gid, rng):
    """Take one decision with random legal actions; return the game's step afterwards."""
    game = session.get(Game, gid)
    state = from_dict(game.state)
    active = state.active()
    actor = None
    if len(active) == 1:
        seat = actor = active[0]
        svc.submit_order(session, gid, seat, game.step, [rng.choice(state.legal_actions(seat))],
                         by_player=False)
    else:
        sealed = {o.seat for o in session.exec(select(Order).where(
            Order.game_id == gid, Order.step == game.step)).all()}
        results = [svc.submit_order(session, gid, seat, game.step,
                                    [rng.choice(state.legal_actions(seat))])
                   for seat in active if seat not in sealed]
        assert results and results[-1].all_committed
        assert not any(r.all_committed for r in results[:-1])
        assert svc.resolve_step(session, gid, game.step)
    _check_nothing_forced_is_asked(session, gid, actor)


def _play_until(session, gid, rng, predicate, limit=2000):
    for _ in range(limit):
        state = _state(session, gid)
        if predicate(state):
            return state
        _play_one(session, gid, rng)
    raise AssertionError("never reached")


def test_full_game_through_the_service(session):
    gid = _new(session, seed="full-game")
    _check_nothing_forced_is_asked(session, gid)
    rng = random.Random(7)
    state = _play_until(session, gid, rng, lambda s: not s.active(), limit=5000)
    game = session.get(Game, gid)
    assert game.status == "finished"
    assert state.outcome().winner in ("kennedy", "nixon")
    assert svc.rebuild(session, gid)
    assert _count(session, LogEntry, gid) == svc.whole_state(session, game).log_length() \
        == from_dict(game.state).log_length()
    assert session.exec(select(OutboxMessage).where(OutboxMessage.kind == "game_over")).one()
    assert not session.exec(select(Order).where(Order.status == "pending")).all()


def test_stale_step_changes_nothing(session):
    gid = _new(session)
    state = _state(session, gid)
    seat = state.active()[0]
    svc.submit_order(session, gid, seat, 1, [state.legal_actions(seat)[0]])
    before = _snapshot(session, gid)
    with pytest.raises(StaleStep) as err:
        svc.submit_order(session, gid, seat, 1, [state.legal_actions(seat)[0]])
    assert err.value.step == before[0] == 2 and err.value.prompt
    assert _snapshot(session, gid) == before


@pytest.mark.parametrize("who, text, error", [
    ("active", "xyzzy 1", MalformedAction),
    ("other", None, IllegalAction),
    ("active", "strategy 99", IllegalAction),
])
def test_refused_first_action_changes_nothing(session, who, text, error):
    gid = _new(session)
    state = _state(session, gid)
    active = state.active()[0]
    seat = active if who == "active" else next(s for s in SEATS if s != active)
    text = text or state.legal_actions(active)[0]
    before = _snapshot(session, gid)
    with pytest.raises(error) as err:
        svc.submit_order(session, gid, seat, 1, [text, state.legal_actions(active)[0]])
    assert err.value.reason
    assert _snapshot(session, gid) == before


def _continues(session, gid, seat, first):
    """The second action a multi-action order may name after ``first``, or None."""
    probe = _state(session, gid)
    probe.apply(seat, first)
    svc._advance(probe)
    if probe.active() != [seat]:
        return None
    second = probe.legal_actions(seat)[0]
    probe.apply(seat, second)
    svc._advance(probe)
    return second if probe.active() == [seat] else None  # so the third action is the seat's


def test_multi_action_order_keeps_the_applied_prefix(session):
    gid = _new(session, seed="multi")
    rng = random.Random(3)
    for _ in range(3000):
        state = _state(session, gid)
        active = state.active()
        if len(active) == 1:
            seat, first = active[0], state.legal_actions(active[0])[0]
            second = _continues(session, gid, seat, first)
            if second:
                break
        _play_one(session, gid, rng)
    else:
        pytest.fail("no decision followed by the same seat's decision")
    step, log_before = session.get(Game, gid).step, _count(session, LogEntry, gid)
    result = svc.submit_order(session, gid, seat, step, [first, second, "xyzzy"])
    assert result.applied == [first, second]
    assert result.stopped_at == 2 and "xyzzy" in result.reason
    assert result.step == step + 1 == session.get(Game, gid).step
    rows = svc.log_of(session, gid)[log_before:]
    assert [[r.seat, r.action] for r in rows if r.seat == seat][:2] == [[seat, first], [seat, second]]
    assert svc.rebuild(session, gid)
    _check_nothing_forced_is_asked(session, gid, seat)


def _to_simultaneous(session, seed="simul"):
    gid = _new(session, seed=seed)
    state = _play_until(session, gid, random.Random(1),
                        lambda s: len(s.active()) > 1 and all(
                            len(s.legal_actions(x)) > 1 for x in s.active()))
    return gid, state


def test_resolve_step_twice_applies_once(session):
    gid, state = _to_simultaneous(session)
    step = session.get(Game, gid).step
    first = svc.submit_order(session, gid, "kennedy", step, [state.legal_actions("kennedy")[0]])
    assert first.sealed and not first.all_committed
    before = _snapshot(session, gid)
    assert not svc.resolve_step(session, gid, step)  # not everybody has committed
    assert _snapshot(session, gid) == before
    assert svc.submit_order(session, gid, "nixon", step,
                            [state.legal_actions("nixon")[0]]).all_committed
    assert svc.resolve_step(session, gid, step)
    after = _snapshot(session, gid)
    assert after[0] == step + 1
    assert not svc.resolve_step(session, gid, step)
    assert _snapshot(session, gid) == after
    orders = session.exec(select(Order).where(Order.game_id == gid, Order.step == step)).all()
    assert sorted(o.status for o in orders) == ["applied", "applied"]
    with pytest.raises(StaleStep):
        svc.submit_order(session, gid, "kennedy", step, [state.legal_actions("kennedy")[1]])
    assert svc.rebuild(session, gid)


def test_sealed_order_replaced_before_resolution_uses_the_latest(session):
    gid, state = _to_simultaneous(session, seed="replace")
    step = session.get(Game, gid).step
    k0, k1 = state.legal_actions("kennedy")[:2]
    log_len = _count(session, LogEntry, gid)
    svc.submit_order(session, gid, "kennedy", step, [k0])
    svc.submit_order(session, gid, "kennedy", step, [k1])
    assert _count(session, LogEntry, gid) == log_len  # sealed, not applied
    svc.submit_order(session, gid, "nixon", step, [state.legal_actions("nixon")[0]])
    assert svc.resolve_step(session, gid, step)
    new = [[r.seat, r.action] for r in svc.log_of(session, gid)[log_len:]]
    assert ["kennedy", k1] in new and ["kennedy", k0] not in new
    assert len(session.exec(select(Order).where(Order.game_id == gid, Order.step == step,
                                                Order.seat == "kennedy")).all()) == 1


def test_simultaneous_order_must_be_one_legal_action(session):
    gid, state = _to_simultaneous(session, seed="one")
    step = session.get(Game, gid).step
    before = _snapshot(session, gid)
    with pytest.raises(MalformedAction):
        svc.submit_order(session, gid, "kennedy", step, state.legal_actions("kennedy")[:2])
    with pytest.raises(IllegalAction):
        svc.submit_order(session, gid, "kennedy", step, ["strategy 99"])
    assert _snapshot(session, gid) == before


def test_view_for_hides_the_other_hand(session):
    gid = _new(session)
    state = _state(session, gid)
    for seat, other in (("kennedy", "nixon"), ("nixon", "kennedy")):
        view = svc.view_for(session, gid, seat)
        assert view["hands"] == {seat: state.s["hands"][seat]}
        assert "seed" not in view
        assert other not in view["hands"]
