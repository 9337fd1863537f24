"""The SMTP server is down for a minute while games go on, then comes back: every mail is
delivered, exactly once. Real parts throughout: a real Redis broker, a real Celery worker (two
pool processes, so that two runs of one outbox row can overlap) with beat, a real aiosmtpd
server, a SQLite file.

Two ways of being down: the server is stopped (connection refused), or it is up and answers
every message with 421 (RFC 5321: service not available, try later).

While it is down, new games start and the games in progress play on (orders through the order
service, resolutions by the worker), so mails keep being written. Each notify task fails with
a temporary failure and retries with jittered exponential backoff (workers/tasks.py: up to
RETRY_BACKOFF_MAX = 120 s between tries, 10 tries); the relay (beat, every OUTBOX_RELAY_SECONDS)
publishes again each row no task consumed within OUTBOX_REDELIVER_SECONDS, so one row is run by
several tasks during the outage. Once the server is back, a row is sent by whichever comes
first: a retry that comes due, or the relay's next publish of it. The relay bounds the wait:
every row unconsumed at that time is published again within REDELIVER + RELAY seconds (a retry
alone could wait up to 120 s, and a task whose tries ran out before the end of the outage is
only ever sent again by the relay).
"""

from __future__ import annotations

import random
import re
import time

import pytest
from sqlmodel import select

from server import db
from server.models import Game, MailSent, OutboxMessage
from server.services import games as svc
from tests.workers.conftest import (
    assert_mailed_once,
    commit_all,
    delivered,
    play_to_simultaneous,
    players,
    wait_for_step,
)

OUTAGE = 60.0  # seconds the SMTP server is down
RELAY = 1  # OUTBOX_RELAY_SECONDS: beat runs the relay this often
REDELIVER = 5  # OUTBOX_REDELIVER_SECONDS: an unconsumed row is published again after this
# After the server is back: the relay publishes every unconsumed row again within
# REDELIVER + RELAY seconds; the rest is the worker's queue (the retries that come due meanwhile
# find their rows consumed and return) and SQLite. Generous, as the machine may be busy.
RECOVERY = REDELIVER + RELAY + 30
PLAY_AT = (0, 25, 50)  # seconds into the outage at which every game plays a step
GAMES = 2  # games in progress when the server goes down (one more starts at each PLAY_AT)


def _notifications(pipeline) -> dict[int, OutboxMessage]:
    with pipeline.session() as s:
        return {r.id: r for r in s.exec(select(OutboxMessage).where(
            OutboxMessage.kind != "resolve_step")).all()}


def _wait_delivered(pipeline, timeout: float) -> float:
    """Wait until every notification row is consumed and no mail is being sent; return how
    long it took. Fails with what is left."""
    started = time.monotonic()
    while True:
        wanted = set(_notifications(pipeline))
        with pipeline.session() as s:
            sending = s.exec(select(MailSent).where(MailSent.status == "sending")).all()
        if delivered(pipeline) == wanted and not sending:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            left = sorted(wanted - delivered(pipeline))
            claims = [(m.outbox_id, m.recipient) for m in sending]
            raise AssertionError(f"{len(left)} notification row(s) not delivered {timeout:.0f} s "
                                 f"after the server came back: {left[:20]}; "
                                 f"claims still sending: {claims}")
        time.sleep(0.2)


def _play_one_step(pipeline, gid: int, rng: random.Random) -> None:
    """Sequential orders up to the next simultaneous step, every seat's order there, and the
    resolution (by the worker) waited for; nothing if the game is over (or ends meanwhile)."""
    at = play_to_simultaneous(pipeline, gid, rng)
    if at is None:
        return
    step, state = at
    commit_all(pipeline, gid, step, state, rng)
    wait_for_step(pipeline, gid, step)


def _expected(pipeline, games: list[int]) -> set[tuple[int, str]]:
    """(outbox row, seat) of the mails that must have been sent whatever the timing: each
    game's start and end, to both seats, and the decision each game asks now (a decision mail
    for a step that moved on before it went out is rightly not sent)."""
    expected = set()
    with pipeline.session() as s:
        rows = s.exec(select(OutboxMessage).where(
            OutboxMessage.kind.in_(("game_started", "game_over", "your_decision")))).all()
        for gid in games:
            game = s.get(Game, gid)
            asked = {seat for seat in svc._load(game).active()
                     if svc.your_move(s, game, seat)}
            for row in rows:
                if row.payload["game_id"] != gid:
                    continue
                if row.kind in ("game_started", "game_over"):
                    expected |= {(row.id, "kennedy"), (row.id, "nixon")}
                elif row.payload["step"] == game.step and row.payload["seat"] in asked:
                    expected.add((row.id, row.payload["seat"]))
    return expected


