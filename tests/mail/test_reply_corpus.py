"""The reply corpus played against a live game of 1960: real SMTP both ways (the players'
replies go to the inbound aiosmtpd server of the `mail` process, the workers send to an aiosmtpd
catcher), real Redis, a real worker, as tests/workers/test_game_by_mail.py.

Each of the corpus's real reply mails (tests/mail/inbound/corpus/, sources in SOURCES.md) is made
a reply to the decision mail the seat got - its written text an order of the game, everything
else as its client sent it - and sent. Counted: the replies that applied exactly the intended
order (or, where the written text holds nothing legal, applied nothing), and those that applied
anything else, which must be none. The answer threads under the player's own reply.
"""

from __future__ import annotations

import json
import random
import re
import smtplib
import time
import uuid
from pathlib import Path

from sqlmodel import select

from server import db
from server.models import Game, InboundMail, MailSent, Order, User
from server.services import games as svc
from tests.mail.inbound import corpus
from tests.players import proven_user
from tests.workers.conftest import pipeline_factory  # noqa: F401 (fixture)
from workers.inbound_smtp import make_inbound

EXACT_SHARE = 0.95
ARTIFACT = Path(__file__).parents[2] / "test-artifacts" / "reply_corpus.json"
# The cases the issue names, each of which must apply exactly.
NAMED = {"mail/japanese_iso_2022.eml": "full-width order",
         "talon/thunderbird.eml": "bottom-posted reply",
         "crisp/email_with_regards.txt": "sealed-step reply with a sign-off"}
NOT_READ = "These lines of your reply were not read"


class Table:
    """The live game as the test drives it: its state, direct orders for the steps no corpus
    mail answers, and the decision mails each seat got."""

    def __init__(self, pipeline, seats: dict, address: dict, rng: random.Random):
        self.pipeline, self.seats, self.address, self.rng = pipeline, seats, address, rng
        self.games = 0
        self.new_game()

    def new_game(self) -> None:
        """A new game for the same players (the corpus outlasts a game of random orders)."""
        self.games += 1
        with self.pipeline.session() as s:
            self.gid = svc.create_game(s, "tmotp", {}, self.seats,
                                       seed=f"reply-corpus-{self.games}").id

    def now(self):
        with self.pipeline.session() as s:
            game = s.get(Game, self.gid)
            state = svc._load(game)
            waiting = [seat for seat in state.active()
                       if not svc.sealed_actions(s, self.gid, game.step, seat)]
            return game.step, state, waiting

    def direct(self, seat: str, step: int, state) -> None:
        """An order given on the web (any legal one), for a step no corpus mail answers."""
        with self.pipeline.session() as s:
            svc.submit_order(s, self.gid, seat, step, [self.rng.choice(state.legal_actions(seat))],
                             by_player=False)

    def ready_for(self, sealed: bool) -> tuple[int, str, object, list[str]]:
        """Play on until a seat is asked a decision of the kind wanted by a mail: (step, seat,
        the mail, the legal orders)."""
        for _ in range(400):
            step, state, waiting = self.now()
            if not state.active():
                self.new_game()
                continue
            if not waiting:  # every seat has sealed its order: the worker resolves the step
                self.pipeline.drain()
                time.sleep(0.05)
                continue
            simultaneous = len(state.active()) > 1
            seats = [seat for seat in waiting if len(state.legal_actions(seat)) > 1]
            if seats and simultaneous == sealed:
                mail = self.asked(seats[0], step)
                if mail is not None:
                    return step, seats[0], mail, list(state.legal_actions(seats[0]))
            self.direct(waiting[0], step, state)
        raise AssertionError("no decision of the kind wanted came")

    def asked(self, seat: str, step: int):
        """The latest mail asking the seat about the step (the server records which step a
        mail asks), once the workers have sent what they had; None when none asks it (the seat
        went on from its own order given on the web)."""
        self.pipeline.drain()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            with self.pipeline.session() as s:
                ids = s.exec(select(MailSent.message_id).where(
                    MailSent.game_id == self.gid, MailSent.recipient == seat,
                    MailSent.step == step, MailSent.status == "sent")
                    .order_by(MailSent.id.desc())).all()
            for mail in reversed(self.pipeline.mail.to(self.address[seat])):
                if mail["Message-ID"] in ids:
                    return mail
            time.sleep(0.05)
        return None


