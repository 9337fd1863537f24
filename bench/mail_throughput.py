"""Mails rendered and sent per second to a local SMTP server (goal: at least 200 per second).

Run from the repository root:  python bench/mail_throughput.py [--mails N] [--quick] [--profile]

A fresh SQLite file (``--db-url`` for another database) holds a game of 1960 between two users
(one reading mail in English, one in Japanese), played some random moves into the game, and N
mails' worth of outbox rows in a realistic mix: decision mails (``your_decision``, one mail a
row), answers to orders by reply (``order_answer``, one mail), game starts (``game_started``,
two mails) and ``reply_unknown`` (one mail). Each row goes through
``server.mail.delivery.deliver`` as the ``notify`` task runs it (no broker, no worker: the task
adds nothing per mail) against a real aiosmtpd server on 127.0.0.1, in a process of its own as
a mail relay is (``--smtp-thread`` runs it in a thread of this process instead, as the tests'
SmtpCatcher does; it then takes its share of this process's GIL).

Measured over the same rows:

- **end to end, one process**: ``deliver`` for every row, with one SMTP session kept open as
  a worker process keeps it (workers/tasks.py): the row and the game read, the recipients'
  contexts built, rendering (Jinja2 + Babel + css-inline), the MIME message composed, the
  claims committed (one transaction a row), the SMTP exchanges, the marks and the row consumed
  (one transaction);
- **render only**: ``render.render`` of the same envelopes;
- where the one-process time goes, each part timed on its own: the reads and contexts
  (``recipients.envelopes``), rendering, the MIME message (``compose.build``, as ``deliver``
  calls it), the SMTP exchanges (the same messages sent again over one session), and what is
  left of the end-to-end time: the claims and marks (the two write transactions);
- **end to end, a pool**: fresh rows of the same mix delivered by ``--workers`` processes at
  once (default: the CPUs, as Celery's prefork pool), each with its own engine and kept SMTP
  session, each taking every n-th row; from the first one's start to the last one's end.

Prints the figures and ``ratio = the pool's mails/s / 200`` (at least 1 meets the goal);
unlike the other benches it exits 1 when the ratio is under 1. ``--profile`` adds a cProfile
of the one-process pass (top functions by own and by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import multiprocessing
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

from common import free_port  # (and the repository on sys.path)

GOAL = 200.0  # mails per second, end to end

# Outbox rows per kind in 100 rows (game_started rows are two mails each).
MIX = {"your_decision": 60, "order_answer": 25, "game_started": 10, "reply_unknown": 5}


# --- the SMTP server -------------------------------------------------------------------------
class _Sink:
    """An aiosmtpd handler that accepts every message and counts it (no parsing: a relay
    queues the bytes); with ``arrivals`` (a queue) it also puts each message there as
    (time.monotonic() when taken, its bytes)."""

    def __init__(self, counter, arrivals=None):
        self.counter, self.arrivals = counter, arrivals

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.arrivals is not None:
            self.arrivals.put((time.monotonic(), envelope.original_content))
        with self.counter.get_lock():
            self.counter.value += 1
        return "250 OK queued"


def _serve(port: int, counter, cpu, ready, stop, arrivals=None) -> None:
    from aiosmtpd.controller import Controller

    controller = Controller(_Sink(counter, arrivals), hostname="127.0.0.1", port=port)
    controller.start()
    started = time.process_time()
    ready.set()
    stop.wait()
    controller.stop()
    cpu.value = time.process_time() - started


class SmtpSink:
    """A real aiosmtpd server on a free port: in a process of its own, or in a thread here.
    ``record``: every message taken is put on ``arrivals`` (see _Sink)."""

    def __init__(self, in_thread: bool, record: bool = False):
        ctx = multiprocessing.get_context("spawn")
        self.port = free_port()
        self.counter = ctx.Value("q", 0)
        self.arrivals = ctx.Queue() if record else None
        self.cpu = ctx.Value("d", float("nan"))  # the server process's CPU seconds, at its end
        self.in_thread = in_thread
        self._stop = ctx.Event()
        self._proc = None
        self._controller = None
        if in_thread:
            from aiosmtpd.controller import Controller

            self._controller = Controller(_Sink(self.counter, self.arrivals),
                                          hostname="127.0.0.1", port=self.port)
            self._controller.start()
        else:
            ready = ctx.Event()
            self._proc = ctx.Process(target=_serve, args=(self.port, self.counter, self.cpu,
                                                          ready, self._stop, self.arrivals),
                                     daemon=True)
            self._proc.start()
            if not ready.wait(30):
                raise RuntimeError("the SMTP server did not start")

    @property
    def received(self) -> int:
        return self.counter.value

    def close(self) -> None:
        if self._controller is not None:
            self._controller.stop()
        if self._proc is not None:
            self._stop.set()
            self._proc.join(10)
            if self._proc.is_alive():
                self._proc.terminate()


# --- a pool of worker processes ------------------------------------------------------------------
def _pool_worker(url: str, port: int, settings, ids: list[int], warm: list, barrier,
                 results) -> None:
    """One pool process as the worker runs it: its own engine and kept SMTP session; renders
    ``warm`` first (templates compiled), waits for the others, then delivers ``ids``."""
    from server import db
    from server.mail import delivery, render, smtp

    engine = db.make_engine(url)
    for kind, context, locale in warm:
        render.render(kind, context, locale)
    barrier.wait()
    started, cpu = time.monotonic(), time.process_time()
    with smtp.Connection(smtp.SmtpSettings("127.0.0.1", port, timeout=30)) as connection:
        for row_id in ids:
            delivery.deliver(engine, row_id, settings, connection)
    results.put((started, time.monotonic(), time.process_time() - cpu))
    engine.dispose()


def pool_pass(url: str, port: int, settings, ids: list[int], warm: list,
              workers: int) -> tuple[float, float]:
    """Deliver ``ids`` with ``workers`` processes, each taking every workers-th row, all
    started together; (wall seconds from the first start to the last end, CPU seconds of all
    the pool's processes)."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(workers), ctx.Queue()
    procs = [ctx.Process(target=_pool_worker, args=(url, port, settings, ids[i::workers],
                                                    warm, barrier, results))
             for i in range(workers)]
    for proc in procs:
        proc.start()
    got = [results.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join(30)
        if proc.exitcode != 0:
            raise RuntimeError(f"a pool process ended with {proc.exitcode}")
    return (max(end for _s, end, _c in got) - min(start for start, _e, _c in got),
            sum(cpu for _s, _e, cpu in got))


# --- the game and its outbox rows -------------------------------------------------------------
def setup_game(engine, moves: int, seed: str):
    """A game of 1960 between two users, ``moves`` random orders into it, stopped at a step
    where some seat has a decision; return (game id, {seat: user id})."""
    import engine.core as game_engine
    from sqlmodel import Session

    from server.models import Game
    from server.services import games, users

    rng = random.Random(seed)
    with Session(engine) as s:
        tag = uuid.uuid4().hex[:8]  # another database (--db-url) may hold earlier runs' users
        jack = users.create_user(s, f"jack-{tag}@example.org", "Jack", "en").id
        dick = users.create_user(s, f"dick-{tag}@example.org", "Dick", "ja").id
        seats = {"kennedy": jack, "nixon": dick}
        gid = games.create_game(s, "tmotp", {}, seats, seed=seed, created_by=jack).id
        for _ in range(moves * 3):
            s.expire_all()
            game = s.get(Game, gid)
            state = game_engine.from_dict(game.state)
            active = state.active()
            if not active:
                break  # over (reported below)
            if len(active) > 1:  # a simultaneous step: both orders, then the resolution
                if moves <= 0:
                    break
                games.submit_order(s, gid, active[0], game.step,
                                   [rng.choice(state.legal_actions(active[0]))])
                games.submit_order(s, gid, active[1], game.step,
                                   [rng.choice(state.legal_actions(active[1]))])
                games.resolve_step(s, gid, game.step)
                moves -= 2
                continue
            if moves <= 0:
                break
            games.submit_order(s, gid, active[0], game.step,
                               [rng.choice(state.legal_actions(active[0]))])
            moves -= 1
        s.expire_all()
        game = s.get(Game, gid)
        if game.status != "active":
            raise RuntimeError("the game ended during its set-up; use fewer --moves")
    return gid, seats


def write_rows(engine, gid: int, seats: dict[str, int], mails: int, seed: int = 0) -> list[int]:
    """Outbox rows in the MIX proportions adding up to at least ``mails`` mails; their ids."""
    import engine.core as game_engine
    from sqlmodel import Session

    from server.models import Game, OutboxMessage
    from server.services import games

    rng = random.Random(seed)
    kinds = [k for k, n in MIX.items() for _ in range(n)]
    with Session(engine) as s:
        game = s.get(Game, gid)
        state = game_engine.from_dict(game.state)
        asked = [seat for seat in state.active() if games.your_move(s, game, seat)]
        assert asked, "no seat has a decision at this step"
        step = game.step
        rows, count = [], 0
        while count < mails:
            kind = rng.choice(kinds)
            seat = rng.choice(asked)
            if kind == "your_decision":
                payload = {"game_id": gid, "seat": seat, "step": step}
            elif kind == "order_answer":
                seat = rng.choice(sorted(seats))
                legal = state.legal_actions(seat) if seat in state.active() else []
                payload = {"game_id": gid, "seat": seat, "inbound_id": 1,
                           "lines": [legal[0] if legal else "pass"], "answered_step": step - 1,
                           "reply_message_id": f"<r{count}@example.org>", "status": "applied",
                           "applied": [legal[0] if legal else "pass"], "reason": None,
                           "legal": [], "step": step}
            elif kind == "game_started":
                payload = {"game_id": gid}
            else:
                payload = {"user_id": seats[seat], "address": "r+x@whistlestop.test"}
            rows.append(OutboxMessage(kind=kind, payload=payload))
            count += 2 if kind == "game_started" else 1
        s.add_all(rows)
        s.commit()
        return [r.id for r in rows]


# --- the passes --------------------------------------------------------------------------------
def timed(fn, items) -> float:
    started = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - started


def run(args) -> int:
    from sqlmodel import Session, select

    from server import db
    from server.mail import compose, delivery, recipients, render, smtp
    from server.mail.recipients import MailSettings
    from server.models import OutboxMessage

    settings = MailSettings(base_url="https://whistlestop.test", domain="whistlestop.test",
                            sender="games@whistlestop.test", sender_name="Whistlestop",
                            secret="bench-secret")
    folder = Path(tempfile.mkdtemp(prefix="ws-mail-"))
    url = args.db_url or f"sqlite:///{folder / 'bench.db'}"
    sink = SmtpSink(in_thread=args.smtp_thread)
    try:
        db.migrate(url)
        engine = db.make_engine(url)
        gid, seats = setup_game(engine, args.moves, "mail-throughput")
        transport = smtp.SmtpSettings("127.0.0.1", sink.port, timeout=30)
        with Session(engine) as s:  # what the game wrote: delivered untimed, as the warm-up
            warm = s.exec(select(OutboxMessage.id).where(
                OutboxMessage.kind != "resolve_step",
                OutboxMessage.delivered_at.is_(None))).all()
        warm += write_rows(engine, gid, seats, 40, seed=1)  # every kind and locale compiled
        for row_id in warm:
            delivery.deliver(engine, row_id, settings, transport)
        ids = write_rows(engine, gid, seats, args.mails)

        # The parts, each over the same rows: the database reads and contexts, as deliver
        # builds them; rendering; the MIME message; the SMTP sessions.
        by_row: list[list] = []

        def read(row_id):
            with Session(engine) as s:
                db.reading(s)
                by_row.append([e for e in recipients.envelopes(s, s.get(OutboxMessage, row_id),
                                                              settings) if e.mail])

        t_envelopes = timed(read, ids)
        envelopes = [e for row in by_row for e in row]
        n = len(envelopes)
        tag = compose.install_tag(settings.secret)
        t_render = timed(lambda e: render.render(e.kind, e.context, e.locale), envelopes)
        messages: list[list] = []
        t_message = timed(lambda row: messages.append(
            [delivery._message(0, e, settings, tag, True) for e in row]), by_row)

        with smtp.Connection(transport) as connection:  # one session, as a worker keeps
            t_smtp = timed(lambda row: [connection.send(m, True) for m in row], messages)

        before = sink.received
        profile = cProfile.Profile() if args.profile else None
        if profile:
            profile.enable()
        cpu_started = time.process_time()
        with smtp.Connection(transport) as connection:  # as workers/tasks.py keeps one
            t_end = timed(lambda row_id: delivery.deliver(engine, row_id, settings, connection),
                          ids)
        cpu_end = time.process_time() - cpu_started
        if profile:
            profile.disable()
        received = sink.received - before
        sent = count_sent(engine, ids)

        # The pool: fresh rows of the same mix, delivered by ``--workers`` processes at once.
        pool_ids = write_rows(engine, gid, seats, args.mails, seed=2)
        with Session(engine) as s:
            pool_n = sum(len(recipients.envelopes(s, s.get(OutboxMessage, i), settings))
                         for i in pool_ids)
        warm = list({(e.kind, e.locale): (e.kind, e.context, e.locale)
                     for e in envelopes}.values())
        before = sink.received
        t_pool, cpu_pool = pool_pass(url, sink.port, settings, pool_ids, warm, args.workers)
        pool_received = sink.received - before
        pool_sent = count_sent(engine, pool_ids)
        engine.dispose()
    finally:
        sink.close()
        shutil.rmtree(folder, ignore_errors=True)

    if (received, sent) != (n, n) or (pool_received, pool_sent) != (pool_n, pool_n):
        print(f"error: {n} and {pool_n} mails expected, the server received {received} and "
              f"{pool_received}, {sent} and {pool_sent} recorded sent")
        return 2
    rate, pool_rate = n / t_end, pool_n / t_pool
    mix = ", ".join(f"{k} {v}%" for k, v in MIX.items())
    where = "a thread of this process" if args.smtp_thread else "a process of its own"
    print(f"{n} mails from {len(ids)} outbox rows ({mix} of rows),\n"
          f"database {url.split(':')[0]}, aiosmtpd in {where}")
    print(f"  {'render only':34} {n / t_render:6.0f} mails/s  {t_render / n * 1000:6.2f} ms/mail")
    print(f"  {'end to end (deliver), one process':34} {rate:6.0f} mails/s  "
          f"{t_end / n * 1000:6.2f} ms/mail")
    print(f"    this process's CPU {cpu_end / n * 1000:6.2f} ms/mail; waiting (the SMTP server, "
          f"the disk) {(t_end - cpu_end) / n * 1000:.2f} ms/mail")
    print("  where the end-to-end time goes, per mail (each part timed on its own):")
    parts = (("reads + contexts (envelopes)", t_envelopes),
             ("render", t_render),
             ("MIME message (compose.build)", t_message - t_render),
             ("SMTP (serialize, session, send)", t_smtp),
             ("claims, marks (database writes)",
              t_end - t_envelopes - t_message - t_smtp))
    server_cpu = sink.cpu.value
    for label, seconds in parts:
        print(f"    {label:32} {seconds / n * 1000:6.2f} ms  {100 * seconds / t_end:4.0f}%")
        if label.startswith("SMTP") and sink.received and server_cpu == server_cpu:  # not NaN
            print(f"      of which the aiosmtpd server's own CPU "
                  f"{server_cpu / sink.received * 1000:.2f} ms/mail (over all its mails)")
    if profile:
        print("  (profiled: the end-to-end figures include cProfile's overhead)")
    print(f"  {f'end to end, {args.workers} worker processes':34} {pool_rate:6.0f} mails/s  "
          f"({pool_n} mails; the pool's CPU {cpu_pool / pool_n * 1000:.2f} ms/mail)")
    print(f"one process: {rate:.0f} mails/s (ratio {rate / GOAL:.2f}); "
          f"{args.workers} worker processes: {pool_rate:.0f} mails/s")
    print(f"end to end: {pool_rate:.0f} mails/s (goal >= {GOAL:.0f}/s; "
          f"ratio {pool_rate / GOAL:.2f})")
    if profile:
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(order).print_stats(args.profile_lines)
            print(f"\n--- cProfile of the end-to-end pass, by {order} ---")
            print(out.getvalue().strip("\n"))
    return 0 if pool_rate >= GOAL else 1


def count_sent(engine, ids: list[int]) -> int:
    from sqlmodel import Session, select

    from server.models import MailSent

    with Session(engine) as s:
        return len(s.exec(select(MailSent.id).where(MailSent.outbox_id.in_(ids),
                                                     MailSent.status == "sent")).all())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=800, help="mails per pass (default 800)")
    parser.add_argument("--quick", action="store_true", help="200 mails: about 10 s")
    parser.add_argument("--moves", type=int, default=40,
                        help="random orders played into the game first (default 40)")
    parser.add_argument("--db-url", default=None, help="database (default: a fresh SQLite file)")
    parser.add_argument("--smtp-thread", action="store_true",
                        help="run the SMTP server in a thread of this process")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes of the pool pass (default: the CPUs, as Celery's "
                             "prefork pool)")
    parser.add_argument("--profile", action="store_true", help="cProfile the end-to-end pass")
    parser.add_argument("--profile-lines", type=int, default=30)
    args = parser.parse_args(argv)
    if args.quick:
        args.mails = 200
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
