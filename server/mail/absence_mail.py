"""The mails of departed and vanished players (issue 46, item 1; services/absences.py): the
builders of the outbox kinds "absence" and "absence_invitation", and their contexts.

An "absence" row ({game_id, absence_id, seat, event, by}) is mailed to every seated player of
the game but the one who did it (``by``): the absent player too, while they hold their seat
(a silent one is told plainly that they missed the game's number of deadlines, what the others
may now do, and how to be back). For "left", "silent", "asked_end" and "bot", while the absence
is open, the mail lists what its reader may choose now (absences.choices_for), each with a
signed link (services/absence_links.py) and the words a reply writes for it
(server/mail/absence_reply.py). Built when sent: it says what is true then (a settled absence
offers nothing).

A row with event "answer" is the answer to a reply that chose (server/mail/absence_reply.py):
to the replier's seat only, in the reply's thread: what was done, or why not and what may be
chosen instead.

An "absence_invitation" row ({game_id, absence_id, seat, email, code, by}) is mailed to the
invited address, which is not proven: it says only what a stranger may know (who invited them,
the game's title and number, the seat) and the link to take the seat, while the absence is
open."""

from __future__ import annotations

from sqlmodel import Session, select

from server.games import presenter
from server.i18n import gettext
from server.mail import absence_reply, contexts
from server.models import Game, Seat, SeatAbsence, User
from server.services import absence_links, absences, display_names, users

# The events whose mail offers the reader's choices, while the absence is open.
OFFERING = ("left", "silent", "asked_end", "bot", "answer")


def take_seat_url(base_url: str, game_id: int, code: str) -> str:
    """The page with which an invited person takes the seat (server/web: the game's side)."""
    return f"{base_url}/games/{game_id}/take-seat/{code}"


def choices(session: Session, settings, game: Game, absence: SeatAbsence | None, seat: str,
            user_id: int, locale: str) -> list[dict]:
    """What the reader of ``seat`` may choose now about ``absence``: each with its words, its
    signed link and the words a reply writes for it."""
    if absence is None:
        return []
    out = []
    for choice in absences.choices_for(session, game, absence, seat):
        token = absence_links.make(settings.secret, absence_links.Link(
            game.id, absence.id, seat, user_id, choice, absence_links.invited_mark(absence)))
        out.append({"choice": choice, "label": gettext(absence_links.LABELS[choice], locale),
                    "url": absence_links.url(settings.base_url, game.id, token),
                    "reply": absence_reply.words(choice, locale)})
    return out


def context(game_id: int, seat: str, player_name: str, locale: str, links: contexts.Links,
            preferences_url: str | None = None, *, game_type: str, event: str,
            absent_seat: str | None, absent_name: str = "", by_seat: str | None = None,
            by_name: str = "", two: bool = True, missed: int = 0, days: int = 0,
            asked: list[str] = (), offered: list[dict] = (), new_name: str = "",
            answer: dict | None = None, take_seat: str = "") -> dict:
    """An "absence" mail's context for the reader of ``seat``: ``event`` about the absent seat
    ``absent_seat`` (its player ``absent_name``, "" once they left), done by the player of
    ``by_seat`` (``by_name``; None: by the server); ``mine``: the reader is the absent seat
    (the templates then say "you"); ``by_me``: the reader did it (an answer to their reply);
    ``offered``: the reader's choices now (``choices``); ``asked``: the seats that asked to end
    the game; ``new_name``: a replacement's name; ``answer``: {line, done, reason} of a reply."""
    names = presenter(game_type).seat_names(locale)
    return {**contexts._common(game_id, seat, player_name, locale, links, preferences_url,
                               game_type),
            "event": event, "mine": absent_seat is not None and absent_seat == seat,
            "absent_seat": names.get(absent_seat, absent_seat or ""),
            "absent_name": absent_name, "by_me": by_seat is not None and by_seat == seat,
            "by_seat": names.get(by_seat, by_seat or ""), "by_name": by_name,
            "two": two, "missed": missed, "days": days,
            "asked": [names.get(s, s) for s in asked], "choices": list(offered),
            "new_name": new_name, "answer": answer, "take_seat_url": take_seat}


def _days(game: Game) -> int:
    """The operator's longest life of a silent game, as the game's end recorded it."""
    message = (game.result or {}).get("reason_message") or [None, {}]
    try:
        return int((message[1] or {}).get("days") or 0)
    except (TypeError, ValueError, IndexError):
        return 0