def test_real_reply_mails_apply_exactly_the_intended_order(
        pipeline_factory, tmp_path, free_port):  # noqa: F811
    url = f"sqlite:///{tmp_path / 'corpus.db'}"
    db.migrate(url)
    pipeline = pipeline_factory(url)
    pipeline.worker().start()
    inbound = make_inbound(url, "127.0.0.1", free_port)
    inbound.start()
    tag = uuid.uuid4().hex[:8]
    try:
        with pipeline.session() as s:
            seats = {seat: proven_user(s, f"{seat}-{tag}@example.org", seat.title()).id
                     for seat in ("kennedy", "nixon")}
            address = {seat: s.get(User, uid).email for seat, uid in seats.items()}
        table = Table(pipeline, seats, address, random.Random(1960))
        results = [_play(table, entry, free_port, n) for n, entry in enumerate(corpus.entries())]
    finally:
        inbound.stop()
    exact = [r for r in results if r["exact"]]
    wrong = [r for r in results if r["wrong"]]
    ARTIFACT.parent.mkdir(exist_ok=True)
    ARTIFACT.write_text(json.dumps({"mails": len(results), "exact": len(exact),
                                    "wrong": len(wrong), "results": results}, indent=1,
                                   ensure_ascii=False))
    print(f"\nreply corpus: {len(results)} real mails, {len(exact)} exact, {len(wrong)} wrong")
    for r in results:
        if not r["exact"]:
            print("  not exact:", r["file"], r["applied"], r["outcome"])
    assert len(results) >= 40
    assert not wrong, wrong
    assert len(exact) >= EXACT_SHARE * len(results), [r for r in results if not r["exact"]]
    for name in NAMED:
        assert next(r for r in results if r["file"] == name)["exact"], NAMED[name]
    assert all(r["threaded"] for r in results), [r["file"] for r in results if not r["threaded"]]
    assert all(r["ignored_quoted"] for r in results if r["step"] == "sealed")


def _play(table: Table, entry: dict, port: int, n: int) -> dict:
    """Send the corpus mail as the seat's reply to its decision; what came of it."""
    sealed = entry["step"] == "sealed"
    step, seat, mail, choices = table.ready_for(sealed)
    order = table.rng.choice(choices)
    sender = table.address[seat]
    message_id = f"<corpus.{n}.{uuid.uuid4().hex[:12]}@players.example>"
    raw = corpus.reply_from(entry, order, sender=sender, to=mail["Reply-To"],
                            message_id=message_id, in_reply_to=mail["Message-ID"],
                            references=mail["References"] or "",
                            subject="Re: " + mail["Subject"])
    with table.pipeline.session() as s:
        before = len(s.exec(select(InboundMail)).all())
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.sendmail(sender, [mail["Reply-To"]], as_sent(raw))
    handled = _handled(table.pipeline, before + 1)
    with table.pipeline.session() as s:
        row = s.exec(select(Order).where(Order.game_id == table.gid, Order.step == step,
                                         Order.seat == seat)).first()
        applied = list(row.actions) if row is not None else None
    intended = None if entry["order"] == "keep" else [order]
    answer = _answer(table.pipeline.mail, sender, message_id)
    text = answer.get_body(("plain",)).get_content() if answer is not None else ""
    result = {"file": entry["file"], "step": entry["step"], "order": order, "applied": applied,
              "outcome": handled.outcome, "exact": applied == intended,
              "wrong": applied is not None and applied != intended,
              "threaded": answer is not None and message_id in (answer["References"] or ""),
              "ignored_quoted": NOT_READ in text}
    print(f"{n:3} {'exact' if result['exact'] else 'WRONG' if result['wrong'] else 'not exact'}"
          f" {entry['file']}: {applied}", flush=True)
    return result


def as_sent(raw: bytes) -> bytes:
    """The mail as the client's MTA puts it on the wire: lines ending in CRLF (RFC 5321 §2.3.8;
    the collections keep most fixtures with bare LFs), and a line longer than 998 octets broken
    by inserting CRLF and a space, as Postfix's smtp_line_length_limit does (two fixtures hold a
    long HTML or base64 line, which SMTP does not carry as it is)."""
    lines = re.split(rb"\r?\n", raw)
    out = []
    for line in lines:
        while len(line) > 998:
            out.append(line[:998])
            line = b" " + line[998:]
        out.append(line)
    return b"\r\n".join(out)


def _handled(pipeline, count: int, timeout: float = 60) -> InboundMail:
    """The latest inbound mail, once ``count`` are kept and the latest is handled."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with pipeline.session() as s:
            rows = s.exec(select(InboundMail).order_by(InboundMail.id)).all()
            if len(rows) >= count and rows[-1].handled_at is not None:
                return rows[-1]
        time.sleep(0.05)
    raise AssertionError("the reply was never handled")


def _answer(catcher, address: str, message_id: str, timeout: float = 30):
    """Our answer to the player's reply: the mail to them whose In-Reply-To names it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for mail in catcher.to(address):
            if mail["In-Reply-To"] == message_id:
                return mail
        time.sleep(0.05)
    return None