@pytest.mark.parametrize("down", ["stopped", "answers 421"])
def test_smtp_down_for_a_minute_every_mail_delivered_once(pipeline_factory, tmp_path, down):
    url = f"sqlite:///{tmp_path / 'smtp-outage.db'}"
    db.migrate(url)
    pipeline = pipeline_factory(url, OUTBOX_RELAY_SECONDS=RELAY,
                                OUTBOX_REDELIVER_SECONDS=REDELIVER)
    worker = pipeline.worker(concurrency=2, beat=True).start()
    mail = pipeline.mail
    rng = random.Random(421 if down == "answers 421" else 111)

    # Up: games start and play a step; their mails go out.
    with pipeline.session() as s:
        games = [svc.create_game(s, "tmotp", {}, players(s), seed=f"smtp-{down}-{i}").id
                 for i in range(GAMES)]
    for gid in games:
        _play_one_step(pipeline, gid, rng)
    _wait_delivered(pipeline, timeout=60)
    before = len(mail.received())
    assert before > 0
    written_before = set(_notifications(pipeline))

    # Down for a minute, while every game plays on and new games start.
    if down == "stopped":
        mail.stop()
    else:
        mail.answer = "421 4.3.2 Service shutting down, try again later"
    down_at = time.monotonic()
    for rounds, at in enumerate(PLAY_AT, 1):  # early, midway and late in the outage
        time.sleep(max(0.0, at - (time.monotonic() - down_at)))
        for gid in games:
            _play_one_step(pipeline, gid, rng)
        with pipeline.session() as s:  # and a new game starts each time
            games.append(svc.create_game(s, "tmotp", {}, players(s),
                                         seed=f"smtp-{down}-new-{rounds}").id)
    # The notify tasks meet the outage and retry; nothing gets through meanwhile.
    worker.wait_for(r"notify\[[^\]]+\] retry: Retry in \d+s: TemporaryFailure", count=3,
                    timeout=OUTAGE)
    time.sleep(max(0.0, OUTAGE - (time.monotonic() - down_at)))
    written_during = set(_notifications(pipeline)) - written_before
    assert len(mail.received()) == before
    with pipeline.session() as s:
        assert not s.exec(select(MailSent).where(MailSent.outbox_id.in_(written_during),
                                                 MailSent.status != "sending")).all()
    # Mails are waiting for the server: at least each game's start and the decisions asked
    # now (the decisions of steps that moved on meanwhile were rightly dropped, unsent).
    left_during = set(_notifications(pipeline)) - delivered(pipeline)
    must = {row for row, _ in _expected(pipeline, games)} & written_during
    assert len(must) > len(PLAY_AT) and must <= left_during, \
        (sorted(must), sorted(left_during))

    # Back: nobody publishes from here; the retries and the relay deliver what waits.
    if down == "stopped":
        mail.start()
    else:
        mail.answer = None
    took = _wait_delivered(pipeline, timeout=RECOVERY)

    # Every mail once: nothing reached the server twice, everything recorded as sent reached
    # it, every claim ended "sent", and the mails that had to go out went out.
    sent = assert_mailed_once(pipeline)
    with pipeline.session() as s:
        claims = s.exec(select(MailSent)).all()
    assert claims and all(m.status == "sent" for m in claims), \
        [(m.outbox_id, m.recipient, m.status, m.error) for m in claims if m.status != "sent"]
    served = {(m.outbox_id, m.recipient) for m in claims}
    assert len(served) == len(claims)
    missing = _expected(pipeline, games) - served
    assert not missing, f"mails never sent: {sorted(missing)}"
    after_outage = [m for m in claims if m.outbox_id in written_during]
    assert len(after_outage) >= 2 * len(PLAY_AT)  # at least the new games' starts
    # A task whose tries ran out during the outage is recorded; the relay sent its row anyway.
    unexpected = [f for f in pipeline.failures()
                  if f.task_name not in ("whistlestop.notify", "whistlestop.news")
                  or "TemporaryFailure" not in f.error]
    assert not unexpected, [(f.task_name, f.error) for f in unexpected]

    # Retries still waiting in the worker (up to RETRY_BACKOFF_MAX) find their rows consumed:
    # a few seconds later nothing more has arrived.
    time.sleep(3)
    assert assert_mailed_once(pipeline) == sent
    retries = len(re.findall(r"notify\[[^\]]+\] retry: Retry in", worker.text()))
    print(f"\nSMTP {down} for {OUTAGE:.0f} s: {rounds} round(s) of steps played meanwhile, "
          f"{len(written_during)} notification rows written, {len(left_during)} waiting at the "
          f"end of the outage; all delivered {took:.1f} s after the server came back; "
          f"{sent} mails in all, each once; {retries} notify retries")
