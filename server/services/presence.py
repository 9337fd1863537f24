"""No mail while you watch (issue 46, item 5): which game pages are open and live, and what that
does to the mails about them.

Presence. A seated player's game page, while it is in view and live (its stream is open, or
its version check stands in: templates/web/_game_base.html), says so by a small POST every
``BEAT_SECONDS`` (``POST /games/<id>/watching`` with the page's CSRF token: server/web/
presence.py; the stream's GET writes nothing), and says it is leaving when it is hidden, closed
or reloaded (a beacon with ``left``). Each is one row per (game, user) in the database
(server/models.py: PagePresence): the web process writes it, the workers read it, so it holds across
processes and on the embedded defaults (SQLite, no Redis). A page is *watching* when it beat
within ``STALE_SECONDS`` and has not said it left since; a page that vanished without a word
(a crash, a lost network) stops counting at its last beat.

What it does to the mails (server/mail/delivery.py, when a row is sent):
- a **decision** (``HELD``: "your decision", a reminder) to a player watching the game, or
  whose page was live less than the delay ago (PRESENCE_DELAY_SECONDS, default
  ``DELAY_SECONDS``: 2 minutes), is *held*: its outbox row is not sent yet and is due again
  the delay after the page was last live (``until``). Sent then if the decision is still open
  (the builder's rule, server/mail/recipients.py: a mail about a step that has moved on is
  never sent); so a player who acted on the page gets none for that step, and one who left
  before acting gets it once the delay has passed: every decision is still announced. Several
  decisions of the same seat while the player was on the page or had just left (moves against
  bots in quick succession) end as one mail: the earlier ones are about steps gone by, and the
  one sent tells what happened since the reader's last mail (its notes).
- **news the page shows** (``SHOWN``: a step resolved, the game over) is not mailed to a reader
  watching it; a step resolved is not mailed either to one whose page was live within the
  delay (the decision mail that follows tells it, with the rest since the last mail); the
  game's end is mailed to one who left.
- every other mail is unchanged: answers to a player's own mail (an order by reply), deadlines
  passed, asks for a pause or more time, table talk (its own wait: services/chat.py), and the
  mails about the account.
Webhooks are not held: a notification a user takes on webhooks only goes as before.

The lobby's page takes the creator of a game to its page as it makes it (a game against bots
may begin at once), and a game started from its page shows it from then on: when the form was
sent by a page with scripts (which will be live), each counts as a beat of that page, the game
made in the transaction that makes it, the start just before its own (server/web/presence.py),
so the first decision's mail waits as the next ones do. A game made by the API, or by a page
without scripts, counts nothing.

Deadlines are unchanged: a page in view reaches its player (services/reach.py, its own
``/seen`` POST), and a held mail reaches them when it is sent. A delay of 0 turns all this off
(the behaviour before; bench/mails_per_game.py measures against it).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server.models import OutboxMessage, aware
from server.models import PagePresence
from server.services.account_deletion import register_eraser

BEAT_SECONDS = 30  # a live page in view says so this often
STALE_SECONDS = 75  # a page not heard for this long has gone (two beats missed and a margin)
DELAY_SECONDS = 120  # the default of PRESENCE_DELAY_SECONDS

HELD = ("your_decision", "reminder")
SHOWN = ("step_resolved", "game_over")


def minutes(config) -> int:
    """The delay of a watched decision's mail in whole minutes, as the page states it (0: mails
    do not wait). ``config``: the app's (PRESENCE_DELAY_SECONDS)."""
    seconds = float(config.get("PRESENCE_DELAY_SECONDS", DELAY_SECONDS))
    return max(1, round(seconds / 60)) if seconds > 0 else 0


def mark(session: Session, game_id: int, user_id: int, now: datetime,
         left: bool = False) -> None:
    """Record in the session's transaction that the user's page of the game is live now (or,
    ``left``, that a page of it is leaving now)."""
    row = session.get(PagePresence, (game_id, user_id))
    if row is None:
        if left:
            return  # nothing was live: nothing to end
        session.add(PagePresence(game_id=game_id, user_id=user_id, seen_at=now))
    elif left:
        row.left_at = now
    else:
        row.seen_at = now


def watching(row: PagePresence | None, now: datetime) -> bool:
    """Whether the page of ``row`` is live now: beat within STALE_SECONDS, not left since."""
    if row is None:
        return False
    seen, left = aware(row.seen_at), aware(row.left_at)
    return seen > now - timedelta(seconds=STALE_SECONDS) and (left is None or left < seen)


def last_live(row: PagePresence) -> datetime:
    """When the page of ``row`` was last live: its last beat, or its leaving if later."""
    seen, left = aware(row.seen_at), aware(row.left_at)
    return max(seen, left) if left is not None else seen


def until(row: PagePresence | None, now: datetime, delay: float) -> datetime | None:
    """Until when a decision mail to the page's player waits: the delay after the page was
    last live; None when it need not wait (no page, or gone for the delay already, or no
    delay). A page watching now is looked at again at least a beat from now."""
    if row is None or delay <= 0:
        return None
    due = last_live(row) + timedelta(seconds=delay)
    if watching(row, now):
        return max(due, now + timedelta(seconds=BEAT_SECONDS))
    return due if due > now else None


def screen(session: Session, kind: str, found: list, now: datetime,
           delay: float) -> tuple[list, datetime | None]:
    """The envelopes of a row of ``kind`` as they go now, and the moment the whole row waits
    for (None: it goes now): a decision to a player whose page is live or was within the
    delay waits; news the page shows is not mailed to its watchers (module docstring)."""
    if delay <= 0 or kind not in HELD + SHOWN:
        return found, None
    held: datetime | None = None
    out = []
    for envelope in found:
        if not envelope.mail or envelope.game_id is None or envelope.user_id is None:
            out.append(envelope)
            continue
        row = session.get(PagePresence, (envelope.game_id, envelope.user_id))
        wait = until(row, now, delay)
        if kind in HELD and wait is not None:
            held = wait if held is None else max(held, wait)
        elif kind == "step_resolved" and wait is not None or \
                kind == "game_over" and watching(row, now):
            envelope = replace(envelope, mail=False)  # its webhooks still get it
        out.append(envelope)
    return out, held


_OUTBOX = OutboxMessage.__table__


def hold(engine: Engine, message_id: int, moment: datetime) -> None:
    """Leave the outbox row unsent until ``moment``: the relay sends it then
    (services/outbox._due: a held row never sent)."""
    with engine.begin() as connection:
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == message_id,
                                                 _OUTBOX.c.delivered_at.is_(None))
                           .values(not_before=moment, published_at=None, last_error=None))


def early(row: OutboxMessage, now: datetime) -> bool:
    """Whether a held row of a decision runs before its time (a message delivered again):
    then nothing is done, the relay sends it when due."""
    return row.kind in HELD and row.not_before is not None and aware(row.not_before) > now


@register_eraser
def _forget(session: Session, user) -> None:
    """A deleted account's pages are forgotten with it."""
    for row in session.exec(select(PagePresence).where(PagePresence.user_id == user.id)).all():
        session.delete(row)
