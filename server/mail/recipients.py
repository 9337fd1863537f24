"""Who gets which mail for an outbox row, and what it says: the envelopes of a notification.

Read from the database in the sending task, never earlier, so a mail says what is true when it
goes out. A "your decision" mail (or a reminder) for a step that has moved on (the seat acted on
the web, or the step was resolved) is not sent at all: a mail asking a question that is already
answered costs the player a round trip for nothing.

Every mail is built from the recipient seat's own view (``view(seat)``), never the state, with
one fact of the server's own (``services/seat_view.py``): how many seats have sealed their
order of a simultaneous step ("2 of 3 have chosen"; never who). The
orders the server gave for a seat without asking (AutoOrder rows not yet mailed) are listed in
the seat's next decision, reminder, deadline or resolution mail; ``Envelope.auto_orders`` names
them, and delivery marks them mailed with the mail.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any, NamedTuple

from sqlalchemy import bindparam
from sqlmodel import Session, select

from server import i18n, secret_keys
from server.games import presenter
from server.mail import contexts, kinds, reply_address
from server.models import (AutoOrder, Extension, Game, GamePause, OutboxMessage, Seat, User,
                           Webhook, utcnow)
from server.services import (display_names, links, reach, rematch, retract, schedule_links,
                             seat_view, sign_in, standing, users, vacations)
from server.services.account_deletion import is_deleted


@dataclass(frozen=True)
class MailSettings:
    base_url: str
    domain: str
    sender: str
    sender_name: str
    secret: tuple[str, ...] | str  # the key ring, newest last (server/secret_keys.py)
    sign_in_minutes: int = 60  # how long a sign-in link works (SIGN_IN_MAX_AGE_SECONDS)
    # The receiving MTA's authserv-id (MAIL_AUTHSERV_ID): only its Authentication-Results
    # count, and a mail needs its aligned pass (server/mail/inbound/read.py); "": the default.
    authserv_id: str = ""
    # Issue 46, item 5: how long a decision mail waits after its player's game page was last
    # live (PRESENCE_DELAY_SECONDS; 0: it does not wait): services/presence.py.
    presence_delay: float = 120.0

    @classmethod
    def from_config(cls, cfg) -> "MailSettings":
        return cls(base_url=cfg["BASE_URL"], domain=cfg["MAIL_DOMAIN"], sender=cfg["MAIL_FROM"],
                   sender_name=cfg["MAIL_FROM_NAME"],
                   secret=secret_keys.ring(cfg),
                   sign_in_minutes=max(1, round(cfg["SIGN_IN_MAX_AGE_SECONDS"] / 60)),
                   authserv_id=(cfg.get("MAIL_AUTHSERV_ID") or "").strip(),
                   presence_delay=float(cfg.get("PRESENCE_DELAY_SECONDS", 120)))

    @property
    def links(self) -> contexts.Links:
        return contexts.Links(self.base_url)


@dataclass(frozen=True)
class Envelope:
    """One mail to write: to whom, in which language, from which template and context."""
    recipient: str  # the seat, "invite:<address>", "user:<id>" or "digest:<id>"
    address: str
    locale: str
    kind: str
    context: dict
    game_id: int | None = None
    seat: str | None = None  # the thread (one per game and seat) and the reply address
    user_id: int | None = None
    notes_shown: int | None = None  # the seat's notes the mail has now shown (Seat.notes_mailed)
    step: int | None = None  # the step the mail asks about, if it asks the seat to decide
    auto_orders: tuple[int, ...] = ()  # AutoOrder ids the mail tells of (marked mailed when sent)
    mail: bool = True  # False: the user wants no such mail; only their webhooks get it
    answers: str | None = None  # the Message-ID of the player's mail this one answers
    # The decisions (game id, seat, step) the mail tells its reader of beyond its own ``step``
    # (a digest's games): sent, it has reached their player (services/reach.py).
    reaches: tuple[tuple[int, str, int], ...] = ()
    # The address a reply goes to when it is not the seat's (a table-talk mail's is the chat's:
    # server/mail/chat_address.py).
    reply_address: str | None = None
    # It offers something that has a deadline (a move to take back): it comes even when its
    # news kind is muted, as the offer alone (never to a user who wants no mail at all).
    offer: bool = False

    @property
    def decisions(self) -> tuple[tuple[int, str, int], ...]:
        """The decisions whose player this mail reaches once the SMTP server takes it (or a
        webhook answers its post): the one it asks about, and ``reaches``."""
        own = ((self.game_id, self.seat, self.step),) if (
            self.step is not None and self.game_id is not None and self.seat) else ()
        return own + self.reaches


def envelopes(session: Session, row: OutboxMessage, settings: MailSettings) -> list[Envelope]:
    """The notifications ``row`` calls for now (none when it calls for none any more): the
    mails, and those only the user's webhooks get (``mail`` False: a user may want no mail,
    or only the digest, and still every notification on a Discord or Slack channel)."""
    build = _BUILDERS.get(row.kind)
    payload = {**row.payload, "outbox_id": row.id} if row.kind in _BY_ROW else row.payload
    found = [_with_settings_link(e, settings, row.id)
             for e in (build(session, payload, settings) if build else [])]
    found = _with_away(session, found)
    return [e if e.user_id is None or _wants(session.get(User, e.user_id), e.kind, e.offer)
            else replace(e, mail=False) for e in found]


def _with_away(session: Session, found: list[Envelope]) -> list[Envelope]:
    """Issue 27: each mail about a game in play tells its reader which other players of it
    are on vacation, and until when (in the reader's zone): ``away`` in the context. A
    finished game has no clock to stop: its mails (game over, a rematch) say nothing."""
    game_ids = {e.game_id for e in found if e.game_id is not None and e.seat}
    if not game_ids:
        return found
    now = utcnow()
    away = {g: vacations.away(session, g, now) for g in game_ids
            if session.get(Game, g).status == "active"}
    if not any(away.values()):
        return found
    out = []
    for e in found:
        others = [(s, u) for s, u in away.get(e.game_id, ()) if s != e.seat]
        if others and e.user_id is not None:
            user = session.get(User, e.user_id)
            names = presenter(session.get(Game, e.game_id).game_type).seat_names(
                e.locale)
            e = replace(e, context={**e.context, "away": [
                {"seat": names.get(s, s), "until": contexts.when(u, e.locale, user.time_zone)}
                for s, u in others]})
        out.append(e)
    return out


def _with_settings_link(envelope: Envelope, settings: MailSettings, mail: int) -> Envelope:
    """The envelope with its footer's mail settings link: this mail's own (links rotate,
    services/links.preferences_token); a mail to an address without an account keeps the
    plain page (it has nothing to set)."""
    if envelope.user_id is None:
        return envelope
    url = links.preferences_url(settings.secret, settings.base_url, envelope.user_id, mail)
    return replace(envelope, context={**envelope.context, "preferences_url": url})


def _seated(session: Session, game_id: int) -> list[tuple[Seat, User]]:
    return list(session.exec(select(Seat, User).join(User, User.id == Seat.user_id)
                             .where(Seat.game_id == game_id).order_by(Seat.id)).all())


# Queries of every decision mail, built once (SQLAlchemy caches their compiled form; building
# the expression itself is what a query cost here).
_SEAT_AND_USER = (select(Seat, User).join(User, User.id == Seat.user_id)
                  .where(Seat.game_id == bindparam("g"), Seat.seat == bindparam("s")))
_UNMAILED = (select(AutoOrder).where(AutoOrder.game_id == bindparam("g"),
                                     AutoOrder.seat == bindparam("s"),
                                     AutoOrder.mailed_at.is_(None))
             .order_by(AutoOrder.created_at, AutoOrder.id))


def _seat_and_user(session: Session, game_id: int, seat: str) -> tuple[Seat | None,
                                                                        User | None]:
    found = session.exec(_SEAT_AND_USER, params={"g": game_id, "s": seat}).first()
    return (found[0], found[1]) if found else (None, None)


# Mails about the account itself (a credential, an order refused for its safety, a webhook
# turned off): sent to the account's address whatever its mail setting, and never posted to a
# webhook (a channel others may read).
PRIVATE = ("sign_in", "reply_foreign", "webhook_disabled", "unsubscribed")

# Mails a digest reader does not get one by one: the digest lists the games waiting instead.
PER_DECISION = ("your_decision", "step_resolved")


def _reaches(session: Session, user: User, kind: str) -> bool:
    """Whether this kind of notification goes to the user at all: by mail (``_wants``), or to
    their webhooks, which get every notification but the digest whatever the mail setting."""
    return _wants(user, kind) or (kind != "digest" and session.exec(
        select(Webhook.id).where(Webhook.user_id == user.id, Webhook.disabled_at.is_(None))
        .limit(1)).first() is not None)


def _wants(user: User, kind: str, offer: bool = False) -> bool:
    """Whether the user's preference lets this kind of mail through: "none" stops every mail
    about games, "digest" the per-decision ones (the digest lists them instead); the digest
    itself goes only to those who chose it. Reminders and passed deadlines reach "every" and
    "digest" readers alike: a deadline may fall between two digests. An informational kind the
    user stopped (``User.muted_kinds``, server/mail/kinds.py) does not come, unless the mail
    carries an ``offer`` with a deadline (Envelope.offer)."""
    if kind in PRIVATE:
        return True  # asked for by the user, now
    if user.mail_mode == "none":
        return False
    if kinds.informational(kind) and kind in (user.muted_kinds or ()) and not offer:
        return False
    if kind == "digest":
        return user.mail_mode == "digest"
    return not (user.mail_mode == "digest" and kind in PER_DECISION)


def _name(user: User | None, shown_to: str | None = None) -> str:
    """The user's name in a mail, to themselves or to another reader (``shown_to``: that
    reader's locale; else the user's own): the name they chose, else a neutral "Player <id>",
    never their address (display_names.shown; issue 47: a greeting by the address's local
    part named them by what they never chose, and not as anybody else sees them)."""
    if user is None:
        return ""
    locale = shown_to or user.locale
    return display_names.shown(user, lambda message: i18n.gettext(message, locale))


def _unmailed(session: Session, game_id: int, seat: str) -> list[AutoOrder]:
    """The orders given for the seat without asking that no mail has told of yet, oldest
    first."""
    return list(session.exec(_UNMAILED, params={"g": game_id, "s": seat}).all())


def _told(rows: list[AutoOrder]) -> list[dict]:
    return [{"actions": list(r.actions or []), "source": r.source, "rule": r.rule}
            for r in rows]


def _choice_url(settings: MailSettings, game: Game, seat: str, step: int, user: User,
                notes: int):
    return links.choice_url(settings.secret, settings.base_url, game.id, seat, step, user.id,
                            notes)


class _Asked(NamedTuple):
    """A seat asked a decision now, as a decision mail or a reminder needs it."""
    game: Game
    seat: Seat
    user: User
    step: int
    state: Any
    view: dict
    notes: int  # the notes the seat's view has (Seat.notes_mailed once the mail is sent)
    auto: list[AutoOrder]  # orders given for the seat that no mail has told of yet

    def context(self, make, settings: MailSettings, *middle) -> dict:
        """The context ``make`` (contexts.your_decision, contexts.reminder) builds for this
        decision: what every mail asking it passes, and ``middle``, that kind's own."""
        game, seat, user = self.game, self.seat.seat, self.user
        return make(game.id, seat, self.step, self.view, _name(user), user.locale,
                    settings.links, *middle, notes_seen=self.seat.notes_mailed,
                    choice_url=_choice_url(settings, game, seat, self.step, user, self.notes),
                    auto_orders=_told(self.auto), time_zone=user.time_zone)

    def envelope(self, kind: str, context: dict) -> Envelope:
        seat, user = self.seat.seat, self.user
        return Envelope(seat, user.email, user.locale, kind, context, self.game.id, seat,
                        user.id, notes_shown=self.notes, step=self.step,
                        auto_orders=tuple(a.id for a in self.auto))


