"""Your data: everything the server holds about an account, as one JSON document
(GET /api/v1/users/me/export, the "Your data" page's download).

The document is a dict of sections, each made by a function registered here with
``register(name, build)``; ``build(session, user) -> JSON-able data``. This module registers
the sections it knows (account, tokens, games, notes, webhooks, following); another service
adds its own at import, without this module naming it: the chat of issue 27 registers
``register("chat", messages_of_user)`` in its own service module (server/services/chat.py),
listing the user's messages with their game, time and text. A section never holds a secret
(a token, a signed link, a calendar key) nor anything another seat may not see: a game's log
is the one the user's seat's view shows."""

from __future__ import annotations

from typing import Any, Callable

from sqlmodel import Session, select

from server.models import (ApiToken, AutoOrder, CalendarFeed, Game, Order, Seat, Spectator,
                           User, Webhook, aware, utcnow)
from server.services import notes, seat_view, standing

FORMAT = "whistlestop-export/1"

Build = Callable[[Session, User], Any]
SECTIONS: dict[str, Build] = {}


def register(name: str, build: Build) -> Build:
    """Add (or replace) the section ``name`` of every export."""
    SECTIONS[name] = build
    return build


def export(session: Session, user: User) -> dict:
    """The whole document for ``user`` (a User row), sections in registration order."""
    return {"format": FORMAT, "exported_at": _time(utcnow()),
            **{name: build(session, user) for name, build in SECTIONS.items()}}


def _time(moment) -> str | None:
    return aware(moment).isoformat() if moment is not None else None


def _account(session: Session, user: User) -> dict:
    feed = session.get(CalendarFeed, user.id)
    return {"id": user.id, "email": user.email, "display_name": user.display_name,
            "locale": user.locale, "time_zone": user.time_zone, "mail_mode": user.mail_mode,
            "muted_kinds": list(user.muted_kinds or []),
            "created_at": _time(user.created_at),
            "email_verified_at": _time(user.email_verified_at),
            "calendar_feed_made_at": _time(feed.created_at) if feed else None}


def _tokens(session: Session, user: User) -> list[dict]:
    rows = session.exec(select(ApiToken).where(ApiToken.user_id == user.id)
                        .order_by(ApiToken.id)).all()
    return [{"id": t.id, "created_at": _time(t.created_at),
             "last_used_at": _time(t.last_used_at)} for t in rows]


def _games(session: Session, user: User) -> list[dict]:
    seats = session.exec(select(Seat).where(Seat.user_id == user.id).order_by(Seat.game_id)).all()
    out = []
    for seat in seats:
        game = session.get(Game, seat.game_id)
        orders = session.exec(select(Order).where(Order.game_id == game.id,
                                                  Order.seat == seat.seat)
                              .order_by(Order.step)).all()
        auto = session.exec(select(AutoOrder).where(AutoOrder.game_id == game.id,
                                                    AutoOrder.seat == seat.seat)
                            .order_by(AutoOrder.id)).all()
        out.append({
            "game_id": game.id, "game_type": game.game_type, "seat": seat.seat,
            "status": game.status, "options": game.options, "public": game.public,
            "created_by_you": game.created_by == user.id,
            "joined_at": _time(seat.joined_at), "created_at": _time(game.created_at),
            "finished_at": _time(game.finished_at), "result": game.result,
            "orders": [{"step": o.step, "actions": list(o.actions), "status": o.status,
                        "at": _time(o.updated_at)} for o in orders],
            "orders_given_for_you": [{"step": a.step, "actions": list(a.actions),
                                      "source": a.source, "at": _time(a.created_at)}
                                     for a in auto],
            "standing_orders": standing.of_game(session, game.id).get(seat.seat, {}),
            # the log as the seat may see it now (complete, with the seed, once finished;
            # never a move another seat may still take back: services/seat_view.py)
            "log": seat_view.of(session, game, seat.seat).log(),
        })
    return out


def _notes(session: Session, user: User) -> list[dict]:
    return [{"game_id": n.game_id, "seat": n.seat, "text": n.text,
             "updated_at": _time(n.updated_at)} for n in notes.of_user(session, user.id)]


def _webhooks(session: Session, user: User) -> list[dict]:
    rows = session.exec(select(Webhook).where(Webhook.user_id == user.id)
                        .order_by(Webhook.id)).all()
    return [{"id": w.id, "url": w.url, "flavor": w.flavor, "created_at": _time(w.created_at),
             "disabled_at": _time(w.disabled_at)} for w in rows]


def _following(session: Session, user: User) -> list[int]:
    return list(session.exec(select(Spectator.game_id).where(Spectator.user_id == user.id)
                             .order_by(Spectator.game_id)).all())


register("account", _account)
register("tokens", _tokens)
register("games", _games)
register("notes", _notes)
register("webhooks", _webhooks)
register("following", _following)
