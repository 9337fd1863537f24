"""Taking a move back by mail (issue 27): the answer to a move made by reply offers, while the
move may be taken back, to reply TAKE BACK (in the reader's language) until a time in the
reader's zone; such a reply within the hold, the next player not having seen the move, takes
it back through the page's service (the next player's held mail withdrawn, the mover asked
again); after the hold, or once seen, it is answered that the move is final. Real SMTP both
ways: the replies go to the `mail` process's inbound server, the answers to a catcher; the
tasks run inline."""

from __future__ import annotations

import smtplib
import socket
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import update
from sqlmodel import select

from server.games import presenter
from server.i18n import LOCALES, gettext
from server.mail import reply_address
from server.models import InboundMail, OutboxMessage, Retractable, User
from server.services import reach
from server.services.games import utcnow
from tests.mail.held.test_retract_hold import relay
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable, held_rows
from tests.workers.test_game_by_mail import reply_to
from workers import app_context
from workers.inbound_smtp import make_inbound


@pytest.fixture
def inbound(app, api_db_url, monkeypatch):
    """The `mail` process's inbound SMTP server on the test's database; the reply task it
    publishes runs inline in the test's app. Its port: another than the catcher's."""
    monkeypatch.setattr(app_context, "_flask_app", app)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    controller = make_inbound(api_db_url, "127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()


def _send(port: int, message: EmailMessage) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        assert smtp.send_message(message) == {}


def _text(mail) -> str:
    return mail.get_body(("plain",)).get_content()


# "<name>, your reply was read as:" in each language: the first line of every answer.
READ_AS = [gettext("%(name)s, your reply was read as:", locale).split("%(name)s")[-1]
           for locale in LOCALES]


def _answers(catcher, email: str) -> list:
    """The answers to the replies of ``email``, oldest first."""
    return [m for m in catcher.to(email) if any(words in _text(m) for words in READ_AS)]


def fresh_mail(app, player, gid: int, seat: str, text: str) -> EmailMessage:
    """A new mail (in no thread) From ``player`` to ``seat``'s reply address, ``text`` its
    body."""
    message = EmailMessage()
    message["From"] = player.email
    message["To"] = reply_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                                          gid, seat, player.id)
    message["Subject"] = "my move"
    message.set_content(f"{text}\n")
    return message


def _move_by_mail(app, store, players, gid, port, catcher):
    """The seat with a retractable move orders it by a fresh mail to its reply address; (seat,
    the action, the state before, the answer mail)."""
    state, seat, action = at_retractable(store, gid)
    mover = players[seat]
    before = len(_answers(catcher, mover.email))
    _send(port, fresh_mail(app, mover, gid, seat, action))
    answers = _answers(catcher, mover.email)
    assert len(answers) == before + 1, [_text(m) for m in answers]
    return seat, action, state, answers[-1]


def _outcome(store) -> dict:
    with store.session() as s:
        return s.exec(select(InboundMail).order_by(InboundMail.id.desc())).first().outcome


WORDS = [("en", "TAKE BACK", "Taken back: {action}.", "TAKE BACK"),
         ("es", "RETIRAR", "Jugada retirada: {action}.", "Retirar."),
         ("ja", "取り消し", "取り消しました: {action}。", "「取り消し」")]


@pytest.mark.parametrize("locale, word, done, written", WORDS, ids=[w[0] for w in WORDS])
def test_a_reply_take_back_within_the_hold_takes_the_move_back(
        app, client, store, players, mail_server, inbound, locale, word, done, written):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"],
                                 seed=f"by-mail-{locale}")
    with store.session() as s:
        s.execute(update(User).values(locale=locale))
        s.commit()
    seat, action, before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                  mail_server)
    mover, them = players[seat], players[other(seat)]
    step = store.game(gid).step
    text = _text(receipt)
    assert word in text and word in receipt.get_body(("html",)).get_content()
    assert len(held_rows(store, gid)) == 1  # the next player's mail waits
    them_before = len(mail_server.to(them.email))
    _send(inbound, reply_to(receipt, written, mover.email))
    answer = _answers(mail_server, mover.email)[-1]
    # the move taken back in words (issue 47), as the game names it
    assert done.format(action=presenter("tmotp").order_words(action, locale)) in _text(answer), \
        _text(answer)
    assert _outcome(store) == {"kind": "retract", "status": "retracted"}
    game = store.game(gid)
    assert game.step == step + 1 and store.state(gid).to_dict() == before.to_dict()
    assert seat in store.state(gid).active()  # asked again: the answer carries the decision
    assert f"/games/{gid}/decide/" in _text(answer)
    assert held_rows(store, gid) == []  # the next player's mail withdrawn, never sent
    relay(app, store)
    assert len(mail_server.to(them.email)) == them_before
    assert store.rebuild(gid)