def _asked(session: Session, payload: dict, kind: str) -> _Asked | None:
    """The seat of ``payload`` if it is still asked at the payload's step and wants this kind
    of mail; None when not (the step moved on, or the seat sealed its order meanwhile)."""
    game = session.get(Game, payload["game_id"])
    seat_name, step = payload["seat"], payload["step"]
    if game is None or not game.state or game.status != "active":
        return None
    seen = seat_view.of(session, game, seat_name)
    if seen.step != step or not seen.your_move:
        return None
    seat, user = _seat_and_user(session, game.id, seat_name)
    if user is None or not _reaches(session, user, kind):
        return None
    view = seen.view
    return _Asked(seen.game, seat, user, step, seen.state, view, len(view.get("notes", [])),
                  _unmailed(session, game.id, seat_name))


def _your_decision(session, payload, settings) -> list[Envelope]:
    asked = _asked(session, payload, "your_decision")
    if asked is None:
        return []
    make = partial(contexts.your_decision, deadline_at=asked.game.deadline_at, now=utcnow())
    return [asked.envelope("your_decision", asked.context(make, settings))]


def _fallback(session: Session, game: Game, seat: str, state) -> dict:
    """What happens to the seat's decision when its deadline passes: the game's forfeit, the
    seat's filed default order (StandingOrder "deadline_default": order lines, the first legal
    one is applied), or the engine's safe default."""
    if game.on_deadline == "forfeit":
        return {"source": "forfeit", "actions": []}
    filed = standing.filed_lines(session, game.id, seat)
    if filed:
        return {"source": "filed", "actions": filed}
    return {"source": "default", "actions": [state.default_action(seat)]}


