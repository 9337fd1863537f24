"""A retractable move's hold on the next player's decision mail (issue 27, item 3), with a
real SMTP server and the tasks run inline: the mail waits in the outbox (``not_before``), the
relay leaves it until due and then sends it; a retraction within the hold withdraws it, so
the next player never gets it; with a hold of 0 it goes at once."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlmodel import select

from server.models import OutboxMessage, Retractable, User, Webhook, WebhookSent
from server.services import outbox
from server.services.games import utcnow
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable


def _decision_mails(catcher, email: str) -> int:
    return len([m for m in catcher.to(email) if "Your move" in (m["Subject"] or "")
                or "Your move" in m.get_body(("plain",)).get_content()])


def _held(store, gid):
    with store.session() as s:
        return [r for r in s.exec(select(OutboxMessage)).all()
                if r.payload.get("game_id") == gid and r.not_before is not None]


def _hook(store, user_id: int) -> None:
    """A webhook of the user's (its posts are queued by the mail's own notify task)."""
    with store.session() as s:
        s.add(Webhook(user_id=user_id, url="https://hooks.example.org/x"))
        s.commit()


def _webhook_posts(store) -> int:
    with store.session() as s:
        return len(s.exec(select(WebhookSent)).all())


def _move(client, store, players, gid):
    _state, seat, action = at_retractable(store, gid)
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200, r.get_json()
    return seat, r.get_json()


def relay(app, store) -> int:
    """One run of the relay (beat's publish_pending), its tasks run inline in the app."""
    with app.app_context():
        return outbox.publish_pending(store.engine)


def test_the_held_mail_goes_when_the_hold_is_over(app, client, store, players, mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="hold-1")
    _hook(store, players["kennedy"].id)
    _hook(store, players["nixon"].id)
    seat, answer = _move(client, store, players, gid)
    nxt = players[other(seat)]
    before = _decision_mails(mail_server, nxt.email)
    posts = _webhook_posts(store)
    assert answer["retract_until"] is not None and len(_held(store, gid)) == 1
    assert relay(app, store) == 0  # not due yet
    assert _decision_mails(mail_server, nxt.email) == before
    assert _held(store, gid)[0].published_at is None
    assert _webhook_posts(store) == posts  # the webhooks wait with the mail
    with store.session() as s:  # the hold is over (the mail waits exactly as long)
        s.execute(update(OutboxMessage).where(OutboxMessage.not_before.is_not(None))
                  .values(not_before=utcnow() - timedelta(seconds=1)))
        s.execute(update(Retractable).where(Retractable.game_id == gid)
                  .values(until=utcnow() - timedelta(seconds=1)))
        s.commit()
    assert relay(app, store) == 1  # due: the relay sends it at once
    mails = mail_server.wait_for_to(nxt.email, before + 1)
    assert len(mails) >= before + 1
    assert _webhook_posts(store) == posts + 1  # and go with it
    # Sent: the move is final now.
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    assert r.status_code == 409 and r.get_json()["code"] in ("hold_over", "seen")


def test_a_retraction_withdraws_the_held_mail(app, client, store, players, mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="hold-2")
    _hook(store, players["kennedy"].id)
    _hook(store, players["nixon"].id)
    seat, answer = _move(client, store, players, gid)
    nxt = players[other(seat)]
    before = len(mail_server.to(nxt.email))
    posts = _webhook_posts(store)
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    assert r.status_code == 200
    assert _held(store, gid) == []
    relay(app, store)  # nothing is left to send
    assert len(mail_server.to(nxt.email)) == before  # the next player got no mail
    assert _webhook_posts(store) == posts  # nor a webhook post


def test_with_a_hold_of_0_the_mail_goes_at_once(client, store, players, mail_server):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="hold-3")
    with store.session() as s:
        s.execute(update(User).values(retract_hold_seconds=0))
        s.commit()
    _state, seat, action = at_retractable(store, gid)
    nxt = players[other(seat)]
    before = len(mail_server.to(nxt.email))
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"] is None
    assert _held(store, gid) == []
    assert len(mail_server.wait_for_to(nxt.email, before + 1)) == before + 1


def test_the_relay_runs_often_enough_for_the_hold():
    """The held rows are sent by beat's relay: its period bounds a hold's precision."""
    from workers.celery_app import celery
    assert celery.conf.beat_schedule["relay-outbox"]["schedule"] <= 60
