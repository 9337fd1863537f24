"""Signed choice links in the "absence" mails (issue 46, item 1; services/absences.py): one link
per choice (claim the win, end the game unrated, hand the seat to a bot, invite a replacement),
for one game, one absence, one seat and its player, signed with the installation's secret under
a salt of its own, so it is good for this purpose only (never as a decision or a pause's answer
link, nor the other way round), and timestamped (LINK_MAX_AGE_SECONDS). Opening it (GET) shows
the choice and a button; only the page's POST chooses (server/web/absence_links.py).

It works once: a link for an absence already settled, for a choice already made (a bot already
plays the seat, the reader already asked to end the game, somebody was invited since the mail),
or for a seat its reader no longer holds, is refused, saying why."""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Game, Seat, SeatAbsence
from server.secret_keys import Secret
from server.services import absences

SALT = "whistlestop.absence-choice"

# Each choice in words (the mail's links, the reply's answers and the link's page).
LABELS = {"claim": N_("Claim the win"), "end": N_("End the game unrated"),
          "bot": N_("Hand the seat to a bot"), "replace": N_("Invite a replacement")}


@dataclass(frozen=True)
class Link:
    game_id: int
    absence_id: int
    seat: str          # the seat whose player may choose (never the absent one)
    user_id: int       # that seat's player when the mail was written
    choice: str        # one of absences.CHOICES
    invited: str = ""  # the absence's invitation when the mail was written ("": none)


class LinkRefused(Exception):
    """Why a choice link cannot be used (``message``, in words to translate, with ``params``)."""

    def __init__(self, message: str, status: int = 400, **params):
        super().__init__(message % params if params else message)
        self.message, self.status, self.params = message, status, params


def _serializer(secret: Secret) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def invited_mark(absence: SeatAbsence) -> str:
    """The absence's invitation as a link records it (a short prefix of its code's hash)."""
    return (absence.invite_token_hash or "")[:12]


def make(secret: Secret, link: Link) -> str:
    return _serializer(secret).dumps({"g": link.game_id, "a": link.absence_id, "s": link.seat,
                                      "u": link.user_id, "c": link.choice, "i": link.invited})


def url(base_url: str, game_id: int, token: str) -> str:
    return f"{base_url}/games/{game_id}/absence/{token}"


def read(session: Session, secret: Secret, token: str, game_id: int, max_age: float) -> Link:
    """The choice ``token`` carries, checked against the game in the URL and the seat's
    player now; raise LinkRefused."""
    try:
        data = _serializer(secret).loads(token, max_age=max_age)
        link = Link(int(data["g"]), int(data["a"]), str(data["s"]), int(data["u"]),
                    str(data["c"]), str(data.get("i") or ""))
    except SignatureExpired:
        raise LinkRefused(N_("This link has expired; the game page offers the choice while "
                             "the seat is absent."), 410) from None
    except (BadSignature, KeyError, TypeError, ValueError):
        raise LinkRefused(N_("This link is damaged or was not made by this server: copy "
                             "the whole link from the mail, or open the game page.")) from None
    if link.game_id != game_id or link.choice not in absences.CHOICES:
        raise LinkRefused(N_("This link does not belong to this game."))
    holder = session.exec(select(Seat.user_id).where(Seat.game_id == game_id,
                                                     Seat.seat == link.seat)).first()
    if holder != link.user_id:
        raise LinkRefused(N_("This link was made for the player who held the seat then."), 403)
    return link


def still_good(session: Session, link: Link) -> None:
    """Raise LinkRefused when the link's choice cannot be made now: the absence is settled,
    the choice was made already, or the game is over."""
    game = session.get(Game, link.game_id)
    absence = session.get(SeatAbsence, link.absence_id)
    if game is None or absence is None or absence.game_id != link.game_id:
        raise LinkRefused(N_("This link does not belong to this game."))
    if absence.status != "open":
        raise LinkRefused(N_("This absence has been settled already (%(how)s): nothing more "
                             "is chosen about it."), 409, how=absence.status)
    if game.status != "active":
        raise LinkRefused(N_("The game is over."), 409)
    allowed = absences.choices_for(session, game, absence, link.seat)
    if link.choice == "replace" and invited_mark(absence) != link.invited:
        raise LinkRefused(N_("Somebody has been invited to take this seat since this mail: "
                             "the game page may invite another."), 409)
    if not allowed:
        raise LinkRefused(N_("Only a present player of this game may choose what happens to "
                             "an absent seat."), 403)
    if link.choice not in allowed:
        raise LinkRefused(absences._why_not(link.choice), 409)