def _reminder(session, payload, settings) -> list[Envelope]:
    """A reminder of a decision still open before its deadline: only while the game is at that
    step and the seat is asked (else the decision is answered, and there is nothing to
    remind)."""
    asked = _asked(session, payload, "reminder")
    if asked is None:
        return []
    context = asked.context(
        contexts.reminder, settings, asked.game.deadline_at, utcnow(),
        int(payload.get("number", 1)), int(payload.get("of", 1)),
        _fallback(session, asked.game, asked.seat.seat, asked.state))
    return [asked.envelope("reminder", context)]


def _deadline_passed(session, payload, settings) -> list[Envelope]:
    """The deadline of a decision passed and the server acted for the seat (or the seat
    forfeited): always told (unless the player wants no mail at all), with the decision the
    seat has now, if any."""
    game = session.get(Game, payload["game_id"])
    seat_name = payload["seat"]
    if game is None or not game.state:
        return []
    seat, user = _seat_and_user(session, game.id, seat_name)
    if user is None or not _reaches(session, user, "deadline_passed"):
        return []
    seen = seat_view.of(session, game, seat_name)
    game, view, asked = seen.game, seen.view, seen.your_move
    notes = len(view.get("notes", []))
    auto = _unmailed(session, game.id, seat_name)
    # The order this mail is about is told in its own words, not again in the list.
    others = [a for a in auto
              if not (a.step == payload["step"] and a.source == payload["source"])]
    context = contexts.deadline_passed(
        game.id, seat_name, payload["step"], view, _name(user), user.locale, settings.links,
        list(payload.get("actions") or []), payload["source"], payload.get("rule") or "",
        game.step, asked, notes_seen=seat.notes_mailed,
        choice_url=(_choice_url(settings, game, seat_name, game.step, user, notes)
                    if asked else None),
        auto_orders=_told(others), deadline_at=game.deadline_at, now=utcnow(),
        time_zone=user.time_zone)
    return [Envelope(seat_name, user.email, user.locale, "deadline_passed", context, game.id,
                     seat_name, user.id, notes_shown=notes, step=game.step if asked else None,
                     auto_orders=tuple(a.id for a in auto))]


