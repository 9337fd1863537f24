"""Mails per player per game, for a player who plays live on the game page and one who plays by
mail, with and without "no mail while you watch" (issue 46, item 5: services/presence.py).

Run from the repository root:  python bench/mails_per_game.py [--games N]

Whole games of Mr. President (3 seats, Chalkboard edition) against two greedy bots answering at
once (the n-th game from the same seed in every way of playing it), through the real app (SQLite, the outbox's tasks run inline) and a real SMTP server
(aiosmtpd, the suite's catcher); the human answers a random legal choice of the game page's
form each time. Two players:
- **page**: the game page is open and live while they play (its script's beat, POST
  /games/<id>/watching, before each answer, as the page sends when it loads); at the game's end
  the page is left and the clock moved past the delay, so every held mail that is still due
  goes out;
- **mail**: the page the game was started from is closed at once (its held first decision
  goes once the delay has passed), and no game page is open after: the player answers from the
  mails, over days (the page's last moment is moved an hour back, as the clock would; and
  before each answer the clock given to the delivery moves past the delay).
Each played with the delay of the installation's default (PRESENCE_DELAY_SECONDS = 120: "new")
and with 0 (the behaviour before: "old"), the same number of games each, in the same run.
Counted: every mail to the player from the game's start (decisions, steps resolved, the game's
start and end), and for the page player the decision mails that came while the page was live. Goals: the page
player gets no decision mail while watching (at most the game's start and end, which are not
decisions: the start carries the seed's hash); the mail player gets at least as many decision mails as
before (new / old >= 1 for decisions: none is lost) and no more mails in all
(new / old <= 1). Medians of the games. Exit status 1 if a goal is missed.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
from collections import Counter
from datetime import timedelta
from pathlib import Path

from common import free_port  # noqa: F401  (puts the repository on sys.path)

from sqlalchemy import update  # noqa: E402
from sqlmodel import Session, select  # noqa: E402

from server import db  # noqa: E402
from server.mail import delivery, smtp  # noqa: E402
from server.mail.recipients import MailSettings  # noqa: E402
from server.models import Game, OutboxMessage, utcnow  # noqa: E402
from server.models import PagePresence  # noqa: E402
from server.services.lobby import sha256_hex  # noqa: E402
from tests.server.api.conftest import make_app  # noqa: E402
from tests.smtp_catcher import SmtpCatcher  # noqa: E402
from tests.web.pages_helpers import Reader, csrf, pick_answer  # noqa: E402

DECISION = re.compile(r"a decision is yours \(step \d+\)")
MAX_ORDERS = 80


def _kind(mail) -> str:
    text = mail.get_body(("plain",)).get_content()
    return "decision" if DECISION.search(text) else "other"


def _deliver_held(app, later) -> None:
    """What the relay and the worker do with the held decision mails at ``later``."""
    engine = app.extensions["whistlestop.db"]
    with Session(engine) as s:
        held = s.exec(select(OutboxMessage.id).where(
            OutboxMessage.delivered_at.is_(None),
            OutboxMessage.kind.in_(("your_decision", "reminder")))).all()
    for row in held:
        delivery.deliver(engine, row, MailSettings.from_config(app.config),
                         smtp.SmtpSettings.from_config(app.config), now=later)


def play(folder: Path, template: Path, catcher: SmtpCatcher, n: int, player: str,
         delay: float) -> dict:
    """One whole game; the counts of the player's mails."""
    path = folder / f"g{n}-{player}-{int(delay)}.db"
    path.write_bytes(template.read_bytes())
    app = make_app(folder / f"app{n}{player}{int(delay)}", f"sqlite:///{path}",
                   LIVE_STREAMS_MAX=0, PRESENCE_DELAY_SECONDS=delay)
    try:
        email = f"p{n}-{player}-{int(delay)}@example.org"
        me = Reader(app, catcher, email)
        me.sign_in()
        answer = me.post_form("/", "/games/new", {
            "game_type": "mrpresident", "players": "3", "edition": "chalkboard",
            "email_p1": email, "bot_p2": "greedy", "bot_p3": "greedy",
            "bot_delay_seconds": "0", "start_by_hand": "on",  # begun below, once seeded
            "page_live": "1"})  # the lobby's script: the game's page opens next
        gid = int(answer.headers["Location"].rsplit("/", 1)[1])
        engine = app.extensions["whistlestop.db"]
        with Session(engine) as s:  # the same game in every way of playing it
            seed = f"mails-per-game/{n}"
            s.execute(update(Game).where(Game.id == gid).values(seed=seed,
                                                                seed_hash=sha256_hex(seed)))
            s.commit()
        start = len(catcher.to(email))
        if player == "page":  # the game's page is open as its creator starts it
            me.client.post(f"/games/{gid}/watching",
                           data={"csrf_token": csrf(me.get(f"/games/{gid}").data)})
        me.post_form(f"/games/{gid}", f"/games/{gid}/start", {"page_live": "1"})
        rng = random.Random(f"mails/{n}")
        if player == "mail":  # the page the game was started from is closed
            me.client.post(f"/games/{gid}/watching", data={
                "csrf_token": csrf(me.get(f"/games/{gid}").data), "left": "1"})
            _deliver_held(app, utcnow() + timedelta(seconds=delay + 60))
            # ... and stays closed: the game is played over days, the page's last moment
            # goes back with the clock (the same as moving the clock of every send).
            with Session(engine) as s:
                for row in s.exec(select(PagePresence)).all():
                    row.seen_at -= timedelta(hours=1)
                    row.left_at = row.left_at and row.left_at - timedelta(hours=1)
                s.commit()
        for _ in range(MAX_ORDERS):
            if player == "mail":  # minutes pass before each answer by mail
                _deliver_held(app, utcnow() + timedelta(seconds=delay + 60))
            page = me.get(f"/games/{gid}").data
            if player == "page":
                me.client.post(f"/games/{gid}/watching", data={"csrf_token": csrf(page)})
            fields = pick_answer(page.decode(), rng)
            if not fields:
                break
            me.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
        watching = sum(_kind(m) == "decision" for m in catcher.to(email)[start:])
        if player == "page":  # the page is left; the held mails go once the delay has passed
            page = me.get(f"/games/{gid}").data
            me.client.post(f"/games/{gid}/watching",
                           data={"csrf_token": csrf(page), "left": "1"})
            _deliver_held(app, utcnow() + timedelta(seconds=delay + 60))
        else:
            _deliver_held(app, utcnow() + timedelta(seconds=delay + 60))
        mails = catcher.to(email)[start:]
        kinds = Counter(_kind(m) for m in mails)
        return {"mails": len(mails), "decisions": kinds["decision"],
                "while watching": watching if player == "page" else 0}
    finally:
        app.extensions["whistlestop.db"].dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    from workers import tasks  # noqa: F401  (the tasks the outbox names, run inline)
    from workers.celery_app import celery
    celery.conf.task_always_eager = True
    catcher = SmtpCatcher(free_port()).start()
    os.environ["WHISTLESTOP_MAIL_SMTP_PORT"] = str(catcher.port)
    results: dict[tuple[str, str], list[dict]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            template = folder / "template.db"
            db.migrate(f"sqlite:///{template}")
            for n in range(args.games):
                for player in ("page", "mail"):
                    for name, delay in (("old", 0.0), ("new", 120.0)):
                        results.setdefault((player, name), []).append(
                            play(folder, template, catcher, n, player, delay))
    finally:
        catcher.stop()
    med = {key: {what: statistics.median(r[what] for r in runs) for what in runs[0]}
           for key, runs in results.items()}
    print(f"{args.games} whole games of Mr. President against two bots; mails to the player "
          "per game (median):")
    print(f"  {'player':6s} {'':4s} {'mails':>6s} {'decisions':>10s} "
          f"{'decisions while watching':>25s}")
    for (player, name), m in sorted(med.items()):
        print(f"  {player:6s} {name:4s} {m['mails']:6.1f} {m['decisions']:10.1f} "
              f"{m['while watching']:25.1f}")
    ok = True
    page_new, page_old = med["page", "new"], med["page", "old"]
    watching = max(r["while watching"] for r in results["page", "new"])
    print(f"page player: decision mails while watching, new: {watching} (goal 0; old: "
          f"{page_old['while watching']:.1f}); mails per game new / old = "
          f"{page_new['mails']:.1f} / {page_old['mails']:.1f}")
    ok &= watching == 0
    mail_new, mail_old = med["mail", "new"], med["mail", "old"]
    ratio_d = mail_new["decisions"] / mail_old["decisions"] if mail_old["decisions"] else 1.0
    ratio_m = mail_new["mails"] / mail_old["mails"] if mail_old["mails"] else 1.0
    print(f"mail player: decision mails new / old = {ratio_d:.2f} (goal >= 1: none lost); "
          f"all mails new / old = {ratio_m:.2f} (goal <= 1)")
    ok &= ratio_d >= 1 and ratio_m <= 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
