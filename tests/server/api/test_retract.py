"""Taking a move back until the next seat has seen it, through the API (issue 27, item 3):
within the hold, refused after it, refused once the next seat viewed the page, refused for a
sealed order and for a move that drew; the rebuild from the log equals the cached state after
a retraction; and the other seat never learns the move (views, log, mails)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from engine.core import from_dict, may_retract
from sqlalchemy import update
from sqlmodel import select

from server.models import LogEntry, OutboxMessage, Retractable, User
from server.services import games as svc
from tests.server.api.helpers import is_problem, other, real_simultaneous


def _retractable_action(state, seat):
    """An action of ``seat`` that the order service would hold (engine's view), or None."""
    for action in state.legal_actions(seat):
        probe = from_dict(state.to_dict())
        before = len(probe.s["log"])
        probe.apply(seat, action)
        svc._advance(probe)
        if may_retract(probe, seat, probe.s["log"][before:]):
            return action
    return None


def at_retractable(store, gid):
    """Play random decisions until a seat has a retractable action; (state, seat, action)."""
    found = {}

    def ready(state):
        active = state.active()
        if len(active) != 1:
            return False
        action = _retractable_action(state, active[0])
        if action is not None:
            found["at"] = (state, active[0], action)
        return action is not None

    store.advance_until(gid, ready, seed=3)
    return found["at"]


def held_rows(store, gid):
    with store.session() as s:
        return [r for r in s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
                if r.payload.get("game_id") == gid and r.not_before is not None]


@pytest.fixture
def gid(client, store, players):
    return client.two_player_game(store, players["kennedy"], players["nixon"], seed="retract")


@pytest.fixture
def moved(client, store, players, gid):
    """A retractable move made through the API: (state before, seat, action, its answer)."""
    state, seat, action = at_retractable(store, gid)
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200, r.get_json()
    return state, seat, action, r.get_json()


def test_a_move_taken_back_within_the_hold(client, store, players, gid, moved, mail_server):
    before, seat, action, answer = moved
    assert answer["retract_until"] is not None
    held = held_rows(store, gid)
    assert [r.payload["seat"] for r in held] == [other(seat)]
    assert all(r.published_at is None and r.delivered_at is None for r in held)
    mails_before = len(mail_server.messages)
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["retracted"] is True and body["step"] == answer["step"] + 1
    assert body["decision"]["active"] is True and action in body["decision"]["legal_actions"]
    game = store.game(gid)
    assert game.step == body["step"]
    assert store.state(gid).to_dict() == before.to_dict()  # the position before the move
    assert held_rows(store, gid) == []  # the held mail withdrawn, never sent
    assert len(mail_server.messages) == mails_before
    assert store.rebuild(gid)  # the log in play rebuilds the cache exactly
    with store.session() as s:
        marks = [e.retraction for e in s.exec(select(LogEntry).where(
            LogEntry.game_id == gid, LogEntry.retraction.is_not(None))).all()]
    assert marks.count("retraction") == 1 and marks.count("retracted") >= 1
    # Taken back once; the same again is refused, and the game plays on from the new step.
    again = client.post(f"/games/{gid}/retract", players[seat], json={"step": body["step"]})
    assert is_problem(again, 409)["code"] == "nothing"
    r = client.post(f"/games/{gid}/orders", players[seat],
                    json={"step": body["step"], "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"] is not None
    assert store.rebuild(gid)


def test_refused_after_the_hold(client, store, players, gid, moved):
    _, seat, _, answer = moved
    with store.session() as s:
        s.execute(update(Retractable).where(Retractable.game_id == gid)
                  .values(until=svc.utcnow() - timedelta(seconds=1)))
        s.commit()
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    body = is_problem(r, 409)
    assert body["code"] == "hold_over" and "time to take it back is over" in body["detail"]
    assert store.game(gid).step == answer["step"]


def test_refused_to_the_other_player_and_on_a_stale_step(client, store, players, gid, moved):
    _, seat, _, answer = moved
    r = client.post(f"/games/{gid}/retract", players[other(seat)],
                    json={"step": answer["step"]})
    assert is_problem(r, 409)["code"] == "nothing"
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"] - 1})
    assert is_problem(r, 409)["type"].endswith("stale-step")
    assert store.game(gid).step == answer["step"]


def test_refused_once_the_next_seat_has_seen_it(app, client, store, players, gid, moved):
    """The page's own view beacon (POST /games/<id>/seen, as services/reach.py records it)."""
    _, seat, _, answer = moved
    from server.services import reach
    with store.session() as s:
        reach.record(s.connection(), gid, other(seat), answer["step"], "page",
                     svc.utcnow())
        s.commit()
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    body = is_problem(r, 409)
    assert body["code"] == "seen" and "already seen" in body["detail"]


def test_with_no_hold_the_mail_goes_at_once_and_the_move_is_final(client, store, players,
                                                                   gid, mail_server):
    state, seat, action = at_retractable(store, gid)
    with store.session() as s:
        s.execute(update(User).where(User.id == players[seat].id)
                  .values(retract_hold_seconds=0))
        s.commit()
    r = client.tc.patch("/api/v1/me", headers=players[seat].auth,
                        json={"retract_hold_seconds": 0})
    assert r.status_code == 200 and r.get_json()["retract_hold_seconds"] == 0
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"] is None
    assert held_rows(store, gid) == []
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step + 1})
    assert is_problem(r, 409)["code"] == "no_hold"