def _step_resolved(session, payload, settings) -> list[Envelope]:
    """A simultaneous step was resolved (Campaign Strategy or Debate cards revealed): what
    changed, to every seat not asked anything now. A seat that is asked gets a decision mail,
    which says what changed; so does a seat whose next decision mail is already written (it
    was asked since: the "nothing is asked of you now" mail would arrive just before it).
    (Not delayed on purpose: a Celery countdown holds the task in the worker, where a broker
    outage loses it until the relay; tests/workers/test_broker_outage.py.)"""
    game = session.get(Game, payload["game_id"])
    if game is None or game.status != "active" or not game.state:
        return []
    found = []
    decided = _decisions_written_after(session, game.id, payload.get("outbox_id"))
    for seat, user in _seated(session, game.id):
        seen = seat_view.of(session, game, seat.seat)
        if not _reaches(session, user, "step_resolved") or seen.your_move \
                or seat.seat in decided:
            continue
        view = seen.view
        notes = len(view.get("notes", []))
        auto = _unmailed(session, game.id, seat.seat)
        context = contexts.step_resolved(
            game.id, seat.seat, payload["step"], view, _name(user), user.locale,
            settings.links, notes_seen=seat.notes_mailed, auto_orders=_told(auto))
        found.append(Envelope(seat.seat, user.email, user.locale, "step_resolved", context,
                              game.id, seat.seat, user.id, notes_shown=notes,
                              auto_orders=tuple(a.id for a in auto)))
    return found


def _decisions_written_after(session: Session, game_id: int, outbox_id: int | None) -> set[str]:
    """The seats of ``game_id`` whose decision mail was written (outbox) after row
    ``outbox_id``."""
    if outbox_id is None:
        return set()
    rows = session.exec(select(OutboxMessage.payload).where(
        OutboxMessage.kind == "your_decision", OutboxMessage.id > outbox_id)).all()
    return {p["seat"] for p in rows if p.get("game_id") == game_id}


