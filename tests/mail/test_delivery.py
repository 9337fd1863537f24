"""Mails sent from outbox rows to a real SMTP server: who gets what, once; stale decisions not
asked; temporary failures retried, permanent ones recorded; two runs never send one mail twice;
and no mail shows a seat what its view does not."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import NamedTuple

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from server.mail import delivery, reply_address, smtp
from server.mail.recipients import MailSettings
from server.games.tmotp.summary import card_name
from server.models import Game, MailSent, OutboxMessage, Seat, User, utcnow
from server.services import games as svc
from server.services import links, users

SETTINGS = MailSettings(base_url="https://ws.example", domain="ws.example",
                        sender="games@ws.example", sender_name="Whistlestop",
                        secret="test-secret")


def transport(catcher) -> smtp.SmtpSettings:
    return smtp.SmtpSettings("127.0.0.1", catcher.port, timeout=5)


def unconsumed(engine) -> list[int]:
    with Session(engine) as s:
        return list(s.exec(select(OutboxMessage.id).where(
            OutboxMessage.delivered_at.is_(None), OutboxMessage.kind != "resolve_step")
            .order_by(OutboxMessage.id)).all())


def deliver_all(engine, catcher) -> None:
    for row_id in unconsumed(engine):
        delivery.deliver(engine, row_id, SETTINGS, transport(catcher))


class Player(NamedTuple):
    id: int
    email: str


def kinds_sent(engine, address: str) -> set[str]:
    with Session(engine) as s:
        return set(s.exec(select(MailSent.kind).where(MailSent.address == address,
                                                      MailSent.status == "sent")).all())


def new_game(session, seed="mail", locales=("en", "en")) -> tuple[int, Player, Player]:
    """A started game of two players; the session is left with no transaction open (SQLite
    would keep the sender waiting)."""
    jack = users.create_user(session, f"jack-{seed}@example.org", "Jack", locales[0])
    dick = users.create_user(session, f"dick-{seed}@example.org", "Dick", locales[1])
    game = svc.create_game(session, "tmotp", {}, {"kennedy": jack.id, "nixon": dick.id},
                           seed=seed, created_by=jack.id)
    found = game.id, Player(jack.id, jack.email), Player(dick.id, dick.email)
    session.commit()
    return found


def play_random_step(session, gid: int, rng: random.Random) -> None:
    """Every seat asked now gives a random legal order; a simultaneous step is resolved."""
    game = session.get(Game, gid)
    state, step = svc._load(game), game.step
    for seat in state.active():
        svc.submit_order(session, gid, seat, step, [rng.choice(state.legal_actions(seat))],
                         by_player=False)
    if len(state.active()) > 1:
        svc.resolve_step(session, gid, step)
    session.commit()
    session.expire_all()


def claimed_by_another_run(session, jack: Player) -> int:
    """The game_started row, its mail to Kennedy claimed ("sending") by a run still at it;
    the row's id."""
    row_id = session.exec(select(OutboxMessage.id).where(
        OutboxMessage.kind == "game_started")).one()
    session.add(MailSent(outbox_id=row_id, recipient="kennedy", address=jack.email,
                         message_id="<x>", kind="game_started", status="sending"))
    session.commit()
    return row_id


def test_a_new_game_mails_each_player_once(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    deliver_all(db_engine, smtp_catcher)
    mails = smtp_catcher.received()
    assert {m["To"] for m in mails} == {jack.email, dick.email}
    assert "game_started" in kinds_sent(db_engine, jack.email) & kinds_sent(db_engine, dick.email)
    assert len({m["Message-ID"] for m in mails}) == len(mails)
    assert not unconsumed(db_engine)
    # A second run of every row sends nothing more.
    with Session(db_engine) as s:
        ids = s.exec(select(OutboxMessage.id)).all()
    for row_id in ids:
        assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) in (
            "duplicate", None)
    assert len(smtp_catcher.received()) == len(mails)


