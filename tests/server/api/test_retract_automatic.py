"""Take back as promised (issue 46, item 2): a move stays retractable while no person has seen
it. Kennedy plays a card for CP while Nixon holds momentum with the default standing order
("trigger only events that help me"): the trigger question is answered inside the move by the
server, nobody chose, so Kennedy may take the move back within the hold; the game is then
exactly as before (state, log in play, the standing order's record), and when Kennedy plays it
again Nixon's standing order answers again."""

from __future__ import annotations

from engine.core import from_dict, may_retract
from sqlmodel import select

from server.models import AutoOrder
from server.services import game_history, games as svc
from tests.server.api.helpers import API

RETRACTABLE = ("campaign", "travel", "done", "position", "media", "swap")


class _Policy:
    """Nixon's trigger standing order as the order service applies it (duck-typed
    services.standing.Standing), recording which entries it made."""

    def __init__(self):
        self.automatic: list[int] = []

    def answer(self, state, seat):
        if seat != "nixon" or state.standing_policy(seat) != "trigger":
            return None
        return state.standing_answer(seat, "helps_me")[0]

    def made(self, start, end):
        self.automatic.extend(range(start, end))


def _order_with_auto_answer(state):
    """Kennedy's order playing a card for CP, through Nixon's automatic trigger answer and
    Kennedy's Campaigning, to the hand-over: (actions, Nixon's answer), or None."""
    if state.active() != ["kennedy"]:
        return None
    for first in state.legal_actions("kennedy"):
        if not (first.startswith("play ") and first.endswith(" campaign")):
            continue
        probe, policy = from_dict(state.to_dict()), _Policy()
        before = probe.log_length()
        actions = [first]
        probe.apply("kennedy", first)
        for _ in range(40):
            svc._advance(probe, standing=policy)
            if probe.active() != ["kennedy"]:
                break
            nxt = next((a for a in probe.legal_actions("kennedy")
                        if a.split()[0] in RETRACTABLE), None)
            if nxt is None:
                break
            actions.append(nxt)
            probe.apply("kennedy", nxt)
        segment = probe.log_since(before)
        auto = [i - before for i in policy.automatic]
        nixon = [e for e in segment if e[0] == "nixon"]
        if (probe.active() == ["nixon"] and nixon == [["nixon", "pass"]]
                and not may_retract(probe, "kennedy", segment)
                and may_retract(probe, "kennedy", segment, auto)):
            return actions
    return None


def _auto_orders(store, gid):
    with store.session() as s:
        return [(a.seat, a.step, a.actions, a.rule) for a in s.exec(
            select(AutoOrder).where(AutoOrder.game_id == gid).order_by(AutoOrder.id)).all()]


def _outbox(store, gid):
    from server.models import OutboxMessage
    with store.session() as s:
        return [r for r in s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
                if r.payload.get("game_id") == gid]


def _log_in_play(store, gid):
    with store.session() as s:
        return game_history.log_in_play(s, gid)


def test_a_move_with_the_opponents_automatic_trigger_answer_is_taken_back(
        client, store, players):
    kennedy, nixon = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, kennedy, nixon, seed="retract-auto")
    r = client.tc.put(f"{API}/games/{gid}/standing-orders", headers=nixon.auth,
                      json={"trigger": "helps_me"})
    assert r.status_code == 200, r.get_json()
    found = {}

    def ready(state):
        found["actions"] = _order_with_auto_answer(state)
        return found["actions"] is not None

    before = store.advance_until(gid, ready, seed=7)
    actions = found["actions"]
    step = store.game(gid).step
    log_before, autos_before = _log_in_play(store, gid), _auto_orders(store, gid)
    rows_before = {r.id for r in _outbox(store, gid)}

    r = client.post(f"/games/{gid}/orders", kennedy, json={"step": step, "actions": actions})
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["retract_until"] is not None  # held: nobody chose Nixon's answer
    made = _auto_orders(store, gid)[len(autos_before):]
    assert made == [("nixon", step, ["pass"], "trigger:helps_me")]
    played = _log_in_play(store, gid)[len(log_before):]
    # Nobody was told: every mail or webhook of the move (Nixon's too) waits for the hold.
    made_rows = [r for r in _outbox(store, gid) if r.id not in rows_before]
    assert made_rows and all(r.not_before is not None and r.published_at is None
                             for r in made_rows)
    assert ["nixon", "pass"] in played

    r = client.post(f"/games/{gid}/retract", kennedy, json={"step": answer["step"]})
    assert r.status_code == 200, r.get_json()
    back = r.get_json()
    # Exactly as before: the state, the log in play, the standing order's record.
    assert store.state(gid).to_dict() == before.to_dict()
    assert _log_in_play(store, gid) == log_before
    assert _auto_orders(store, gid) == autos_before
    assert {r.id for r in _outbox(store, gid)} <= rows_before  # withdrawn, never sent
    assert store.rebuild(gid)

    # Played again: Nixon's standing order answers again, at the new step.
    r = client.post(f"/games/{gid}/orders", kennedy,
                    json={"step": back["step"], "actions": actions})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["retract_until"] is not None
    assert _auto_orders(store, gid)[len(autos_before):] == [
        ("nixon", back["step"], ["pass"], "trigger:helps_me")]
    assert _log_in_play(store, gid)[len(log_before):] == played
    assert store.rebuild(gid)


def test_the_refusal_names_the_real_reason_not_another_players_choice(client, store, players):
    """With no hold (the mover's settings say 0 seconds), the same move is final: the take
    back's refusal says so ("no_hold"), not "another player's choice was made during it",
    since nobody chose Nixon's answer."""
    from sqlalchemy import update

    from server.models import User
    from tests.server.api.helpers import is_problem
    kennedy, nixon = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, kennedy, nixon, seed="retract-auto")
    assert client.tc.put(f"{API}/games/{gid}/standing-orders", headers=nixon.auth,
                         json={"trigger": "helps_me"}).status_code == 200
    with store.session() as s:
        s.execute(update(User).where(User.email == kennedy.email)
                  .values(retract_hold_seconds=0))
        s.commit()
    found = {}

    def ready(state):
        found["actions"] = _order_with_auto_answer(state)
        return found["actions"] is not None

    store.advance_until(gid, ready, seed=7)
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", kennedy,
                    json={"step": step, "actions": found["actions"]})
    assert r.status_code == 200 and r.get_json()["retract_until"] is None
    body = is_problem(client.post(f"/games/{gid}/retract", kennedy, json={"step": step + 1}),
                      409)
    assert body["code"] == "no_hold" and "0 seconds" in body["detail"]
    assert "another player" not in body["detail"]