def test_a_sealed_order_is_never_taken_back(client, store, players, gid):
    store.advance_until(gid, real_simultaneous)
    step = store.game(gid).step
    state = store.state(gid)
    for seat in state.active():
        r = client.post(f"/games/{gid}/orders", players[seat],
                        json={"step": step, "action": state.legal_actions(seat)[0]})
        assert r.status_code == 202
    game = store.game(gid)
    assert game.step > step
    for seat in ("kennedy", "nixon"):
        r = client.post(f"/games/{gid}/retract", players[seat], json={"step": game.step})
        assert is_problem(r, 409)["code"] in ("sealed", "nothing")


def test_a_move_that_drew_is_final(client, store, players, gid):
    """A move whose own segment has a chance entry: refused, saying a draw happened."""
    from engine.core import CHANCE

    def drawing(state):
        active = state.active()
        if len(active) != 1:
            return False
        seat = active[0]
        for action in state.legal_actions(seat):
            probe = from_dict(state.to_dict())
            before = len(probe.s["log"])
            probe.apply(seat, action)
            svc._advance(probe)
            if probe.active() and probe.active()[0] != seat and any(
                    e[0] == CHANCE for e in probe.s["log"][before:]) and all(
                    e[0] in (seat, CHANCE) for e in probe.s["log"][before:]):
                drawing.found = (seat, action)
                return True
        return False

    store.advance_until(gid, drawing, seed=5)
    seat, action = drawing.found
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"] is None
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step + 1})
    body = is_problem(r, 409)
    assert body["code"] == "chance" and "a draw happened" in body["detail"]


def _strip(body: dict) -> dict:
    """A game body without what changes with every step whatever happened (the step, the
    deadline, times)."""
    drop = {"step", "deadline_at", "updated_at", "current_step", "alarm_at", "version"}
    if isinstance(body, dict):
        return {k: _strip(v) for k, v in body.items() if k not in drop}
    if isinstance(body, list):
        return [_strip(v) for v in body]
    return body


def test_a_retracted_move_never_reaches_the_other_seat(client, store, players, gid):
    """Leak test: what the other seat sees after a move taken back (the view, the log, the
    game page's hidden part, its mails) is what it saw before the move; after the game ends,
    the complete log and the replay leave the move out."""
    from server.models import Game
    state, seat, action = at_retractable(store, gid)
    them = players[other(seat)]
    step = store.game(gid).step
    seen_before = (_strip(client.get(f"/games/{gid}", them).get_json()),
                   client.get(f"/games/{gid}/log", them).get_json()["entries"],
                   _strip(client.get(f"/games/{gid}/decision", them).get_json()))
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"]
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step + 1})
    assert r.status_code == 200
    seen_after = (_strip(client.get(f"/games/{gid}", them).get_json()),
                  client.get(f"/games/{gid}/log", them).get_json()["entries"],
                  _strip(client.get(f"/games/{gid}/decision", them).get_json()))
    assert seen_after == seen_before
    assert action not in str(seen_after[1][-3:]) or action in str(seen_before[1][-3:])
    # After the end (as if it ended now), the complete log and the replay's log skip it.
    with store.session() as s:
        s.execute(update(Game).where(Game.id == gid).values(status="finished"))
        s.commit()
        game = s.get(Game, gid)
        complete = svc.log_for(s, game, other(seat))
        assert len(complete) == len(state.s["log"])
        assert [[e["seat"], e["action"]] for e in complete] == [list(e) for e in state.s["log"]]