def test_a_decision_mail_carries_the_thread_and_reply_address(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    deliver_all(db_engine, smtp_catcher)
    with Session(db_engine) as s:
        rows = {m.message_id: m.outbox_id for m in s.exec(select(MailSent).where(
            MailSent.kind == "your_decision")).all()}
    decisions = [m for m in smtp_catcher.received() if m["Message-ID"] in rows]
    assert decisions
    for mail in decisions:
        row_id = rows[mail["Message-ID"]]
        seat = "kennedy" if mail["To"] == jack.email else "nixon"
        user = jack if seat == "kennedy" else dick
        assert mail["Reply-To"] == reply_address.address(SETTINGS.secret, SETTINGS.domain, gid,
                                                          seat, user.id)
        assert mail["In-Reply-To"] == mail["References"]
        assert f"game.{gid}.{seat}." in mail["In-Reply-To"]
        assert mail["Auto-Submitted"] == "auto-generated"
        # The mail's own settings link (links rotate: each mail's names its outbox row).
        own = links.preferences_url(SETTINGS.secret, SETTINGS.base_url, user.id, row_id)
        assert mail["List-Unsubscribe"].strip() == f"<{own}>"
        assert own in mail.get_body(("plain",)).get_content()


def test_a_decision_answered_before_its_mail_is_not_asked(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    game = session.get(Game, gid)
    state = svc.whole_state(session, game)
    seat = state.active()[0]
    svc.submit_order(session, gid, seat, game.step, [state.legal_actions(seat)[0]])
    asked = [row for row in session.exec(select(OutboxMessage).where(
        OutboxMessage.kind == "your_decision")).all() if row.payload["seat"] == seat]
    first = min(asked, key=lambda r: r.id).id
    session.commit()
    assert delivery.deliver(db_engine, first, SETTINGS, transport(smtp_catcher)) == "sent"
    assert smtp_catcher.received() == []  # the step moved on: nothing to ask
    assert session.get(OutboxMessage, first).delivered_at is not None


def test_what_changed_is_told_once(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    deliver_all(db_engine, smtp_catcher)
    seat_rows = session.exec(select(Seat).where(Seat.game_id == gid)).all()
    assert any(seat.notes_mailed > 0 for seat in seat_rows)
    game = session.get(Game, gid)
    state = svc.whole_state(session, game)
    for seat in seat_rows:
        if seat.seat in state.active():
            assert seat.notes_mailed == len(state.view(seat.seat)["notes"])


def test_a_temporary_failure_is_retried_and_sent_once(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    row_id = unconsumed(db_engine)[0]
    smtp_catcher.answer = "451 4.3.0 mailbox busy, try later"
    with pytest.raises(smtp.TemporaryFailure):
        delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher))
    with Session(db_engine) as s:
        assert s.exec(select(MailSent)).all() == []  # the claim was released
        assert s.get(OutboxMessage, row_id).delivered_at is None
    smtp_catcher.stop()  # the server is gone altogether
    with pytest.raises(smtp.TemporaryFailure):
        delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher))
    smtp_catcher.answer = None
    smtp_catcher.start()
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "sent"
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "duplicate"
    sent = smtp_catcher.received()
    assert len(sent) == len({m["To"] for m in sent}) >= 1


def test_a_failure_halfway_keeps_the_mails_sent_and_frees_the_others(db_engine, session,
                                                                     smtp_catcher):
    """The game start mails both players: the first goes, the second meets a 4xx. The first is
    recorded sent (never sent again), the second's claim is given back; the retry sends only
    the second."""
    gid, jack, dick = new_game(session)
    row_id = session.exec(select(OutboxMessage.id).where(
        OutboxMessage.kind == "game_started")).one()
    session.commit()
    smtp_catcher.answer_to = {dick.email: "451 4.2.1 mailbox busy"}
    with pytest.raises(smtp.TemporaryFailure, match="451"):
        delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher))
    with Session(db_engine) as s:
        claims = {m.address: m.status for m in s.exec(select(MailSent).where(
            MailSent.outbox_id == row_id)).all()}
        assert claims == {jack.email: "sent"}
        assert s.get(OutboxMessage, row_id).delivered_at is None
    smtp_catcher.answer_to = {}
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "sent"
    assert [m["To"] for m in smtp_catcher.received()] == [jack.email, dick.email]
    with Session(db_engine) as s:
        assert s.get(OutboxMessage, row_id).delivered_at is not None