def test_the_receipt_tells_until_when_in_the_readers_zone(app, client, store, players,
                                                         mail_server, inbound):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="by-mail-z")
    with store.session() as s:
        s.execute(update(User).values(time_zone="Asia/Tokyo"))
        s.commit()
    seat, _action, _before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                    mail_server)
    with store.session() as s:
        until = s.exec(select(Retractable)).one().until
    from server.i18n import times
    local = times.short(until, "en", "Asia/Tokyo")
    assert (f"You may take this move back until {local} (your time), as long as the next "
            "player has not seen it: reply to this mail with TAKE BACK.") in \
        " ".join(_text(receipt).split())


def test_after_the_hold_a_take_back_is_answered_that_the_move_is_final(
        app, client, store, players, mail_server, inbound):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="by-mail-2")
    seat, action, _before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                   mail_server)
    mover = players[seat]
    past = utcnow() - timedelta(seconds=1)
    with store.session() as s:
        s.execute(update(Retractable).values(until=past))
        s.execute(update(OutboxMessage).where(OutboxMessage.not_before.is_not(None))
                  .values(not_before=past))
        s.commit()
    relay(app, store)  # the next player's decision mail goes
    step = store.game(gid).step
    _send(inbound, reply_to(receipt, "take back", mover.email))
    answer = _text(_answers(mail_server, mover.email)[-1])
    assert "Nothing was changed: This move is final: the time to take it back is over." in \
        " ".join(answer.split()), answer
    assert _outcome(store)["code"] == "hold_over"
    assert store.game(gid).step == step and action in str(store.state(gid).s["log"][-3:])


def test_once_seen_a_take_back_is_answered_that_the_move_is_final(
        app, client, store, players, mail_server, inbound):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="by-mail-3")
    seat, _action, _before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                    mail_server)
    step = store.game(gid).step
    with store.session() as s:  # the next player's page told the server it was seen
        reach.record(s.connection(), gid, other(seat), step, "page", utcnow())
        s.commit()
    _send(inbound, reply_to(receipt, "TAKE BACK", players[seat].email))
    answer = " ".join(_text(_answers(mail_server, players[seat].email)[-1]).split())
    assert "Nothing was changed: This move is final: the next player has already seen it." \
        in answer
    assert store.game(gid).step == step and len(held_rows(store, gid)) == 1


def test_a_take_back_of_a_move_the_game_has_moved_past_is_refused(
        app, client, store, players, mail_server, inbound):
    """The receipt names its move: a TAKE BACK answering it once the game moved on is not
    read as taking back a later move."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="by-mail-4")
    seat, _action, _before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                    mail_server)
    them = players[other(seat)]
    step = store.game(gid).step
    with store.session() as s:  # the next player showed the move on the game page ...
        reach.record(s.connection(), gid, other(seat), step, "page", utcnow())
        s.commit()
    decision = client.get(f"/games/{gid}/decision", them).get_json()  # ... and answers it
    r = client.post(f"/games/{gid}/orders", them, json={"step": step,
                                                        "action": decision["legal_actions"][0]})
    assert r.status_code in (200, 202)
    now = store.game(gid).step
    _send(inbound, reply_to(receipt, "TAKE BACK", players[seat].email))
    answer = " ".join(_text(_answers(mail_server, players[seat].email)[-1]).split())
    assert "This move is final: the game has moved on." in answer
    assert store.game(gid).step == now


MUTED = "You have stopped the receipts of your orders by mail"


def test_with_receipts_muted_the_offer_to_take_back_still_comes_alone(
        app, client, store, players, mail_server, inbound):
    """A player who muted the receipts of orders by mail still gets, for a move that may be
    taken back, a short receipt: what was done and until when to reply TAKE BACK (an offer
    with a deadline, which nothing else tells a player playing by mail), not the game."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="muted")
    with store.session() as s:
        s.execute(update(User).values(muted_kinds=["order_received"]))
        s.commit()
    seat, action, before, receipt = _move_by_mail(app, store, players, gid, inbound,
                                                  mail_server)
    text = " ".join(_text(receipt).split())
    said = presenter("tmotp").order_words(action, "en")
    assert f"Done: {said}." in text and "reply to this mail with TAKE BACK" in text
    assert MUTED in text and MUTED in receipt.get_body(("html",)).get_content()
    assert "Your hand:" not in text and "States (leader" not in text  # the offer alone
    step = store.game(gid).step
    _send(inbound, reply_to(receipt, "TAKE BACK", players[seat].email))
    assert _outcome(store) == {"kind": "retract", "status": "retracted"}
    assert store.game(gid).step == step + 1 and store.state(gid).to_dict() == before.to_dict()


def test_with_receipts_muted_a_move_that_cannot_be_taken_back_gets_no_receipt(
        app, client, store, players, mail_server, inbound):
    """No hold (0 seconds): nothing to offer, so the muted receipt does not come."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="muted-0")
    with store.session() as s:
        s.execute(update(User).values(muted_kinds=["order_received"], retract_hold_seconds=0))
        s.commit()
    state, seat, action = at_retractable(store, gid)
    mover = players[seat]
    step = store.game(gid).step
    _send(inbound, fresh_mail(app, mover, gid, seat, action))
    assert _outcome(store) == {"kind": "order", "status": "applied"}
    assert store.game(gid).step > step
    assert _answers(mail_server, mover.email) == []
