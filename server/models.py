"""SQLModel table models. The action log (LogEntry) is the source of truth; Game.state is a cache."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import JSON, Column, DateTime, Index, LargeBinary, UniqueConstraint, false, text
from sqlmodel import Field, SQLModel


TZ = DateTime(timezone=True)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def aware(moment: datetime | None) -> datetime | None:
    """The moment as an aware UTC datetime (SQLite hands back naive UTC datetimes)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


class User(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(unique=True, index=True, max_length=320)
    display_name: str = Field(default="", max_length=200)
    locale: str = Field(default="en", max_length=35)
    # Which mails: "every" decision, a daily "digest" of the games waiting, or "none".
    mail_mode: str = Field(default="every", max_length=20,
                           sa_column_kwargs={"server_default": "every"})
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    # Signing out adds one: every signed-in browser session of the account carries the number
    # it was made with, and one with an older number is signed out (server/web/accounts.py).
    session_epoch: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # When the owner of ``email`` proved it by opening a link mailed to it (a sign-in link);
    # None: not proven, so the address claims nothing (invited seats, private games).
    email_verified_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # The IANA name of the zone every time in the user's mails and pages is shown in
    # (server/i18n/times.py): the browser's at the first sign-in, then the user's choice.
    time_zone: str = Field(default="UTC", max_length=64,
                           sa_column_kwargs={"server_default": "UTC"})
    # The informational mail kinds the user stopped (server/mail/kinds.py: a one-click
    # unsubscribe on such a mail, or the settings page); needed mails are never in it.
    muted_kinds: list[str] = Field(default_factory=list,
                                   sa_column=Column(JSON, nullable=False, server_default="[]"))
    # Issue 27, retract: how long this player's retractable moves are held (seconds; 0: none).
    retract_hold_seconds: int = Field(default=120, sa_column_kwargs={"server_default": "120"})


class ApiToken(SQLModel, table=True):
    """An API token; only the sha256 hex of the token is stored, never the token."""

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    token_hash: str = Field(unique=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    last_used_at: Optional[datetime] = Field(default=None, sa_type=TZ)


class Game(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    game_type: str = Field(max_length=50)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="open", max_length=20)  # open | active | finished
    step: int = 0  # version of the current decision; orders carry it
    seed: str = Field(max_length=128)  # secret until the game ends
    seed_hash: str = Field(max_length=64)  # sha256 hex of seed, shown to the seats
    # A cache of the engine's state, without its history (engine.core.history: the log is in
    # LogEntry rows, the notes in GameNote rows): what an order loads does not grow with the game.
    state: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    public: bool = False
    created_by: Optional[int] = Field(default=None, foreign_key="user.id")
    # {"winner": seat | None, "reason": str, "termination": engine.core.Termination value,
    #  "resigned" or "forfeited": seat?} once the game is over
    result: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    # Deadlines (server/services/deadlines.py). Each decision has ``decision_hours`` from the
    # moment it is asked (``deadline_at``); a reminder goes ``reminder_hours`` before it (each
    # entry one reminder, hours before the deadline); when it passes, the seat's filed default
    # or the safe default is applied (``on_deadline`` "default") or the seat forfeits
    # ("forfeit"). ``alarm_at`` is the next moment the sweeper must look at the game: the next
    # reminder or the deadline; ``reminders_sent`` counts this step's reminders.
    deadline_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    decision_hours: int = Field(default=72, sa_column_kwargs={"server_default": "72"})
    reminder_hours: list[int] = Field(default_factory=lambda: [24],
                                      sa_column=Column(JSON, nullable=False,
                                                       server_default="[24]"))
    on_deadline: str = Field(default="default", max_length=20,
                             sa_column_kwargs={"server_default": "default"})
    alarm_at: Optional[datetime] = Field(default=None, sa_type=TZ, index=True)
    reminders_sent: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Seats played by bots (server/services/bots.py): seat -> level ("random", "greedy",
    # "strong"); each answers from its seat's view, by a worker task, after bot_delay_seconds.
    bots: dict[str, str] = Field(default_factory=dict,
                                 sa_column=Column(JSON, nullable=False, server_default="{}"))
    bot_delay_seconds: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    finished_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # Issue 27 (services/clock.py): when the current decision's clock started, and when the
    # sweep found it stopped (a pause, or an owing player on vacation); None while it runs.
    clock_started_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    clock_stopped_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # Issue 27, retract: log rows out of play (taken back, and the entries recording it): the
    # engine's log entry i is the row of seq log_offset + i.
    log_offset: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Issue 27: when the player who opened the game deleted their account before it started,
    # and its creator's rights (invite, start) passed to ``created_by``, the earliest of the
    # players who had joined (services/account_deletion.py); the open game's page says so.
    creator_left_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # Issue 46 (services/absences.py): a seat whose player misses this many deadlines in a row
    # is "silent" and the other players may claim the win, end the game, hand the seat to a
    # bot or invite a replacement; 0: never.
    absent_after_missed: int = Field(default=2, sa_column_kwargs={"server_default": "2"})
    # Issue 47: the game starts by itself when its last seat is taken, unless its creator chose
    # to start it by hand (services/lobby.py: start_if_ready).
    start_by_hand: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=50)
    user_id: Optional[int] = Field(default=None, foreign_key="user.id", index=True)
    invite_email: Optional[str] = Field(default=None, max_length=320)  # who is invited to it
    invite_token_hash: Optional[str] = Field(default=None, max_length=64)  # sha256 of the token
    joined_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # How many of the game's notes the seat's mails have shown: the next "your decision" mail
    # tells what changed since.
    notes_mailed: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # How many of the game's notes the game page had shown its player when they last looked
    # (the page's "seen" beacon); None before. The page's "since you last looked" tells the
    # notes after them (issue 47, server/web/news.py).
    notes_viewed: Optional[int] = None
    # Whether a channel has reached the seat's player (server/services/reach.py): the latest
    # step a mail accepted by the SMTP server, a webhook's 2xx, a page view or an order reached
    # them at, when it first did at that step, and by which ("mail", "webhook", "page",
    # "order"). ``waited_step``: the step whose deadline waited for this seat, unreached (the
    # other seats were told then, once).
    reached_step: Optional[int] = None
    reached_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    reached_by: Optional[str] = Field(default=None, max_length=20)
    waited_step: Optional[int] = None
    # Issue 46: the deadlines in a row the seat's player let pass (a default played for them);
    # an order of their own sets it back to 0 (services/absences.py).
    missed_in_a_row: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class StandingOrder(SQLModel, table=True):
    """A policy a seat files in advance so the server need not ask (server/services/standing.py):
    ``kind`` "trigger" (value "never" | "always" | "helps_me" | "ask"), "second_place"
    ("momentum" | "endorsement" | "ask") or "deadline_default" (a list of order lines, the first
    one legal when the deadline passes is applied; used once)."""

    __table_args__ = (UniqueConstraint("game_id", "seat", "kind"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=50)
    kind: str = Field(max_length=30)
    value: Any = Field(default=None, sa_column=Column(JSON))
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class AutoOrder(SQLModel, table=True):
    """An order the server gave for a seat without asking: by its standing order ("standing"),
    its filed default at a deadline ("filed"), the safe default ("default") or a forfeit
    ("forfeit"). ``rule`` names the policy or default in words; the seat's next mail says so
    (``mailed_at`` is set when it has)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=50)
    step: int
    actions: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    source: str = Field(max_length=20)
    rule: str = Field(default="", max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    mailed_at: Optional[datetime] = Field(default=None, sa_type=TZ)


class Webhook(SQLModel, table=True):
    """A URL that receives a Discord- or Slack-compatible JSON message for each of the user's
    notifications (``flavor`` "discord" | "slack")."""

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    url: str = Field(max_length=2000)
    flavor: str = Field(default="discord", max_length=20)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    # Posts that failed for good in a row (server/mail/webhook_queue.py); at
    # WEBHOOK_DISABLE_AFTER the webhook is turned off (``disabled_at``) and its user told.
    failures: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    disabled_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    last_error: Optional[str] = Field(default=None, max_length=2000)


class WebhookSent(SQLModel, table=True):
    """One notification to post to one webhook, queued with its outbox row's delivery
    (server/mail/webhook_queue.py): "queued", "sending" (claimed), "retry" (due at
    ``next_at``, backing off), then "sent" or "failed" with the last error and how many
    attempts were made. ``payload``: the JSON to post, fixed when it was queued."""

    __table_args__ = (UniqueConstraint("outbox_id", "webhook_id",
                                       name="uq_webhooksent_outbox_webhook"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    outbox_id: int = Field(foreign_key="outboxmessage.id")
    webhook_id: int = Field(foreign_key="webhook.id", index=True)
    status: str = Field(default="sending", max_length=20)
    attempts: int = 0
    last_error: Optional[str] = Field(default=None, max_length=2000)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    payload: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    next_at: Optional[datetime] = Field(default=None, sa_type=TZ, index=True)
    # [game id, seat, step]: the decision whose player a 2xx answer reaches (the post tells
    # the seat's player of it), or None (server/services/reach.py).
    reach: Optional[list[Any]] = Field(default=None, sa_column=Column(JSON))


class Digest(SQLModel, table=True):
    """The daily digest of one user for one day (UTC): written once, by the beat task."""

    __table_args__ = (UniqueConstraint("user_id", "day"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    day: str = Field(max_length=10)  # YYYY-MM-DD
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class Spectator(SQLModel, table=True):
    """A user following a game they do not play (public games, or invited to watch)."""

    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class LogEntry(SQLModel, table=True):
    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seq: int = Field(primary_key=True)
    seat: str = Field(max_length=50)
    action: str = Field(max_length=500)
    is_chance: bool = False
    # Issue 27, retract: NULL for an entry in play; "retracted" for one taken back, "retraction"
    # for the entry recording that (services/retract.py). Replays skip both.
    retraction: Optional[str] = Field(default=None, max_length=20)


class GameNote(SQLModel, table=True):
    """One note of a game's history in words (the engine's ``notes``, engine.core.history): a
    cache like Game.state, which holds only the count of them, rebuilt from the log by a
    replay (games.rebuild). Kept in rows so that an order neither reads nor rewrites them."""

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seq: int = Field(primary_key=True)
    note: list[Any] = Field(sa_column=Column(JSON, nullable=False))


class Order(SQLModel, table=True):
    """One seat's order at one step: sealed (pending) in simultaneous steps until resolved."""

    # ix_order_unapplied: the orders not applied only (sealed, superseded, taken back: a few
    # per game, against every order ever applied), what the unresolved-steps sweep and the
    # metrics read (issue 28, bench/sweep_scale.py). A query uses it when its WHERE has the
    # index's own term, ``ORDER_UNAPPLIED`` (SQLite matches the term as written).
    __table_args__ = (UniqueConstraint("game_id", "step", "seat"),
                      Index("ix_order_unapplied", "game_id", "step", "status",
                            sqlite_where=text("status <> 'applied'"),
                            postgresql_where=text("status <> 'applied'")))

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step: int
    seat: str = Field(max_length=50)
    actions: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="pending", max_length=20)  # pending | applied | superseded
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


# The term of ix_order_unapplied, for the queries that read it.
ORDER_UNAPPLIED = Order.status != "applied"


class OutboxMessage(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    kind: str = Field(max_length=50, index=True)
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    published_at: Optional[datetime] = Field(default=None, index=True, sa_type=TZ)  # last relayed
    attempts: int = 0  # sends by the relay, and failed sends
    last_error: Optional[str] = Field(default=None, max_length=2000)
    delivered_at: Optional[datetime] = Field(default=None, index=True, sa_type=TZ)  # consumed
    # Issue 27, retract: not sent before this moment (a retractable move's hold); NULL: at once.
    not_before: Optional[datetime] = Field(default=None, sa_type=TZ)


class IdempotencyKey(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("user_id", "key"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    key: str = Field(max_length=200)
    request_hash: str = Field(max_length=64)
    response: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    status_code: Optional[int] = None
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class TaskFailure(SQLModel, table=True):
    """A Celery task that raised (recorded by the worker; counted by the metrics endpoint)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    task_name: str = Field(max_length=200, index=True)
    task_id: str = Field(default="", max_length=200)
    args: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    error: str = Field(default="", max_length=2000)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class InboundMail(SQLModel, table=True):
    """A mail received for the server (by SMTP or the HTTP hook), kept until handled: the reply
    task reads it by id, acts on it once (``handled_at``, set in the order's transaction) and
    records what it made of it (``outcome``)."""
    id: Optional[int] = Field(default=None, primary_key=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    source: str = Field(default="smtp", max_length=10)  # smtp | http
    received_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    handled_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    outcome: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))


class UsedLink(SQLModel, table=True):
    """A signed decision link that has committed its order: each link works once."""
    id: Optional[int] = Field(default=None, primary_key=True)
    digest: str = Field(unique=True, max_length=64)  # sha256 of the token, never the token
    game_id: int = Field(index=True)
    used_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class RateLimitHit(SQLModel, table=True):
    """One hit counted by a rate limit (server/rate_limit_store.py, the default store): the
    moving window's entries, shared by every process. ``key`` is the sha256 of the limit's key
    (which holds an address or a client's IP: never stored); ``at`` and ``expires`` are Unix
    times, and a row past ``expires`` is deleted by the next hit."""
    id: Optional[int] = Field(default=None, primary_key=True)
    key: str = Field(max_length=64)
    at: float
    expires: float = Field(index=True)

    __table_args__ = (Index("ix_ratelimithit_key_at", "key", "at"),)


class UsedSignIn(SQLModel, table=True):
    """A sign-in link that has signed its user in: each works once."""
    id: Optional[int] = Field(default=None, primary_key=True)
    digest: str = Field(unique=True, max_length=64)  # sha256 of the token, never the token
    user_id: int = Field(index=True)
    used_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class MailSent(SQLModel, table=True):
    """The mail of one outbox row to one recipient: claimed before it is sent ("sending", with
    the claim's time in ``sent_at``), then "sent", or "refused" for good (``error``). A task run
    again skips the recipients served; two runs never send the same mail at once (the claim)."""
    __table_args__ = (UniqueConstraint("outbox_id", "recipient",
                                       name="uq_mailsent_outbox_recipient"),
                      # Whether a mail settings link is the newest (services/preferences.power)
                      Index("ix_mailsent_address_outbox", "address", "outbox_id"))

    id: Optional[int] = Field(default=None, primary_key=True)
    outbox_id: int = Field(foreign_key="outboxmessage.id")
    recipient: str = Field(max_length=320)  # the seat, or the invited address
    address: str = Field(max_length=320)
    message_id: str = Field(max_length=400)
    kind: str = Field(max_length=50)
    game_id: Optional[int] = Field(default=None, index=True)
    status: str = Field(default="sending", max_length=20)  # sending | sent | refused
    step: Optional[int] = None  # the step the mail asks the recipient about (a reply answers it)
    error: Optional[str] = Field(default=None, max_length=2000)  # a permanent SMTP refusal
    sent_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


# --- Issue 27 (f27-notes): private notes, your data, the calendar feed ---------------------
class SeatNote(SQLModel, table=True):
    """A player's private notepad in one game (server/services/notes.py): shown to its writer
    only, on the game page, by the API, in the replay and in their export; kept with the
    game, erased with the account."""

    __table_args__ = (UniqueConstraint("game_id", "user_id", name="uq_seatnote_game_user"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    seat: str = Field(max_length=50)
    text: str = Field(default="", max_length=20000)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class CalendarFeed(SQLModel, table=True):
    """The key of a user's calendar feed URL (server/services/calendar_feed.py): the URL is
    signed over it, so a new key (``revoke``) voids every URL made before."""

    user_id: int = Field(foreign_key="user.id", primary_key=True)
    key: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class AccountDeletion(SQLModel, table=True):
    """An account whose personal data was erased at its owner's request
    (server/services/account_deletion.py): the User row stays, nameless, so that other
    players' games keep their seats and logs ("a deleted player"). ``handed_over``: the
    [game id, seat] pairs of unfinished games left to the deadline's default."""

    user_id: int = Field(foreign_key="user.id", primary_key=True)
    deleted_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    handed_over: list[Any] = Field(default_factory=list,
                                   sa_column=Column(JSON, nullable=False, server_default="[]"))
# --- Issue 27, items 4 and 5: vacations, pauses, extensions, quiet hours -------------------
# (server/services/clock.py, vacations.py, pauses.py, extensions.py, quiet_hours.py; the two
# clock columns are on Game, above.)


class QuietHours(SQLModel, table=True):
    """A user's quiet hours: local "HH:MM" times in the user's zone (``end`` earlier than
    ``start``: they cross midnight). No row: off. A deadline or reminder of a decision the user
    owes that would fall inside them moves to their end (services/quiet_hours.py)."""

    user_id: int = Field(foreign_key="user.id", primary_key=True)
    start: str = Field(max_length=5)
    end: str = Field(max_length=5)


class Vacation(SQLModel, table=True):
    """A user's vacation: from 00:00 of its first day to 00:00 after its last, in the user's
    zone when booked (``starts_at``, ``ends_at``, UTC). ``days``: the whole days it takes from
    the year's allowance (fewer when ended early: ``ended_early_at``)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    starts_at: datetime = Field(sa_type=TZ, index=True)
    ends_at: datetime = Field(sa_type=TZ, index=True)
    days: int
    first_day: str = Field(max_length=10)  # YYYY-MM-DD, local: the year it counts against
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    ended_early_at: Optional[datetime] = Field(default=None, sa_type=TZ)


class GamePause(SQLModel, table=True):
    """A pause of one game asked by one seat: "asked" (``agreed``: the seats that agreed, the
    asker first), then "paused" when every seated player agreed (``started_at``), "resumed"
    (``resumed_at``), or "refused" (``answered_by``) or "expired" (the decision it was asked
    at was answered, or a day passed)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    asked_by: str = Field(max_length=50)
    step: int
    status: str = Field(default="asked", max_length=20)
    agreed: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    answered_by: Optional[str] = Field(default=None, max_length=50)
    asked_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    started_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    resumed_at: Optional[datetime] = Field(default=None, sa_type=TZ)


class Extension(SQLModel, table=True):
    """The one extension a seat may ask in a game (unique per game and seat): at ``step``, of
    ``hours``; "asked", then "granted" or "refused" (``answered_by``), or "expired" (the
    deadline came, or the decision was answered, unanswered)."""

    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_extension_game_seat"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=50)
    step: int
    hours: int
    status: str = Field(default="asked", max_length=20)
    answered_by: Optional[str] = Field(default=None, max_length=50)
    asked_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    answered_at: Optional[datetime] = Field(default=None, sa_type=TZ)
# --- Issue 27, item 3: retract until seen ---------------------------------------------------
class Retractable(SQLModel, table=True):
    """A sequential order that may be taken back (engine.core.may_retract) until ``until``
    while the next seat has not seen it: where its log segment starts, the outbox rows held
    for it, and whether it was taken back (services/retract.py). One per order."""

    __table_args__ = (UniqueConstraint("game_id", "step"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step: int  # the step the order answered; the game is at step + 1 while it may be taken back
    seat: str = Field(max_length=50)
    next_seat: str = Field(max_length=50)
    log_from: int  # the engine's log length before the order
    until: datetime = Field(sa_type=TZ)
    held: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    retracted_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    # Issue 45, M1: the mover's decision before the move (Game's columns of the same names),
    # given back as they were by a take back: it never buys time. ``before_reminders_sent``
    # None: a hold recorded before they were kept (a take back gives a fresh period).
    before_deadline_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    before_alarm_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    before_reminders_sent: Optional[int] = None
    before_clock_started_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    before_clock_stopped_at: Optional[datetime] = Field(default=None, sa_type=TZ)
# --- Issue 27 item 6: rematches and ratings per role ------------------------------------------
class RematchOffer(SQLModel, table=True):
    """A rematch offered after a finished game (server/services/rematch.py): one row per game.
    ``swap``: the roles are swapped (rotated among the players) or are kept; ``accepted``:
    the user ids who said yes (the offerer first); ``status`` "open", "withdrawn" or "made"
    (``new_game_id`` the rematch). A second offer while one is open joins it (an acceptance);
    a new offer after a withdrawal opens the row again."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    offered_by: int = Field(foreign_key="user.id")
    swap: bool = True
    accepted: list[int] = Field(default_factory=list,
                                sa_column=Column(JSON, nullable=False, server_default="[]"))
    status: str = Field(default="open", max_length=20)
    new_game_id: Optional[int] = Field(default=None, foreign_key="game.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class Rating(SQLModel, table=True):
    """A player's OpenSkill rating in one game's role pool (engine GameInfo.rating_role):
    a user's (``user_id``) or a bot level's (``bot``, "strong"...), never both.
    ``ordinal`` (mu - 3 sigma) orders the ladder."""

    __table_args__ = (UniqueConstraint("game_type", "role", "player", name="uq_rating_player"),
                      Index("ix_rating_ladder", "game_type", "role", "ordinal"))

    id: Optional[int] = Field(default=None, primary_key=True)
    game_type: str = Field(max_length=50)
    role: str = Field(max_length=50)
    player: str = Field(max_length=60)  # "user:<id>" or "bot:<level>"
    user_id: Optional[int] = Field(default=None, foreign_key="user.id", index=True)
    bot: Optional[str] = Field(default=None, max_length=30)
    mu: float
    sigma: float
    ordinal: float
    games: int = 0
    wins: int = 0
    updated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class RatedGame(SQLModel, table=True):
    """A finished game whose players' ratings were updated: a game is rated once.
    ``changes``: per seat, the pool, the player and the rating before and after."""

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    rated_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    changes: list[dict[str, Any]] = Field(default_factory=list,
                                          sa_column=Column(JSON, nullable=False))
# --- Issue 27, item 1: table talk (server/services/chat.py) -----------------------------------
class GameChat(SQLModel, table=True):
    """A game's chat settings, chosen by its creator when the game is opened: ``spectators``
    opens a separate spectators' channel (players' and spectators' lines are never mixed)."""

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    spectators: bool = False


class ChatMessage(SQLModel, table=True):
    """One line of a game's table talk, in ``channel`` "players" or "spectators"; ``seat``:
    the author's seat when they play the game. ``reported_*``: a reader reported it to the
    operator (ChatReport holds each report)."""

    __table_args__ = (Index("ix_chatmessage_game_channel_id", "game_id", "channel", "id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    channel: str = Field(max_length=20)
    user_id: int = Field(foreign_key="user.id", index=True)
    seat: Optional[str] = Field(default=None, max_length=50)
    body: str = Field(max_length=4000)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    reported: bool = False
    reported_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    reported_by: Optional[int] = Field(default=None, foreign_key="user.id")


class ChatRead(SQLModel, table=True):
    """How far a user has read one channel of a game (``read_through``: the newest line id
    read), and the table-talk mail waiting for them (``mail_outbox_id``: the outbox row that
    will mail the unread lines; nothing more is mailed until they have read)."""

    __table_args__ = (UniqueConstraint("game_id", "channel", "user_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    channel: str = Field(max_length=20)
    user_id: int = Field(foreign_key="user.id", index=True)
    read_through: int = 0
    mail_outbox_id: Optional[int] = None


class ChatMute(SQLModel, table=True):
    """``user_id`` mutes ``muted_id``: the muted user's lines are hidden from the muter on the
    pages, in the API and in mail."""

    __table_args__ = (UniqueConstraint("user_id", "muted_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    muted_id: int = Field(foreign_key="user.id")
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)


class ChatReport(SQLModel, table=True):
    """A reader reported a line to the operator (``whistlestop chat-reports`` lists them);
    open until the operator resolves it (``resolved_at``, with ``resolution``: a short note
    saying what was done)."""

    __table_args__ = (UniqueConstraint("message_id", "user_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    message_id: int = Field(foreign_key="chatmessage.id", index=True)
    user_id: int = Field(foreign_key="user.id")
    reason: str = Field(default="", max_length=500)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    resolved_at: Optional[datetime] = Field(default=None, sa_type=TZ)
    resolution: Optional[str] = Field(default=None, max_length=500)


class SeatAbsence(SQLModel, table=True):
    """Issue 46 (services/absences.py): a seat whose player left the game (``reason`` "left":
    the account was deleted) or went silent ("silent": ``Game.absent_after_missed`` deadlines
    missed in a row), found at ``step``. "open" while the other players may act, then
    "claimed" (the win, by ``settled_by``), "ended" (unrated), "replaced" (a new player took
    the seat), "returned" (the silent player gave an order again) or "abandoned" (the game
    ended as silent: nobody acted). ``bot``: the level of the bot playing the seat meanwhile
    (a 3-4 seat game hands it at once; a player may choose it); ``wants_end``: the seats that
    asked to end the game unrated (all the present players must, with 3-4 seats);
    ``invite_token_hash``/``invite_email``: the replacement invited (sha256 of its code)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=50)
    reason: str = Field(max_length=20)
    step: int
    status: str = Field(default="open", max_length=20)
    since: datetime = Field(default_factory=utcnow, sa_type=TZ)
    bot: Optional[str] = Field(default=None, max_length=20)
    bot_by: Optional[str] = Field(default=None, max_length=50)
    wants_end: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    invite_token_hash: Optional[str] = Field(default=None, max_length=64)
    invite_email: Optional[str] = Field(default=None, max_length=320)
    invited_by: Optional[str] = Field(default=None, max_length=50)
    settled_by: Optional[str] = Field(default=None, max_length=50)
    settled_at: Optional[datetime] = Field(default=None, sa_type=TZ)



class PagePresence(SQLModel, table=True):
    """Issue 46, item 5 (services/presence.py): a user's page of a game: ``seen_at`` when one
    was last live and in view (its beat), ``left_at`` when one last said it was leaving
    (hidden, closed, reloaded). One row per (game, user), written by the page's small POSTs
    (server/web/presence.py), read by the mail's delivery (server/mail/delivery.py). No
    foreign keys: a row is only ever written for an active game's seated player, and says
    nothing but when a page was live."""

    game_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    seen_at: datetime = Field(sa_type=TZ)
    left_at: Optional[datetime] = Field(default=None, sa_type=TZ)


class ClubInvitation(SQLModel, table=True):
    """Issue 48, item 1 (services/members.py): a member's invitation to the club, a link that
    works once and lets its holder make an account while sign-up is closed
    (``OPEN_SIGNUP`` false). Only the sha256 of the link's token is kept; ``used_at``: when it
    was used (for good)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(unique=True, max_length=64)
    invited_by: int = Field(index=True)   # the member's user id (no foreign key: kept)
    created_at: datetime = Field(default_factory=utcnow, sa_type=TZ)
    used_at: Optional[datetime] = Field(default=None, sa_type=TZ)