def test_an_open_connection_carries_many_rows_in_one_session(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    ids = unconsumed(db_engine)
    with smtp.Connection(transport(smtp_catcher)) as connection:
        for row_id in ids:
            assert delivery.deliver(db_engine, row_id, SETTINGS, connection) == "sent"
    assert len(ids) > 1 and len(smtp_catcher.received()) > 2
    assert len(smtp_catcher.sessions) == 1
    # Without one, each row opens its own session.
    new_game(session, seed="second")
    more = unconsumed(db_engine)
    deliver_all(db_engine, smtp_catcher)
    assert len(smtp_catcher.sessions) == 1 + len(more)


def test_a_session_the_server_dropped_is_opened_again_not_failed(smtp_catcher):
    """A kept session idle past ``check_after`` is asked NOOP first: the server restarted
    meanwhile (the session is gone), so the mail goes over a new one, with no failure. Idle
    past ``max_idle`` it is not even asked."""
    from tests.mail.test_smtp import _message

    for options in (dict(check_after=0.0), dict(max_idle=0.0)):
        connection = smtp.Connection(transport(smtp_catcher), **options)
        before = len(smtp_catcher.sessions)
        connection.send(_message())
        smtp_catcher.stop()
        smtp_catcher.start()
        connection.send(_message())
        connection.close()
        assert len(smtp_catcher.sessions) == before + 2
    assert len(smtp_catcher.received()) == 4
    # Used at once (not idle), a dropped session is a temporary failure: the task retries.
    connection = smtp.Connection(transport(smtp_catcher), check_after=60.0)
    connection.send(_message())
    smtp_catcher.stop()
    smtp_catcher.start()
    with pytest.raises(smtp.TemporaryFailure):
        connection.send(_message())
    connection.send(_message())  # the next send opens a new session
    connection.close()
    assert len(smtp_catcher.received()) == 6


def test_a_permanent_failure_is_recorded_not_retried(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    row_id = unconsumed(db_engine)[0]
    smtp_catcher.answer = "550 5.1.1 no such user"
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "sent"
    with Session(db_engine) as s:
        refused = s.exec(select(MailSent).where(MailSent.outbox_id == row_id)).all()
        assert refused and all(r.status == "refused" and "550" in r.error for r in refused)
        assert s.get(OutboxMessage, row_id).delivered_at is not None
    assert smtp_catcher.received() == []


def test_a_live_claim_keeps_a_second_run_off_and_a_stale_one_is_taken_over(
        db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    row_id = claimed_by_another_run(session, jack)
    with pytest.raises(delivery.Busy):
        delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher))
    # The run that held it died: after the lease the mail is sent by the next run.
    session.execute(update(MailSent).values(sent_at=utcnow() - timedelta(seconds=600)))
    session.commit()
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "sent"
    assert sorted(m["To"] for m in smtp_catcher.received()) == sorted([jack.email, dick.email])


def test_preferences_none_and_digest(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session)
    session.execute(update(User).where(User.id == jack.id).values(mail_mode="none"))
    session.execute(update(User).where(User.id == dick.id).values(mail_mode="digest"))
    session.commit()
    deliver_all(db_engine, smtp_catcher)
    mails = smtp_catcher.received()
    assert mails and all(m["To"] == dick.email for m in mails)
    # A digest reader gets the start of the game, not each decision (the digest lists them).
    assert kinds_sent(db_engine, dick.email) == {"game_started"}
    assert kinds_sent(db_engine, jack.email) == set()


@pytest.mark.parametrize("seed", range(6))
def test_no_mail_shows_a_seat_what_its_view_hides(db_engine, session, smtp_catcher, seed):
    """Random games played through the service, every mail delivered: a card the other seat
    holds that the recipient's view never shows is in none of the recipient's mails."""
    gid, jack, dick = new_game(session, seed=f"leak-{seed}")
    address = {"kennedy": jack.email, "nixon": dick.email}
    rng = random.Random(seed)
    checked = 0
    for _ in range(60):
        state = svc.whole_state(session, session.get(Game, gid))
        session.commit()
        if not state.active():
            break
        before = len(smtp_catcher.received())
        deliver_all(db_engine, smtp_catcher)
        for mail in smtp_catcher.received()[before:]:
            seat = "kennedy" if mail["To"] == address["kennedy"] else "nixon"
            other = "nixon" if seat == "kennedy" else "kennedy"
            shown = json.dumps(state.view(seat))
            body = mail.get_body(("plain",)).get_content() + mail.get_body(("html",)).get_content()
            for card in state.s["hands"][other]:
                if card not in state.s["hands"][seat] and str(card) not in shown:
                    assert card_name(card) not in body, (seat, card)
                    checked += 1
        play_random_step(session, gid, rng)
    assert checked > 0



def test_a_claim_released_between_insert_and_lookup_means_busy(db_engine, session,
                                                                smtp_catcher):
    """Another run's claim makes our insert fail, and is released (its SMTP server answered
    4xx) before we read it: we are told to retry (Busy), never crash. The release is made on
    another connection of the real database the moment our insert is rolled back."""
    from sqlalchemy import delete, event
    from sqlmodel import Session as DbSession

    gid, jack, dick = new_game(session)
    row_id = claimed_by_another_run(session, jack)

    def release(_session):
        with db_engine.connect() as other:
            other.execute(delete(MailSent).where(MailSent.outbox_id == row_id))
            other.commit()

    event.listen(DbSession, "after_rollback", release)
    try:
        with pytest.raises(delivery.Busy):
            delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher))
    finally:
        event.remove(DbSession, "after_rollback", release)
    # The retry sends both mails, once.
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(smtp_catcher)) == "sent"
    assert sorted(m["To"] for m in smtp_catcher.received()) == sorted([jack.email, dick.email])
