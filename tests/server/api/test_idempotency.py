"""Idempotency-Key on orders: the same request again gets the stored answer with no second
effect, another request with the key is refused, and concurrent repeats wait for the first."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlmodel import select

from server.api.idempotency import KEY_PATTERN
from server.models import IdempotencyKey, LogEntry, Order, utcnow
from server.services.users import sha256_hex
from tests.server.api.conftest import make_app, running_app
from tests.server.api.helpers import API, Client, is_problem, other, sequential_choice


@pytest.fixture
def app(tmp_path, both_databases):
    """These tests run on SQLite and on PostgreSQL."""
    with running_app(tmp_path, both_databases) as app:
        yield app


@pytest.fixture
def position(client, store, players):
    """A game where one seat has a real choice: (game id, seat, step, order body)."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="idem")
    state = store.advance_until(gid, sequential_choice)
    seat = state.active()[0]
    step = store.game(gid).step
    return gid, seat, step, {"step": step, "action": state.legal_actions(seat)[-1]}


def _order(client, player, gid, body, key):
    return client.post(f"/games/{gid}/orders", player, json=body,
                       headers={"Idempotency-Key": key})


def _effects(store, gid):
    return store.count(LogEntry, gid), store.count(Order, gid), store.game(gid).step


def test_the_same_request_again_gets_the_stored_answer_and_no_second_effect(
        client, store, players, position):
    gid, seat, step, body = position
    first = _order(client, players[seat], gid, body, "key-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    after = _effects(store, gid)
    assert after[2] == step + 1
    again = _order(client, players[seat], gid, body, "key-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert _effects(store, gid) == after
    with store.session() as s:
        row = s.exec(select(IdempotencyKey)).one()
        assert row.status_code == 200 and row.response == first.get_json()
        assert row.user_id == players[seat].id
    # The same JSON spelled differently is the same request.
    spelled = client.post(f"/games/{gid}/orders", players[seat],
                          data='{ "action": %r, "step": %d }'.replace("%r", '"%s"')
                          % (body["action"], step),
                          headers={"Idempotency-Key": "key-1", "Content-Type": "application/json"})
    assert spelled.status_code == 200 and spelled.get_data() == first.get_data()


def test_the_same_key_for_another_request_is_refused(client, store, players, position):
    gid, seat, step, body = position
    assert _order(client, players[seat], gid, body, "key-2").status_code == 200
    after = _effects(store, gid)
    other = {"step": step + 1, "action": "pass"}
    problem = is_problem(_order(client, players[seat], gid, other, "key-2"), 422)
    assert problem["type"].endswith("/problems/idempotency-key-reused")
    assert "key-2" in problem["detail"]
    assert _effects(store, gid) == after


def test_keys_belong_to_their_user(client, store, players, position):
    gid, seat, step, body = position
    assert _order(client, players[seat], gid, body, "shared").status_code == 200
    # The same key and the very same request from the other player is theirs, not a replay:
    # it is judged on its own (its step is now stale).
    r = _order(client, players[other(seat)], gid, body, "shared")
    problem = is_problem(r, 409)
    assert problem["type"].endswith("/problems/stale-step") and problem["current_step"] == step + 1
    assert "Idempotent-Replayed" not in r.headers


def test_a_refused_order_gives_its_key_back(client, store, players, position):
    gid, seat, step, body = position
    is_problem(_order(client, players[seat], gid, {"step": step, "action": "xyzzy"}, "k"), 422)
    is_problem(_order(client, players[seat], gid, {"step": step - 1, "action": body["action"]},
                      "k"), 409)
    assert store.count(IdempotencyKey) == 0  # a refusal changes nothing, not even the keys
    assert _order(client, players[seat], gid, body, "k").status_code == 200


@pytest.mark.parametrize("key", ["", "has space", "x" * 201, "ключ"])
def test_a_bad_key_is_refused(client, players, position, key):
    gid, seat, _, body = position
    assert not KEY_PATTERN.match(key)
    problem = is_problem(client.post(f"/games/{gid}/orders", players[seat], json=body,
                                     headers={"Idempotency-Key": key.encode().decode("latin-1")}),
                         422)
    assert "Idempotency-Key" in problem["detail"]


def _hash(gid, body):
    import json

    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return sha256_hex(f"POST {API}/games/{gid}/orders\n{text}")


def test_a_key_still_being_processed_answers_409_retry(tmp_path, both_databases, store, players,
                                                       position):
    gid, seat, _, body = position
    with store.session() as s:  # another worker has claimed the key and is still at work
        s.add(IdempotencyKey(user_id=players[seat].id, key="busy", request_hash=_hash(gid, body)))
        s.commit()
    app = make_app(tmp_path, both_databases, IDEMPOTENCY_WAIT_SECONDS=0.3)
    before = _effects(store, gid)
    r = _order(Client(app.test_client()), players[seat], gid, body, "busy")
    problem = is_problem(r, 409)
    assert problem["type"].endswith("/problems/idempotency-key-in-progress")
    assert r.headers["Retry-After"] == "1"
    assert _effects(store, gid) == before
    app.extensions["whistlestop.db"].dispose()


def test_an_abandoned_claim_is_taken_over(tmp_path, both_databases, store, players,
                                         position):
    gid, seat, step, body = position
    with store.session() as s:  # claimed by a process that died before committing anything
        s.add(IdempotencyKey(user_id=players[seat].id, key="orphan",
                             request_hash=_hash(gid, body),
                             created_at=utcnow() - timedelta(minutes=10)))
        s.commit()
    app = make_app(tmp_path, both_databases, IDEMPOTENCY_ABANDONED_SECONDS=60)
    r = _order(Client(app.test_client()), players[seat], gid, body, "orphan")
    assert r.status_code == 200 and r.get_json()["step"] == step + 1
    with store.session() as s:
        assert s.exec(select(IdempotencyKey.status_code)).one() == 200
    app.extensions["whistlestop.db"].dispose()


def test_concurrent_repeats_make_one_effect_and_get_one_answer(app, store, players, position):
    gid, seat, step, body = position
    before = _effects(store, gid)
    answers, errors = [], []
    barrier = threading.Barrier(4)

    def send():
        try:
            client = Client(app.test_client())
            barrier.wait()
            r = _order(client, players[seat], gid, body, "race")
            answers.append((r.status_code, r.get_data()))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert len(answers) == 4
    assert {status for status, _ in answers} == {200}
    assert len({data for _, data in answers}) == 1
    logs, orders, new_step = _effects(store, gid)
    assert new_step == step + 1 and orders == before[1] + 1
    with store.session() as s:
        applied = s.exec(select(Order).where(Order.game_id == gid, Order.step == step)).all()
        assert len(applied) == 1
    assert store.rebuild(gid)