def _seated(session: Session, game_id: int) -> list[tuple[Seat, User]]:
    return list(session.exec(select(Seat, User).join(User, User.id == Seat.user_id)
                             .where(Seat.game_id == game_id).order_by(Seat.id)).all())


def _name(user: User | None, shown_to: str | None = None) -> str:
    """As server/mail/recipients._name: to themselves, their display name or their address's
    local part; to another reader, the name they chose, else "Player <id>"."""
    if user is None:
        return ""
    if shown_to is None:
        return user.display_name or user.email.split("@")[0]
    return display_names.shown(user, lambda message: gettext(message, shown_to))


def absence(session: Session, payload: dict, settings) -> list[dict]:
    """The envelopes (as dicts) of an "absence" row (server/mail/recipients.envelopes then
    keeps the mail from a reader who wants none: only their webhooks get it)."""
    game = session.get(Game, payload["game_id"])
    if game is None:
        return []
    row = session.get(SeatAbsence, payload["absence_id"]) if payload.get("absence_id") else None
    event, by, absent = payload["event"], payload.get("by"), payload.get("seat")
    seated = _seated(session, game.id)
    holders = {s.seat: u for s, u in seated}
    two = absences.seat_count(session, game.id) == 2
    found = []
    for seat, user in seated:
        answering = event == "answer"
        if (seat.seat != by) if answering else (seat.seat == by):
            continue   # an answer goes to the replier only; news to everybody else
        loc = user.locale
        gone = holders.get(absent) if absent else None
        offered = choices(session, settings, game, row, seat.seat, user.id, loc) \
            if event in OFFERING and row is not None and row.status == "open" else []
        answer, take_seat = None, ""
        if answering:
            answer = {"line": payload.get("line") or "", "done": payload.get("done"),
                      "reason": (gettext(payload["reason"], loc) % (payload.get("params") or {})
                                 if payload.get("reason") else "")}
            if payload.get("code"):
                take_seat = take_seat_url(settings.base_url, game.id, payload["code"])
        ctx = context(
            game.id, seat.seat, _name(user), loc, settings.links, game_type=game.game_type,
            event=event, absent_seat=absent,
            absent_name=_name(gone, loc) if gone is not None and absent != seat.seat else "",
            by_seat=by, by_name=_name(holders.get(by), loc) if by in holders else "",
            two=two, missed=game.absent_after_missed or 0, days=_days(game),
            asked=list(row.wants_end or []) if row is not None else [], offered=offered,
            new_name=_name(gone, loc) if event == "replaced" and gone is not None else "",
            answer=answer, take_seat=take_seat)
        found.append(dict(recipient=seat.seat, address=user.email, locale=loc, kind="absence",
                          context=ctx, game_id=game.id, seat=seat.seat, user_id=user.id,
                          answers=payload.get("reply_message_id") if answering else None))
    return found


def invitation_context(game_id: int, seat: str, inviter: str, locale: str,
                       links: contexts.Links, preferences_url: str | None = None, *,
                       game_type: str, take_seat: str) -> dict:
    """An "absence_invitation" mail's context: only what a stranger may know."""
    return {**contexts._common(game_id, None, "", locale, links, preferences_url, game_type),
            "invited_seat": presenter(game_type).seat_names(locale).get(seat, seat),
            "inviter": inviter, "take_seat_url": take_seat}


def invitation(session: Session, payload: dict, settings) -> list[dict]:
    """The envelope (as a dict) of an "absence_invitation" row, while its absence is open and
    its invitation is still the one made (a later one replaces it)."""
    game = session.get(Game, payload["game_id"])
    row = session.get(SeatAbsence, payload["absence_id"]) if game is not None else None
    if game is None or row is None or row.status != "open" or game.status != "active":
        return []
    if row.invite_token_hash != users.sha256_hex(payload["code"]):
        return []   # another invitation was made since
    invitee = users.find_user(session, payload["email"])
    if invitee is not None and invitee.mail_mode == "none":
        return []
    loc = invitee.locale if invitee else "en"
    inviter = session.exec(select(User).join(Seat, Seat.user_id == User.id).where(
        Seat.game_id == game.id, Seat.seat == payload.get("by"))).first()
    ctx = invitation_context(game.id, payload["seat"], _name(inviter, loc) if inviter else "",
                             loc, settings.links, game_type=game.game_type,
                             take_seat=take_seat_url(settings.base_url, game.id,
                                                     payload["code"]))
    return [dict(recipient=f"invite:{payload['email']}", address=payload["email"], locale=loc,
                 kind="absence_invitation", context=ctx, game_id=game.id, seat=None,
                 user_id=invitee.id if invitee else None)]
