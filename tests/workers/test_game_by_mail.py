"""A whole game of 1960 played by two players only by replying to mail: real SMTP both ways
(the workers send to an aiosmtpd server; the players' replies go to the inbound aiosmtpd server
of the `mail` process), real Redis, a real worker. The players read their decisions and the
legal orders from the mails and answer with Reply, quoting the mail as mail programs do."""

from __future__ import annotations

import random
import re
import smtplib
import time
from email.message import EmailMessage

from sqlmodel import select

from server import db
from server.models import Game, InboundMail, MailSent, User
from server.services import games as svc
from tests.workers.conftest import assert_mailed_once, players
from workers.inbound_smtp import make_inbound

CHOICES_START = "Reply to this mail with your order, one of:"


# In a decision mail's text, what a reply may write (server/mail: _choices.txt): a listed
# choice's "reply: <order>" line, a state's range with its largest order at the end, and the
# cards to pick from with an order naming them.
REPLY = re.compile(r"^\s+reply: (.+)$")
RANGE = re.compile(r"^  \S.*: ((?:campaign|support) [A-Z]{2} \d+)$")
PICK = re.compile(r" as ((?:discard|strategy) \d+(?: \d+)*)\.$")


def asked(mail, step: int | None) -> tuple[int, list[str]] | None:
    """The step a mail asks about (``step``: its MailSent row's, as a mail names no step,
    issue 47) and the orders it lists, or None if it asks nothing."""
    text = mail.get_body(("plain",)).get_content()
    if CHOICES_START not in text or step is None:
        return None
    choices = []
    for line in text.split(CHOICES_START, 1)[1].splitlines()[1:]:
        if line.startswith("-- "):
            break
        found = REPLY.match(line) or RANGE.match(line) or PICK.search(line)
        if found:
            choices.append(found.group(1).strip())
    return step, choices


def reply_to(mail, text: str, sender: str) -> EmailMessage:
    """What a mail program sends for Reply: the text on top, the mail quoted below."""
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = mail["Reply-To"]
    reply["Subject"] = "Re: " + mail["Subject"]
    reply["In-Reply-To"] = mail["Message-ID"]
    reply["References"] = f"{mail['References'] or ''} {mail['Message-ID']}".strip()
    quoted = "\n".join("> " + line for line in mail.get_body(("plain",)).get_content()
                       .splitlines()[:40])
    reply.set_content(f"{text}\n\nOn Mon, 2 Nov 2026, Whistlestop wrote:\n{quoted}\n")
    return reply


def test_a_whole_game_by_reply_over_real_smtp(pipeline_factory, tmp_path, free_port):
    url = f"sqlite:///{tmp_path / 'by-mail.db'}"
    db.migrate(url)
    pipeline = pipeline_factory(url)
    pipeline.worker().start()
    inbound = make_inbound(url, "127.0.0.1", free_port)
    inbound.start()
    rng = random.Random(1960)
    try:
        with pipeline.session() as s:
            seats = players(s)
            gid = svc.create_game(s, "tmotp", {}, seats, seed="by-mail").id
            address = {seat: s.get(User, uid).email for seat, uid in seats.items()}
        replies = play_by_reply(pipeline, gid, address, free_port,
                                lambda mail, choices: rng.choice(choices))
        sent = everybody_answered_and_told(pipeline, address, replies)
        print(f"\na game of 1960 by mail: {replies} replies, {sent} mails sent")
    finally:
        inbound.stop()


def play_by_reply(pipeline, gid: int, address: dict, port: int, choose, answer=None) -> int:
    """Every player answers each mail asking a decision by a reply over SMTP to the inbound
    server on ``port``, the order picked by ``choose(mail, orders the mail lists)``, until the
    game ends; the number of answers. ``answer(seat, mail, order)``, when given, sends a
    seat's order itself and returns False for the seats it leaves to the reply."""
    replies, answered, mailbox = 0, set(), Mailbox(pipeline.mail, pipeline.session)
    deadline = time.monotonic() + 900
    while True:
        with pipeline.session() as s:
            game = s.get(Game, gid)
            if game.status == "finished":
                return replies
            step, state = game.step, svc._load(game)
            waiting = [seat for seat in state.active()
                       if (step, seat) not in answered
                       and not svc.sealed_actions(s, gid, step, seat)]
        for seat in waiting:
            mail, choices = mailbox.asking_for(address[seat], step, deadline)
            order = choose(mail, choices)
            if answer is None or not answer(seat, mail, order):
                with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
                    smtp.send_message(reply_to(mail, order, address[seat]))
            answered.add((step, seat))
            replies += 1
        _wait_for_change(pipeline, gid, step, answered, deadline)


def everybody_answered_and_told(pipeline, address: dict, replies: int) -> int:
    """Every player was told the result, every reply was handled and applied or sealed, and
    every mail reached its player once; the number of mails sent."""
    deadline = time.monotonic() + 30
    while len(_told_the_result(pipeline)) < len(address) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _told_the_result(pipeline) == set(address.values())
    with pipeline.session() as s:
        handled = s.exec(select(InboundMail)).all()
    assert len(handled) == replies and all(m.handled_at for m in handled)
    assert all(m.outcome["status"] in ("applied", "sealed") for m in handled), \
        [m.outcome for m in handled if m.outcome["status"] not in ("applied", "sealed")]
    return assert_mailed_once(pipeline)


def _told_the_result(pipeline) -> set[str]:
    with pipeline.session() as s:
        return set(s.exec(select(MailSent.address).where(MailSent.kind == "game_over",
                                                         MailSent.status == "sent")).all())


class Mailbox:
    """The mails each player got, read once each: (step asked, orders listed) by address."""

    def __init__(self, catcher, session):
        self.catcher, self.seen, self.session = catcher, 0, session
        self.asking: dict[tuple[str, int], tuple[object, list[str]]] = {}

    def asking_for(self, to: str, step: int, deadline: float):
        while time.monotonic() < deadline:
            received = self.catcher.received()
            for mail in received[self.seen:]:
                with self.session() as s:
                    sent = s.exec(select(MailSent).where(
                        MailSent.message_id == mail["Message-ID"])).first()
                found = asked(mail, sent.step if sent is not None else None)
                if found and found[1]:
                    self.asking[(mail["To"], found[0])] = (mail, found[1])
            self.seen = len(received)
            if (to, step) in self.asking:
                return self.asking[(to, step)]
            time.sleep(0.01)
        raise AssertionError(f"no mail to {to} asked for step {step}")


def _wait_for_change(pipeline, gid: int, step: int, answered: set, deadline: float) -> None:
    """Until the step moves on, or every seat asked at it has its order sealed."""
    while time.monotonic() < deadline:
        with pipeline.session() as s:
            game = s.get(Game, gid)
            if game.step != step or game.status == "finished":
                return
            state = svc._load(game)
            if all(svc.sealed_actions(s, gid, step, seat) for seat in state.active()
                   if (step, seat) in answered) and not all(
                    (step, seat) in answered for seat in state.active()):
                return
        time.sleep(0.02)
    raise AssertionError(f"game {gid} never moved past step {step}")
