"""A TAKE BACK that is not the mover's own (issue 27), each test written as the attack, over
real SMTP both ways: a reply to the mover's receipt From another address (a stranger, the next
player with a forwarded receipt), one in the mover's name that the receiving server found
forged (DMARC), the mover writing to the next seat's reply address (signed for another
player), and the next player's TAKE BACK to their own address. Each is refused and changes
nothing: the move stays, held and still the mover's to take back (their own TAKE BACK works
after it), no retraction is logged, the next player's mail still waits, and nobody but the
mover is told anything of the move."""

from __future__ import annotations

import re
import smtplib
from email import policy

import pytest
from sqlmodel import select

from server.mail import reply_address
from server.models import Game, LogEntry, Retractable
from server.services import retract
from tests.mail.held.test_take_back_by_mail import (  # noqa: F401  (inbound: fixture)
    _answers,
    _move_by_mail,
    _outcome,
    _send,
    _text,
    fresh_mail,
    inbound,
)
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable, held_rows
from tests.workers.test_game_by_mail import reply_to

NOTICE = "was not applied"  # the subject of the short notice to a seat's player
SETTINGS_LINK = re.compile(r"/me/mail/\S+")


def _held_move(app, client, store, players, inbound, catcher, seed: str,  # noqa: F811
               gid: int | None = None) -> dict:
    """A retractable move made by mail (in game ``gid``, else a new game) and held: what the
    tests compare with afterwards."""
    if gid is None:
        gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed=seed)
    seat, action, _before, receipt = _move_by_mail(app, store, players, gid, inbound, catcher)
    return {"gid": gid, "seat": seat, "action": action, "receipt": receipt,
            "mover": players[seat], "them": players[other(seat)],
            "step": store.game(gid).step, "state": store.state(gid).to_dict(),
            "mails": {p.email: len(catcher.to(p.email)) for p in players.values()}}


def _unchanged(store, move: dict) -> None:
    """The move stays as it was made: held, not taken back, the next player's mail waiting."""
    gid = move["gid"]
    assert store.game(gid).step == move["step"]
    assert store.state(gid).to_dict() == move["state"]
    with store.session() as s:
        assert s.exec(select(LogEntry).where(LogEntry.game_id == gid,
                                             LogEntry.retraction.is_not(None))).all() == []
        assert s.exec(select(Retractable.retracted_at)
                      .where(Retractable.game_id == gid)).one() is None
        assert retract.open_hold(s, s.get(Game, gid)) is not None  # still the mover's to take
    assert len(held_rows(store, gid)) == 1


def _mover_takes_it_back(store, inbound, catcher, move: dict) -> None:  # noqa: F811
    """The mover's own TAKE BACK, answering the receipt, still takes the move back."""
    _send(inbound, reply_to(move["receipt"], "TAKE BACK", move["mover"].email))
    assert _outcome(store) == {"kind": "retract", "status": "retracted"}
    assert store.game(move["gid"]).step == move["step"] + 1
    assert held_rows(store, move["gid"]) == []


def _notices(catcher, email: str) -> list:
    return [m for m in catcher.to(email) if NOTICE in (m["Subject"] or "")]


@pytest.mark.parametrize("sender", ["mallory@example.net", "them"])
def test_a_take_back_from_another_address_changes_nothing(
        app, client, store, players, mail_server, inbound, sender):  # noqa: F811
    """A stranger, or the next player holding a forwarded receipt, replies TAKE BACK to it."""
    move = _held_move(app, client, store, players, inbound, mail_server, f"forged-{sender}")
    sender = move["them"].email if sender == "them" else sender
    _send(inbound, reply_to(move["receipt"], "TAKE BACK", sender))
    outcome = _outcome(store)
    assert outcome["kind"] == "foreign" and outcome["seat"] == move["seat"], outcome
    _unchanged(store, move)
    # No answer to the sender (no backscatter, nothing of the move); the mover is told.
    assert len(mail_server.to(sender)) == move["mails"].get(sender, 0)
    assert len(_notices(mail_server, move["mover"].email)) == 1
    _mover_takes_it_back(store, inbound, mail_server, move)


def test_a_take_back_in_the_movers_name_the_receiving_server_found_forged_changes_nothing(
        app, client, store, players, mail_server, inbound):  # noqa: F811
    move = _held_move(app, client, store, players, inbound, mail_server, "forged-dmarc")
    mover = move["mover"].email
    mail = reply_to(move["receipt"], "TAKE BACK", mover)
    raw = (b"Authentication-Results: mx.whistlestop.example; dmarc=fail (p=reject) "
           b"header.from=example.org\r\n" + mail.as_bytes(policy=policy.SMTP))
    with smtplib.SMTP("127.0.0.1", inbound, timeout=30) as smtp:
        assert smtp.sendmail(mover, [mail["To"]], raw) == {}
    outcome = _outcome(store)
    assert outcome["kind"] == "foreign" and "dmarc" in outcome["why"], outcome
    _unchanged(store, move)
    assert len(_answers(mail_server, mover)) == 1  # the receipt only: no answer to a forgery
    _mover_takes_it_back(store, inbound, mail_server, move)


def test_a_take_back_to_another_players_reply_address_changes_nothing(
        app, client, store, players, mail_server, inbound):  # noqa: F811
    """The mover writes TAKE BACK to the next seat's address: signed for another player, so
    the mail is not the mover's order, nor that player's (it is not From them)."""
    move = _held_move(app, client, store, players, inbound, mail_server, "forged-token")
    them_seat = other(move["seat"])
    mail = reply_to(move["receipt"], "TAKE BACK", move["mover"].email)
    del mail["To"]
    mail["To"] = reply_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                                       move["gid"], them_seat, move["them"].id)
    _send(inbound, mail)
    outcome = _outcome(store)
    assert outcome["kind"] == "foreign" and outcome["seat"] == them_seat, outcome
    _unchanged(store, move)
    _mover_takes_it_back(store, inbound, mail_server, move)


def test_the_next_players_own_take_back_is_refused_and_tells_nothing_of_the_move(
        app, client, store, players, mail_server, inbound):  # noqa: F811
    """The next player replies TAKE BACK to their own address during the hold: it is read as
    taking back a move of theirs and refused ("no move of yours"); its answer is the one the
    same reply got before the move (the game as that player may see it), so it neither tells
    the move nor makes it final (a mail reaching them at the move's step would count as
    seen)."""
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="own")
    _state, seat, _action = at_retractable(store, gid)
    them = players[other(seat)]

    def take_back_by_them() -> str:
        _send(inbound, fresh_mail(app, them, gid, other(seat), "TAKE BACK"))
        assert _outcome(store) == {"kind": "retract", "status": "final", "code": "nothing"}
        answer = _text(_answers(mail_server, them.email)[-1])
        assert "There is no move of yours to take back" in " ".join(answer.split()), answer
        return SETTINGS_LINK.sub("", answer)  # each mail's own link to the mail settings

    before = take_back_by_them()
    move = _held_move(app, client, store, players, inbound, mail_server, "own", gid)
    assert move["seat"] == seat and move["gid"] == gid
    assert take_back_by_them() == before
    _unchanged(store, move)
    _mover_takes_it_back(store, inbound, mail_server, move)
