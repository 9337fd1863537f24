"""No forfeit or default without a reached channel (issue 25, item 5), with the clock controlled
and the real parts: a deadline that passes while nothing has reached the seat's player (no mail
taken by the SMTP server, no webhook answered 2xx, no page view, no order) waits, and the other
seat is told "not yet reached" once; once a mail taken by the real SMTP server, a webhook's 2xx
or a page view has reached the player, the deadline applies (after a grace when it waited).
(The page view's POST and the one-click rules: tests/web/test_unsubscribe_rules.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from server.mail import delivery, webhook_queue
from server.models import AutoOrder, Game, MailSent, OutboxMessage, Seat, User, Webhook, aware
from server.services import deadlines, games, reach
from tests.mail.test_delivery import SETTINGS, deliver_all, new_game, transport
from tests.mail.test_webhooks import POLICY, HookServer

HOUR = timedelta(hours=1)
OTHER = {"kennedy": "nixon", "nixon": "kennedy"}


@pytest.fixture
def hooks():
    server = HookServer()
    yield server
    server.close()


def fresh(engine, gid: int) -> Game:
    with Session(engine) as s:
        game = s.get(Game, gid)
        s.expunge(game)
        return game


def seat_row(engine, gid: int, seat: str) -> Seat:
    with Session(engine) as s:
        row = s.exec(select(Seat).where(Seat.game_id == gid, Seat.seat == seat)).one()
        s.expunge(row)
        return row


def asked(engine, gid: int) -> str:
    game = fresh(engine, gid)
    return games._load(game).active()[0]


def rows(engine, kind: str, gid: int) -> list[OutboxMessage]:
    with Session(engine) as s:
        return [r for r in s.exec(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                  .order_by(OutboxMessage.id)).all()
                if r.payload.get("game_id") == gid]


def auto_orders(engine, gid: int) -> list[AutoOrder]:
    with Session(engine) as s:
        return list(s.exec(select(AutoOrder).where(AutoOrder.game_id == gid)).all())


def set_user(engine, user_id: int, **values) -> None:
    with Session(engine) as s:
        s.execute(update(User).where(User.id == user_id).values(**values))
        s.commit()


def started(session, seed: str, on_deadline: str = "default") -> tuple[int, dict, str]:
    """A game of Jack (Kennedy) and Dick (Nixon) whose mails have not gone out yet: (its id,
    the players by seat, the seat asked)."""
    gid, jack, dick = new_game(session, seed=seed)
    session.execute(update(Game).where(Game.id == gid).values(on_deadline=on_deadline))
    session.commit()
    players = {"kennedy": jack, "nixon": dick}
    game = session.get(Game, gid)
    seat = games._load(game).active()[0]
    session.commit()
    return gid, players, seat


@pytest.mark.parametrize("on_deadline", ["default", "forfeit"])
def test_a_deadline_nothing_reached_waits_and_the_opponent_is_told_once(
        db_engine, session, smtp_catcher, on_deadline):
    gid, players, seat = started(session, f"unreached-{on_deadline}", on_deadline)
    game = fresh(db_engine, gid)
    deadline, step = aware(game.deadline_at), game.step
    assert not reach.reached(game, seat_row(db_engine, gid, seat))
    assert deadlines.ring(db_engine, gid, deadline) == "waiting"
    game = fresh(db_engine, gid)
    assert (game.status, game.step) == ("active", step)  # neither defaulted nor forfeited
    assert auto_orders(db_engine, gid) == [] and rows(db_engine, "deadline_passed", gid) == []
    assert aware(game.alarm_at) == deadline + reach.RECHECK
    told = rows(db_engine, "not_reached", gid)
    assert [(r.payload["seat"], r.payload["step"]) for r in told] == [(seat, step)]
    # The sweeper looks again: it still waits, and says nothing more.
    assert deadlines.ring(db_engine, gid, deadline + HOUR) == "waiting"
    assert deadlines.ring(db_engine, gid, deadline + 30 * HOUR) == "waiting"
    assert len(rows(db_engine, "not_reached", gid)) == 1
    assert fresh(db_engine, gid).step == step and auto_orders(db_engine, gid) == []
    # The opponent's mail says so; the seat waited for gets none of it.
    before = len(smtp_catcher.received())
    assert delivery.deliver(db_engine, told[0].id, SETTINGS, transport(smtp_catcher)) == "sent"
    (mail,) = smtp_catcher.received()[before:]
    assert mail["To"] == players[OTHER[seat]].email
    body = mail.get_body(("plain",)).get_content()
    assert "Not yet reached" in body and "the deadline" in body and "waits" in body
    # A mail to the opponent reaches the opponent, not the seat waited for.
    assert not reach.reached(fresh(db_engine, gid), seat_row(db_engine, gid, seat))


def test_a_mail_taken_by_the_smtp_server_reaches_the_player_and_the_deadline_applies(
        db_engine, session, smtp_catcher):
    gid, players, seat = started(session, "reached-by-mail")
    game = fresh(db_engine, gid)
    deadline, step = aware(game.deadline_at), game.step
    deliver_all(db_engine, smtp_catcher)  # the decision mail, taken by the SMTP server
    row = seat_row(db_engine, gid, seat)
    assert (row.reached_step, row.reached_by) == (step, "mail")
    assert reach.reached(fresh(db_engine, gid), row)
    # Reached before the deadline: it applies as it was set, no grace, no word to the other.
    assert deadlines.ring(db_engine, gid, deadline) == "defaulted"
    assert [(a.seat, a.source) for a in auto_orders(db_engine, gid)] == [(seat, "default")]
    assert rows(db_engine, "not_reached", gid) == []


def test_a_mail_the_smtp_server_refused_reaches_nobody(db_engine, session, smtp_catcher):
    gid, players, seat = started(session, "refused-mail")
    smtp_catcher.answer_to[players[seat].email] = "550 5.1.1 no such mailbox"
    deliver_all(db_engine, smtp_catcher)
    with Session(db_engine) as s:
        assert s.exec(select(MailSent.status).where(
            MailSent.address == players[seat].email, MailSent.kind == "your_decision")
        ).one() == "refused"
    assert not reach.reached(fresh(db_engine, gid), seat_row(db_engine, gid, seat))
    assert deadlines.ring(db_engine, gid, aware(fresh(db_engine, gid).deadline_at)) == "waiting"


def test_a_webhook_answered_2xx_reaches_the_player_a_failed_one_does_not(
        db_engine, session, smtp_catcher, hooks):
    gid, players, seat = started(session, "reached-by-webhook")
    player = players[seat]
    set_user(db_engine, player.id, mail_mode="none")  # no mail: the webhook only
    with Session(db_engine) as s:
        hook = Webhook(user_id=player.id, url=f"{hooks.url}/hook", flavor="discord")
        s.add(hook)
        s.commit()
    game = fresh(db_engine, gid)
    deadline, step = aware(game.deadline_at), game.step
    (decision,) = [r for r in rows(db_engine, "your_decision", gid)
                   if r.payload["seat"] == seat]
    hooks.answers = [404]  # refused for good: reaches nobody
    delivery.deliver(db_engine, decision.id, SETTINGS, transport(smtp_catcher))
    (sent_id,) = webhook_queue.queued(db_engine, decision.id)
    assert webhook_queue.attempt(db_engine, sent_id, POLICY) == "failed"
    assert smtp_catcher.to(player.email) == []
    assert not reach.reached(fresh(db_engine, gid), seat_row(db_engine, gid, seat))
    assert deadlines.ring(db_engine, gid, deadline) == "waiting"
    # A reminder's post, answered 204, reaches the player.
    with Session(db_engine) as s:
        s.add(OutboxMessage(kind="reminder", payload={"game_id": gid, "seat": seat,
                                                      "step": step, "number": 1, "of": 1}))
        s.commit()
    (reminder,) = rows(db_engine, "reminder", gid)
    delivery.deliver(db_engine, reminder.id, SETTINGS, transport(smtp_catcher))
    (sent_id,) = webhook_queue.queued(db_engine, reminder.id)
    assert webhook_queue.attempt(db_engine, sent_id, POLICY) == "sent"
    row = seat_row(db_engine, gid, seat)
    assert (row.reached_step, row.reached_by) == (step, "webhook")
    assert smtp_catcher.to(player.email) == []  # still no mail
    # It waited: the player has reach.grace from the reach (the real clock's, long before
    # this test's deadline), so the deadline applies at the sweeper's next look.
    assert deadlines.ring(db_engine, gid, deadline + HOUR) == "defaulted"
    assert [(a.seat, a.source) for a in auto_orders(db_engine, gid)] == [(seat, "default")]


def test_after_a_wait_the_deadline_is_a_grace_after_the_first_reach(db_engine, session):
    gid, players, seat = started(session, "grace", on_deadline="forfeit")
    game = fresh(db_engine, gid)
    deadline, step = aware(game.deadline_at), game.step
    assert deadlines.ring(db_engine, gid, deadline) == "waiting"
    seen_at = deadline + HOUR / 2  # the player opens the game page (its POST)
    with Session(db_engine) as s:
        assert reach.record(s.connection(), gid, seat, step, "page", seen_at)
        assert not reach.record(s.connection(), gid, seat, step, "mail", seen_at + HOUR)
        s.commit()
    row = seat_row(db_engine, gid, seat)
    assert (row.reached_by, aware(row.reached_at)) == ("page", seen_at)  # the first reach
    # The reach brings the sweeper's look to its moment (the deadline had passed).
    assert aware(fresh(db_engine, gid).alarm_at) == seen_at
    grace = reach.grace(fresh(db_engine, gid))
    assert grace == timedelta(hours=24)
    assert deadlines.ring(db_engine, gid, seen_at) == "extended"
    game = fresh(db_engine, gid)
    assert aware(game.deadline_at) == seen_at + grace and game.status == "active"
    assert deadlines.ring(db_engine, gid, seen_at + grace - HOUR) == "none"
    assert deadlines.ring(db_engine, gid, seen_at + grace) == "forfeited"
    game = fresh(db_engine, gid)
    assert game.status == "finished" and game.result["forfeited"] == seat


def test_an_order_reaches_its_player_for_the_next_decision_a_default_does_not(
        db_engine, session):
    gid, players, seat = started(session, "reached-by-order")
    game = fresh(db_engine, gid)
    state = games._load(game)
    with Session(db_engine) as s:
        result = games.submit_order(s, gid, seat, game.step, [state.legal_actions(seat)[0]])
    row = seat_row(db_engine, gid, seat)
    assert (row.reached_step, row.reached_by) == (result.step, "order")
    # The sweeper's default is not the player's order: it reaches nobody.
    now_asked, game = asked(db_engine, gid), fresh(db_engine, gid)
    with Session(db_engine) as s:
        s.execute(update(Seat).where(Seat.game_id == gid, Seat.seat == now_asked)
                  .values(reached_step=game.step, reached_by="mail"))  # so the deadline applies
        s.commit()
    assert deadlines.ring(db_engine, gid, aware(game.deadline_at)) == "defaulted"
    assert fresh(db_engine, gid).step > game.step
    after = seat_row(db_engine, gid, now_asked)
    assert (after.reached_step, after.reached_by) == (game.step, "mail")


def test_an_order_that_hands_the_decision_over_records_no_reach(db_engine, session):
    """A reach is written only where it can be read: at a step its seat decides."""
    gid, players, seat = started(session, "handed-over")
    for _ in range(200):
        game = fresh(db_engine, gid)
        mover = asked(db_engine, gid)
        before = seat_row(db_engine, gid, mover)
        state = games._load(game)
        with Session(db_engine) as s:
            result = games.submit_order(s, gid, mover, game.step,
                                        [state.legal_actions(mover)[0]])
        after = seat_row(db_engine, gid, mover)
        if mover not in result.state.active():
            assert (after.reached_step, after.reached_by) == (before.reached_step,
                                                              before.reached_by)
            assert not reach.reached(fresh(db_engine, gid), after)
            return
        assert (after.reached_step, after.reached_by) == (result.step, "order")
    pytest.fail("no order handed the decision to the other seat in 200 orders")


def test_bots_and_empty_seats_are_always_reached(db_engine, session):
    gid, players, seat = started(session, "bots")
    game = fresh(db_engine, gid)
    row = seat_row(db_engine, gid, seat)
    assert not reach.reached(game, row)
    game.bots = {seat: "random"}
    assert reach.reached(game, row)
    game.bots = {}
    row.user_id = None
    assert reach.reached(game, row)
