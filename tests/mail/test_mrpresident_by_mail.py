"""A whole game of Mr. President played by three players only by replying to mail, as 1960's is
(tests/workers/test_game_by_mail.py, whose players and checks this test shares): real SMTP
both ways (the workers send to an aiosmtpd server; the replies go to the inbound aiosmtpd server
of the `mail` process), real Redis, a real worker. Each player reads the decision and the orders
it lists from the mail, and answers with Reply, quoting the mail: sealed orders, three at a
time, the chalkboard edition's leaders first."""

from __future__ import annotations

import random
import re
import uuid

import pytest

from server import db
from server.models import Game, User
from server.services import games as svc
from server.services import users
from tests.workers.conftest import pipeline_factory  # noqa: F401 (fixture)
from tests.workers.test_game_by_mail import everybody_answered_and_told, play_by_reply
from tests.players import proven_user
from workers.inbound_smtp import make_inbound

SEATS = ("p1", "p2", "p3")
# The two-card play the mail explains by an example from the player's hand.
PAIR = re.compile(r"for example (play \d+ \d+)")


def order_from(mail, choices: list[str], rng: random.Random) -> str:
    """A listed order, or now and then the mail's example of a two-card play."""
    pair = PAIR.search(mail.get_body(("plain",)).get_content())
    return pair.group(1) if pair and rng.random() < 0.2 else rng.choice(choices)


@pytest.mark.parametrize("options", [
    {"edition": "chalkboard", "players": 3, "plurality": True},
    {"edition": "dial", "players": 3, "version": "short"}], ids=["chalkboard", "dial"])
def test_a_whole_game_of_mr_president_by_reply_over_real_smtp(
        pipeline_factory, tmp_path, free_port, options):  # noqa: F811
    url = f"sqlite:///{tmp_path / 'by-mail.db'}"
    db.migrate(url)
    pipeline = pipeline_factory(url)
    pipeline.worker().start()
    inbound = make_inbound(url, "127.0.0.1", free_port)
    inbound.start()
    rng = random.Random(1965)
    tag = uuid.uuid4().hex[:8]

    def choose(mail, choices):
        assert mail["Subject"].startswith("Mr. President game #")
        return order_from(mail, choices, rng)

    try:
        with pipeline.session() as s:
            seats = {seat: proven_user(s, f"{seat}-{tag}@example.org",
                                       f"Candidate {seat[1]}").id for seat in SEATS}
            gid = svc.create_game(s, "mrpresident", options, seats, seed="by-mail-1965").id
            address = {seat: s.get(User, uid).email for seat, uid in seats.items()}
        replies = play_by_reply(pipeline, gid, address, free_port, choose)
        sent = everybody_answered_and_told(pipeline, address, replies)
        with pipeline.session() as s:
            result = s.get(Game, gid).result
        # with plurality (chalkboard) or the popular vote a game ends only with a president
        assert result["winner"] in SEATS, result
        print(f"\na game of Mr. President by mail: {replies} replies, {sent} mails sent")
    finally:
        inbound.stop()
