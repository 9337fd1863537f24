"""The calendar feed: an iCalendar document (RFC 5545, the ``icalendar`` library) of the
reader's pending decisions that have a deadline, one event per seat, at a signed URL a
calendar app fetches without a session.

The URL carries ``[user id, key]`` signed with the installation's secret (itsdangerous, salted
for this use only: a decision link or a mail settings link is no feed URL, nor the reverse).
The key is a CalendarFeed row's; making a new one voids every URL made before (revoking).
Reading the feed changes nothing. An event says the game, the seat, what is asked (the seat's
own prompt) and the game page's link: nothing the seat may not see on its page."""

from __future__ import annotations

import hmac
import secrets
from datetime import timedelta

from icalendar import Calendar, Event
from itsdangerous import BadSignature, URLSafeSerializer
from sqlmodel import Session, select

from server.games import presenter
from server.i18n import game_text
from server.models import CalendarFeed, Game, Seat, User, aware, utcnow
from server.secret_keys import Secret
from server.services import seat_view

SALT = "whistlestop-calendar-feed"
PATH = "/calendar/{token}.ics"


def _serializer(secret: Secret) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt=SALT)


def renew(session: Session, user_id: int) -> CalendarFeed:
    """A new key for the user's feed (the URLs made before stop working); the caller commits."""
    feed = session.get(CalendarFeed, user_id) or CalendarFeed(user_id=user_id, key="")
    feed.key, feed.created_at = secrets.token_urlsafe(24), utcnow()
    session.add(feed)
    session.flush()
    return feed


def url(session: Session, user_id: int, secret: Secret, base_url: str) -> str | None:
    """The user's feed URL, or None when they have not made one."""
    feed = session.get(CalendarFeed, user_id)
    if feed is None:
        return None
    token = _serializer(secret).dumps([user_id, feed.key])
    return base_url.rstrip("/") + PATH.format(token=token)


def reader(session: Session, token: str, secret: Secret) -> User | None:
    """The user a feed token is for, if it is signed by us and its key is still theirs."""
    try:
        user_id, key = _serializer(secret).loads(token)
    except (BadSignature, ValueError, TypeError):
        return None
    if not isinstance(user_id, int) or not isinstance(key, str):
        return None
    feed = session.get(CalendarFeed, user_id)
    if feed is None or not hmac.compare_digest(feed.key.encode(), key.encode()):
        return None
    return session.get(User, user_id)


def calendar(session: Session, user: User, base_url: str, domain: str) -> bytes:
    """The feed of ``user``'s pending decisions with a deadline, in their language."""
    cal = Calendar()
    cal.add("prodid", "-//Whistlestop//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "Whistlestop")
    loc = user.locale or "en"
    rows = session.exec(select(Seat, Game).join(Game, Game.id == Seat.game_id)
                        .where(Seat.user_id == user.id, Game.status == "active")
                        .order_by(Game.id)).all()
    for seat, game in rows:
        if not game.state:
            continue
        # As the seat may see the game now: a decision handed over by a move that may still
        # be taken back is not theirs yet, and has no deadline (services/seat_view.py).
        seen = seat_view.of(session, game, seat.seat)
        if seen.deadline_at is None or not seen.your_move:
            continue
        state = seen.state
        shown = presenter(game.game_type)
        title = shown.title(loc)
        seat_name = shown.seat_names(loc).get(seat.seat, seat.seat)
        asked = game_text.text(state.prompt(seat.seat), loc, game.game_type)
        link = f"{base_url.rstrip('/')}/games/{game.id}"
        deadline = aware(seen.deadline_at)
        event = Event()
        event.add("uid", f"game-{game.id}-step-{seen.step}-{seat.seat}@{domain}")
        event.add("dtstamp", utcnow())
        event.add("dtstart", deadline)
        event.add("dtend", deadline + timedelta(minutes=15))
        event.add("summary", f"{title} #{game.id} ({seat_name}): {asked}")
        event.add("description", f"{asked}\n{link}")
        event.add("url", link)
        cal.add_component(event)
    return cal.to_ical()