def _digest(session, payload, settings) -> list[Envelope]:
    """The day's digest of a user who chose it: every active game where one of their seats is
    asked something now; no mail when none is. A game whose last move handed the seat its
    decision and may still be taken back (issue 27: held, unseen) is left out: before that
    move the seat was asked nothing, and a digest describes only what is final (the row
    waits for such holds when it is written: services/digests.py)."""
    user = session.get(User, payload["user_id"])
    if user is None or not _wants(user, "digest"):
        return []
    waiting = []
    now = utcnow()
    for seat, game in session.exec(select(Seat, Game).join(Game, Game.id == Seat.game_id)
                                   .where(Seat.user_id == user.id, Game.status == "active")
                                   .order_by(Game.id, Seat.id)).all():
        seen = seat_view.of(session, game, seat.seat)  # a held move: the game before it
        if not seen.your_move or retract.held_for(session, game, seat.seat, now) is not None:
            continue
        view = seen.view
        notes = len(view.get("notes", []))
        waiting.append({"game_id": game.id, "game": game.game_type, "seat": seat.seat,
                        "step": seen.step, "prompt": view["prompt_message"],
                        "legal_actions": list(view["legal_actions"]),
                        "deadline_at": seen.deadline_at, "view": view,
                        "choice_url": _choice_url(settings, game, seat.seat, seen.step, user,
                                                  notes)})
    if not waiting:
        return []
    context = contexts.digest(_name(user), payload["day"], waiting, user.locale, settings.links,
                              utcnow(), time_zone=user.time_zone)
    return [Envelope(f"digest:{user.id}", user.email, user.locale, "digest", context, None,
                     None, user.id,
                     reaches=tuple((w["game_id"], w["seat"], w["step"]) for w in waiting))]


def _order_answer(session, payload, settings) -> list[Envelope]:
    """The answer to an order by reply: always sent (the player is waiting for it, whatever
    their mail preference), with the decision the seat has now. Its template says what was
    done (order_received: applied or sealed) or why nothing was (order_refused). While
    another seat's move may be taken back, the game before it (services/seat_view.py): a
    reply of the next player meanwhile is never answered with the move, nor makes it seen."""
    seat_name = payload["seat"]
    game = session.get(Game, payload["game_id"])
    seat, user = _seat_and_user(session, payload["game_id"], seat_name)
    if game is None or user is None or not game.state:
        return []
    seen = seat_view.of(session, game, seat_name)
    game, view, asked = seen.game, seen.view, seen.your_move
    notes = len(view.get("notes", []))
    if not asked:
        view = {**view, "legal_actions": []}
    # Issue 27: a move by mail that may still be taken back is offered to be, by a reply:
    # with the receipts muted, the offer alone still comes (it has a deadline).
    take_back = retract.pending(session, game, seat_name) \
        if payload["status"] == "applied" else None
    kind = contexts.order_kind(payload["status"])
    context = contexts.order_answer(
        game.id, seat_name, view, _name(user), user.locale, settings.links, payload, game.step,
        notes_seen=seat.notes_mailed,
        choice_url=_choice_url(settings, game, seat_name, game.step, user, notes),
        time_zone=user.time_zone, take_back=take_back, now=utcnow(),
        offer_only=take_back is not None and not _wants(user, kind))
    return [Envelope(seat_name, user.email, user.locale, kind,
                     context, game.id, seat_name, user.id, notes_shown=notes,
                     step=game.step if asked else None,
                     answers=payload.get("reply_message_id"), offer=take_back is not None)]


def _reply_unknown(session, payload, settings) -> list[Envelope]:
    user = session.get(User, payload["user_id"])
    if user is None:
        return []
    return [Envelope(f"user:{user.id}", user.email, user.locale, "reply_unknown",
                     contexts.reply_unknown(_name(user), payload["address"], user.locale,
                                            settings.links, None),
                     None, None, user.id)]


def _reply_foreign(session, payload, settings) -> list[Envelope]:
    """The seat's player told that an order for the seat came from another address and was
    not applied: sent whatever the mail setting (it is about the account's safety), never to a
    webhook (it names the game and seat to whoever reads the channel)."""
    user = session.get(User, payload["user_id"])
    game = session.get(Game, payload["game_id"])
    if user is None or game is None:
        return []
    return [Envelope(f"user:{user.id}", user.email, user.locale, "reply_foreign",
                     contexts.reply_foreign(_name(user), game.id, payload["seat"], user.locale,
                                            settings.links, None,
                                            game_type=game.game_type),
                     None, None, user.id)]


