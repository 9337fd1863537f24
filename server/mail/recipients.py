"""Who gets which mail for an outbox row, and what it says: the envelopes of a notification.

Read from the database in the sending task, never earlier, so a mail says what is true when it
goes out. A "your decision" mail for a step that has moved on (the seat acted on the web, or
the step was resolved) is not sent at all: a mail asking a question that is already answered
costs the player a round trip for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine.core as game_engine
from sqlmodel import Session, select

from server.mail import contexts, reply_address
from server.models import Game, OutboxMessage, Seat, User
from server.services import games, links, users



@dataclass(frozen=True)
class MailSettings:
    base_url: str
    domain: str
    sender: str
    sender_name: str
    secret: str

    @classmethod
    def from_config(cls, cfg) -> "MailSettings":
        return cls(base_url=cfg["BASE_URL"], domain=cfg["MAIL_DOMAIN"], sender=cfg["MAIL_FROM"],
                   sender_name=cfg["MAIL_FROM_NAME"],
                   secret=cfg["SECRET_KEY"])

    @property
    def links(self) -> contexts.Links:
        return contexts.Links(self.base_url)


@dataclass(frozen=True)
class Envelope:
    """One mail to write: to whom, in which language, from which template and context."""
    recipient: str  # the seat, or "invite:<address>"
    address: str
    locale: str
    kind: str
    context: dict
    game_id: int | None = None
    seat: str | None = None  # the thread (one per game and seat) and the reply address
    user_id: int | None = None
    notes_shown: int | None = None  # a decision mail: the seat's notes it has now shown
    step: int | None = None  # the step the mail asks about, if it asks the seat to decide


def envelopes(session: Session, row: OutboxMessage, settings: MailSettings) -> list[Envelope]:
    """The mails ``row`` calls for now (none when it calls for none any more)."""
    build = _BUILDERS.get(row.kind)
    return build(session, row.payload, settings) if build else []


def _seated(session: Session, game_id: int) -> list[tuple[Seat, User]]:
    return list(session.exec(select(Seat, User).join(User, User.id == Seat.user_id)
                             .where(Seat.game_id == game_id).order_by(Seat.id)).all())


def _seat_and_user(session: Session, game_id: int, seat: str) -> tuple[Seat | None,
                                                                        User | None]:
    return next(((s, u) for s, u in _seated(session, game_id) if s.seat == seat), (None, None))


def _wants(user: User, kind: str) -> bool:
    """Whether the user's preference lets this kind of mail through: "none" stops every mail
    about games, "digest" the per-decision ones (the digest lists them instead)."""
    if user.mail_mode == "none":
        return False
    return not (user.mail_mode == "digest" and kind == "your_decision")


def _name(user: User | None) -> str:
    return (user.display_name or user.email.split("@")[0]) if user else ""


def _your_decision(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    seat_name, step = payload["seat"], payload["step"]
    # Not asked any more: the step moved on, or the seat sealed its order before this mail.
    if game is None or game.step != step or not games.your_move(session, game, seat_name):
        return []
    seat, user = _seat_and_user(session, game.id, seat_name)
    if user is None or not _wants(user, "your_decision"):
        return []
    view = game_engine.from_dict(game.state).view(seat_name)
    notes = len(view.get("notes", []))
    context = contexts.your_decision(
        game.id, seat_name, step, view, _name(user), user.locale, settings.links,
        notes_seen=seat.notes_mailed, choice_url=links.choice_url(
            settings.secret, settings.base_url, game.id, seat_name, step, user.id, notes))
    return [Envelope(seat_name, user.email, user.locale, "your_decision", context, game.id,
                     seat_name, user.id, notes_shown=notes, step=step)]


def _order_answer(session, payload, settings) -> list[Envelope]:
    """The answer to an order by reply: always sent (the player is waiting for it, whatever
    their mail preference), with the decision the seat has now."""
    game = session.get(Game, payload["game_id"])
    seat_name = payload["seat"]
    seat, user = _seat_and_user(session, payload["game_id"], seat_name)
    if game is None or user is None or not game.state:
        return []
    view = game_engine.from_dict(game.state).view(seat_name)
    notes = len(view.get("notes", []))
    asked = games.your_move(session, game, seat_name)
    if not asked:
        view = {**view, "legal_actions": []}
    context = contexts.order_answer(
        game.id, seat_name, view, _name(user), user.locale, settings.links, payload, game.step,
        notes_seen=seat.notes_mailed, choice_url=links.choice_url(
            settings.secret, settings.base_url, game.id, seat_name, game.step, user.id, notes))
    return [Envelope(seat_name, user.email, user.locale, "order_answer", context, game.id,
                     seat_name, user.id, notes_shown=notes, step=game.step if asked else None)]


def _reply_unknown(session, payload, settings) -> list[Envelope]:
    user = session.get(User, payload["user_id"])
    if user is None:
        return []
    return [Envelope(f"user:{user.id}", user.email, user.locale, "reply_unknown",
                     contexts.reply_unknown(_name(user), payload["address"], user.locale,
                                            settings.links), None, None, user.id)]


def _game_started(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None:
        return []
    return [Envelope(seat.seat, user.email, user.locale, "game_started",
                     contexts.game_started(game.id, seat.seat, _name(user), game.seed_hash,
                                           user.locale, settings.links),
                     game.id, seat.seat, user.id)
            for seat, user in _seated(session, game.id) if _wants(user, "game_started")]


def _game_over(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None or game.status != "finished" or not game.state:
        return []
    state = game_engine.from_dict(game.state)
    return [Envelope(seat.seat, user.email, user.locale, "game_over",
                     contexts.game_over(game.id, seat.seat, state.view(seat.seat), game.result,
                                        game.seed, game.seed_hash, _name(user), user.locale,
                                        settings.links),
                     game.id, seat.seat, user.id)
            for seat, user in _seated(session, game.id) if _wants(user, "game_over")]


def _seat_joined(session, payload, settings) -> list[Envelope]:
    game = session.get(Game, payload["game_id"])
    if game is None or game.created_by is None or game.created_by == payload.get("user_id"):
        return []
    seated = _seated(session, game.id)
    host = session.get(User, game.created_by)
    if host is None or not _wants(host, "seat_joined"):
        return []
    joined = session.get(User, payload.get("user_id"))
    host_seat = next((s.seat for s, u in seated if u.id == host.id), None)
    all_seated = len(seated) == len(session.exec(select(Seat.id).where(
        Seat.game_id == game.id)).all())
    return [Envelope(host_seat or f"user:{host.id}", host.email, host.locale, "seat_joined",
                     contexts.seat_joined(game.id, host_seat, _name(host), _name(joined),
                                          payload["seat"], all_seated, host.locale,
                                          settings.links),
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
    return [Envelope(f"invite:{payload['email']}", payload["email"], locale, "invitation",
                     contexts.invitation(game.id, payload["seat"], _name(host), locale,
                                         settings.links),
                     game.id, None, invitee.id if invitee else None)]


_BUILDERS = {"your_decision": _your_decision, "game_started": _game_started,
             "game_over": _game_over, "seat_joined": _seat_joined, "invitation": _invitation,
             "order_answer": _order_answer, "reply_unknown": _reply_unknown}


def reply_to(settings: MailSettings, envelope: Envelope) -> str | None:
    """The seat's reply address, for mails a player may answer with an order."""
    if envelope.seat is None or envelope.user_id is None or envelope.game_id is None:
        return None
    return reply_address.address(settings.secret, settings.domain, envelope.game_id,
                                 envelope.seat, envelope.user_id)
