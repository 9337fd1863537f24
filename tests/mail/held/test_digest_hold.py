"""A daily digest describes only final moves (issue 27): a move handed to the digest's reader
that its mover may still take back (held, unseen) is not listed. A digest written during the
hold waits for its end and then lists the game; a digest built during a hold that started
after it was written leaves the game out; a move taken back is never listed. Real SMTP, the
tasks run inline, beat's relay run by hand."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlmodel import select

from server.mail.recipients import MailSettings, envelopes
from server.models import Game, OutboxMessage, Retractable, User, aware
from server.services import digests
from server.services.games import utcnow
from tests.mail.held.test_retract_hold import relay
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable


def _digests(catcher, email: str) -> list[str]:
    """The bodies (text part) of the digests mailed to ``email``."""
    return [m.get_body(("plain",)).get_content() for m in catcher.to(email)
            if "these games wait for your decision" in m.get_body(("plain",)).get_content()]


def _reads_digests(store, user_id: int) -> None:
    with store.session() as s:
        s.execute(update(User).where(User.id == user_id).values(mail_mode="digest"))
        s.commit()


def _held_move(client, store, players, gid):
    """A retractable move made through the API; (the mover's seat, the step it led to)."""
    _state, seat, action = at_retractable(store, gid)
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"] is not None, r.get_json()
    return seat, r.get_json()["step"]


def _end_the_holds(store) -> None:
    """As if the holds were over: the moves final, the held rows due."""
    past = utcnow() - timedelta(seconds=1)
    with store.session() as s:
        s.execute(update(Retractable).values(until=past))
        s.execute(update(OutboxMessage).where(OutboxMessage.not_before.is_not(None))
                  .values(not_before=past))
        s.commit()


def _waiting_elsewhere(client, store, reader, mover) -> int:
    """A second game where ``reader`` is asked now (so a digest of theirs is sent at all)."""
    gid = client.two_player_game(store, reader, mover, seed="digest-elsewhere")
    store.advance_until(gid, lambda state: state.active() == ["kennedy"], seed=2)
    with store.session() as s:  # its last move final (it may have been held)
        s.execute(update(Retractable).where(Retractable.game_id == gid)
                  .values(until=utcnow() - timedelta(seconds=1)))
        s.commit()
    return gid


def _write_digests(app, store, now=None) -> int:
    with app.app_context():
        return digests.write_due(store.engine, now or utcnow(), hour=0)


def test_a_digest_written_during_a_hold_waits_for_it_and_then_lists_the_move(
        app, client, store, players, mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="dhold-1")
    seat, step = _held_move(client, store, players, gid)
    reader = players[other(seat)]
    _reads_digests(store, reader.id)
    with store.session() as s:
        until = aware(s.exec(select(Retractable)).one().until)
    assert _write_digests(app, store) == 1
    with store.session() as s:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "digest")).one()
        assert aware(row.not_before) == until  # waits for the hold's end
        # Built now, it would list nothing: the game waits on a move that may be taken back.
        assert envelopes(s, row, MailSettings.from_config(app.config)) == []
    assert relay(app, store) == 0
    assert _digests(mail_server, reader.email) == []
    _end_the_holds(store)
    relay(app, store)
    (body,) = _digests(mail_server, reader.email)
    # The decision the held move led to (issue 47: a mail names no step; its decision's words)
    assert f"Game #{gid} · you play" in body and "Your move:" in body


def test_a_digest_built_during_a_hold_leaves_the_held_move_out(app, client, store, players,
                                                                 mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="dhold-2")
    _state, seat, _action = at_retractable(store, gid)
    reader, mover = players[other(seat)], players[seat]
    elsewhere = _waiting_elsewhere(client, store, reader, mover)
    _reads_digests(store, reader.id)
    # The digest is written (not held: nothing was held then), and built once the move is made.
    with store.session() as s:
        s.add(OutboxMessage(kind="digest", payload={"user_id": reader.id, "day": "2026-11-22"},
                            not_before=utcnow() + timedelta(seconds=30)))
        s.commit()
    _held_move(client, store, players, gid)
    with store.session() as s:
        s.execute(update(OutboxMessage).where(OutboxMessage.kind == "digest")
                  .values(not_before=utcnow() - timedelta(seconds=1)))
        s.commit()
    relay(app, store)
    (body,) = _digests(mail_server, reader.email)
    assert f"Game #{elsewhere} · you play" in body
    assert f"Game #{gid} " not in body  # the held move is not told
    # Once the hold is over, the next digest lists it.
    _end_the_holds(store)
    assert _write_digests(app, store, utcnow() + timedelta(days=1)) == 1
    relay(app, store)
    bodies = _digests(mail_server, reader.email)
    assert len(bodies) == 2 and f"Game #{gid} · you play" in bodies[1]


def test_a_move_taken_back_is_never_in_a_digest(app, client, store, players, mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="dhold-3")
    _state, seat, _action = at_retractable(store, gid)
    reader, mover = players[other(seat)], players[seat]
    elsewhere = _waiting_elsewhere(client, store, reader, mover)
    _reads_digests(store, reader.id)
    seat, step = _held_move(client, store, players, gid)
    assert _write_digests(app, store) == 1  # written during the hold: it waits
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step})
    assert r.status_code == 200, r.get_json()
    _end_the_holds(store)
    relay(app, store)
    (body,) = _digests(mail_server, reader.email)
    assert f"Game #{elsewhere} · you play" in body and f"Game #{gid} " not in body
    with store.session() as s:
        assert s.get(Game, gid).step == step + 1  # the mover is asked again, not the reader