def _game_started(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None:
        return []
    seated = _seated(session, game.id)
    every = list(session.exec(select(Seat.seat).where(Seat.game_id == game.id)
                              .order_by(Seat.id)).all())
    return [Envelope(seat.seat, user.email, user.locale, "game_started",
                     contexts.game_started(game.id, seat.seat, _name(user), game.seed_hash,
                                           user.locale, settings.links,
                                           None, game_type=game.game_type,
                                           seats=every, options=game.options),
                     game.id, seat.seat, user.id)
            for seat, user in seated
            if _reaches(session, user, "game_started")]


def _game_over(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None or game.status != "finished" or not game.state:
        return []
    return [Envelope(seat.seat, user.email, user.locale, "game_over",
                     {**contexts.game_over(game.id, seat.seat,
                                           seat_view.of(session, game, seat.seat).state
                                           .view(seat.seat),
                                           game.result, game.seed, game.seed_hash, _name(user),
                                           user.locale, settings.links, None),
                      # Issue 27: a signed link offering a rematch (its page asks first).
                      "rematch_url": rematch.link_url(settings.secret, settings.base_url,
                                                      game.id, user.id, "offer")},
                     game.id, seat.seat, user.id)
            for seat, user in _seated(session, game.id)
            if _reaches(session, user, "game_over")]


def _seat_joined(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None or game.created_by is None or game.created_by == payload.get("user_id"):
        return []
    seated = _seated(session, game.id)
    host = session.get(User, game.created_by)
    if host is None or not _reaches(session, host, "seat_joined"):
        return []
    joined = session.get(User, payload.get("user_id"))
    host_seat = next((s.seat for s, u in seated if u.id == host.id), None)
    all_seated = len(seated) == len(session.exec(select(Seat.id).where(
        Seat.game_id == game.id)).all())
    return [Envelope(host_seat or f"user:{host.id}", host.email, host.locale, "seat_joined",
                     contexts.seat_joined(game.id, host_seat, _name(host),
                                          _name(joined, host.locale),
                                          payload["seat"], all_seated, host.locale,
                                          settings.links, None,
                                          game_type=game.game_type),
                     game.id, host_seat, host.id)]


def _invitation(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None or game.status != "open":
        return []
    seat = session.exec(select(Seat).where(Seat.game_id == game.id,
                                           Seat.seat == payload["seat"])).first()
    if seat is None or seat.user_id is not None or seat.invite_email != payload["email"]:
        return []  # taken meanwhile, or invited someone else
    invitee = users.find_user(session, payload["email"])
    if invitee is not None and invitee.mail_mode == "none":
        return []
    locale = invitee.locale if invitee else "en"
    host = session.get(User, game.created_by) if game.created_by else None
    # An address without an account gets the plain preferences page (it has nothing to set).
    return [Envelope(f"invite:{payload['email']}", payload["email"], locale, "invitation",
                     contexts.invitation(game.id, payload["seat"], _name(host, locale), locale,
                                         settings.links, None,
                                         game_type=game.game_type, options=game.options),
                     game.id, None, invitee.id if invitee else None)]


def _sign_in(session, payload, settings) -> list[Envelope]:
    """The sign-in link a user asked for on the sign-in page: sent whatever their mail
    setting (they asked for this very mail), to the address of their account."""
    # No user: a stranger asked a members-only club (services/members.py): no mail.
    user = session.get(User, payload["user_id"]) if payload.get("user_id") else None
    if user is None or is_deleted(user):    # deleted since: its link would be void
        return []
    # The session epoch when the link was asked for: void once the account signs out
    # everywhere (rows written before the epoch was kept: not checked).
    link = sign_in.url(settings.secret, settings.base_url, user.id, payload["nonce"],
                       payload.get("next") or "/", payload.get("epoch"))
    context = contexts.sign_in(_name(user), user.locale, settings.links, link,
                               settings.sign_in_minutes, None)
    return [Envelope(f"sign-in:{payload['nonce']}", user.email, user.locale, "sign_in",
                     context, None, None, user.id)]


def _webhook_disabled(session, payload, settings) -> list[Envelope]:
    """A user told that one of their webhooks was turned off (server/mail/webhook_queue.py)."""
    from server.services.preferences import failure_kind, masked  # (it imports this module)

    user = session.get(User, payload["user_id"])
    hook = session.get(Webhook, payload["webhook_id"])
    if user is None or hook is None or hook.disabled_at is None:
        return []  # removed, or turned back on, meanwhile
    error = failure_kind(hook.last_error)
    return [Envelope(f"user:{user.id}", user.email, user.locale, "webhook_disabled",
                     contexts.webhook_disabled(_name(user), masked(hook.url), hook.failures,
                                               error, user.locale, settings.links),
                     None, None, user.id)]


def _not_reached(session, payload, settings) -> list[Envelope]:
    """The other seats told, once, that the deadline of a decision waits for a seat no channel
    has reached since it opened (services/deadlines.py); nothing when the step has moved on
    or the seat has been reached meanwhile."""
    game = session.get(Game, payload["game_id"])
    if game is None or game.status != "active" or game.step != payload["step"]:
        return []
    seated = _seated(session, game.id)
    waited = next(((s, u) for s, u in seated if s.seat == payload["seat"]), None)
    if waited is None or reach.reached(game, waited[0]):
        return []
    hours = int(reach.grace(game).total_seconds() // 3600)
    return [Envelope(seat.seat, user.email, user.locale, "not_reached",
                     contexts.not_reached(game.id, seat.seat, _name(user), user.locale,
                                          settings.links, game_type=game.game_type,
                                          waited_seat=waited[0].seat,
                                          waited_name=_name(waited[1], user.locale),
                                          deadline_at=game.deadline_at, grace_hours=hours,
                                          time_zone=user.time_zone),
                     game.id, seat.seat, user.id)
            for seat, user in seated
            if user.id != waited[1].id and _reaches(session, user, "not_reached")]


def _unsubscribed(session, payload, settings) -> list[Envelope]:
    """The confirmation of a one-click unsubscribe (services/preferences.one_click): what
    changed, what still comes, how to undo it. Sent whatever the mail setting (it is about the
    account, and a needed mail), never to a webhook, and with no List-Unsubscribe header
    (server/mail/delivery.py): a click on it could not loop."""
    user = session.get(User, payload["user_id"])
    if user is None:
        return []
    return [Envelope(f"user:{user.id}", user.email, user.locale, "unsubscribed",
                     contexts.unsubscribed(_name(user), payload["change"], payload.get("kind"),
                                           user.mail_mode, list(user.muted_kinds or ()),
                                           user.locale, settings.links),
                     None, None, user.id)]


def _schedule(session, payload, settings) -> list[Envelope]:
    """A pause or an extension asked (to the other players, each with signed answer links,
    while it still waits for an answer), or agreed, refused, expired or ended (to every
    player): services/pauses.py, services/extensions.py."""
    game = session.get(Game, payload["game_id"])
    if game is None:
        return []
    kind, event, by = ("pause" if "pause_id" in payload else "extension"), \
        payload["event"], payload["by"]
    row = session.get(GamePause, payload["pause_id"]) if kind == "pause" else \
        session.get(Extension, payload["extension_id"])
    if row is None or (event == "asked" and row.status != "asked"):
        return []
    seated = _seated(session, game.id)
    by_user = next((u for s, u in seated if s.seat == by), None)
    # Who asked (``by`` is who answered, for an answer: issue 46, item 4).
    asker = row.asked_by if kind == "pause" else row.seat
    asker_user = next((u for s, u in seated if s.seat == asker), None)
    found = []
    for seat, user in seated:
        if event == "asked" and (seat.seat == by or seat.seat in getattr(row, "agreed", ())):
            continue
        if not _reaches(session, user, kind):
            continue
        urls = {}
        if event == "asked":
            urls = {key: schedule_links.url(settings.base_url, game.id, schedule_links.make(
                settings.secret, schedule_links.Answer(kind, game.id, row.id, seat.seat,
                                                       user.id, agree)))
                    for key, agree in (("agree_url", True), ("refuse_url", False))}
        context = contexts.schedule(
            game.id, seat.seat, _name(user), user.locale, settings.links,
            game_type=game.game_type, kind=kind, event=event, by_seat=by,
            by_name=_name(by_user, user.locale) if by_user else "",
            asker_seat=asker,
            asker_name=_name(asker_user, user.locale) if asker_user else "",
            deadline_at=game.deadline_at if game.status == "active" else None,
            hours=getattr(row, "hours", 0), time_zone=user.time_zone, **urls)
        found.append(Envelope(seat.seat, user.email, user.locale, kind, context, game.id,
                              seat.seat, user.id))
    return found


def _rematch(session, payload, settings) -> list[Envelope]:
    """A rematch offered, accepted, withdrawn or made (server/services/rematch.py): every
    player but the one who did it is told; while the offer is open, those who have not said
    yes get a signed link to accept; once made, everyone gets the new game's address."""
    game = session.get(Game, payload["game_id"])
    offer = rematch.current(session, payload["game_id"]) if game else None
    if game is None or offer is None:
        return []
    event = payload["event"]
    actor = session.get(User, payload["by"]) if payload.get("by") else None
    found = []
    for seat, user in _seated(session, game.id):
        if (actor is not None and user.id == actor.id) or not _reaches(session, user,
                                                                        "rematch"):
            continue
        accept = (rematch.link_url(settings.secret, settings.base_url, game.id, user.id,
                                   "accept")
                  if offer.status == "open" and event != "withdrawn"
                  and user.id not in offer.accepted else None)
        context = contexts.rematch(
            game.id, seat.seat, _name(user), user.locale, settings.links,
            game_type=game.game_type, event=event,
            who=_name(actor, user.locale) if actor else "", swap=offer.swap,
            accept_url=accept, new_game_id=payload.get("new_game_id"))
        found.append(Envelope(seat.seat, user.email, user.locale, "rematch", context, game.id,
                              seat.seat, user.id))
    return found


def _table_talk(session, payload, settings) -> list[Envelope]:
    """Issue 27: a reader's unread table talk (server/mail/chat_mail.py)."""
    from server.mail import chat_mail
    return [Envelope(**found) for found in chat_mail.table_talk(session, payload, settings)]


def _chat_report(session, payload, settings) -> list[Envelope]:
    """Issue 27: a reported chat line, to the operator (server/mail/chat_mail.py)."""
    from server.mail import chat_mail
    return [Envelope(**found) for found in chat_mail.chat_report(session, payload, settings)]


def _chat_answer(session, payload, settings) -> list[Envelope]:
    """Issue 27: a reply to a table-talk mail that was not posted (server/mail/chat_mail.py)."""
    from server.mail import chat_mail
    return [Envelope(**found) for found in chat_mail.chat_answer(session, payload, settings)]


def _absence(session, payload, settings) -> list[Envelope]:
    """Issue 46, item 1: a seat absent, and what became of it (server/mail/absence_mail.py)."""
    from server.mail import absence_mail
    return [Envelope(**found) for found in absence_mail.absence(session, payload, settings)]


def _absence_invitation(session, payload, settings) -> list[Envelope]:
    """Issue 46, item 1: a replacement invited by address (server/mail/absence_mail.py)."""
    from server.mail import absence_mail
    return [Envelope(**found) for found in absence_mail.invitation(session, payload, settings)]


# The kinds whose builder is told its row's id (``outbox_id``): the step's resolution looks
# for decision mails written after it.
_BY_ROW = ("step_resolved", "table_talk")
_BUILDERS = {"your_decision": _your_decision, "game_started": _game_started,
             "game_over": _game_over, "seat_joined": _seat_joined, "invitation": _invitation,
             "order_answer": _order_answer, "reply_unknown": _reply_unknown,
             "reply_foreign": _reply_foreign,
             "reminder": _reminder, "deadline_passed": _deadline_passed,
             "step_resolved": _step_resolved, "digest": _digest, "sign_in": _sign_in,
             "webhook_disabled": _webhook_disabled, "not_reached": _not_reached,
             "pause": _schedule, "extension": _schedule,
             "unsubscribed": _unsubscribed, "rematch": _rematch,
             "table_talk": _table_talk, "chat_report": _chat_report,
             "chat_answer": _chat_answer,
             "absence": _absence, "absence_invitation": _absence_invitation}


def reply_to(settings: MailSettings, envelope: Envelope) -> str | None:
    """The seat's reply address, for mails a player may answer with an order (or the mail's
    own, ``Envelope.reply_address``: a table-talk mail's goes to the chat)."""
    if envelope.reply_address:
        return envelope.reply_address
    if envelope.seat is None or envelope.user_id is None or envelope.game_id is None:
        return None
    return reply_address.address(settings.secret, settings.domain, envelope.game_id,
                                 envelope.seat, envelope.user_id)
