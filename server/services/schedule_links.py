"""Signed answer links in the "pause" and "extension" mails: one link per answer (agree or
refuse), for one game, one ask (the pause's or the extension's row), one seat and its player,
signed with the installation's secret under a salt of its own, so it is good for this purpose
only (never as a decision link, nor the other way round), and timestamped (LINK_MAX_AGE_SECONDS).
Opening it (GET) shows the question and a button; only the page's POST answers. It works once:
an ask is answered once, and a link for an ask already answered (or another player's seat)
is refused, saying why."""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Seat
from server.secret_keys import Secret

SALT = "whistlestop.schedule-answer"
PURPOSES = ("pause", "extension")


@dataclass(frozen=True)
class Answer:
    purpose: str  # "pause" or "extension"
    game_id: int
    row_id: int
    seat: str
    user_id: int
    agree: bool


class AnswerRefused(Exception):
    """Why an answer link cannot be used (``message``, in words to translate)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def _serializer(secret: Secret) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def make(secret: Secret, answer: Answer) -> str:
    return _serializer(secret).dumps({"p": answer.purpose, "g": answer.game_id,
                                      "r": answer.row_id, "s": answer.seat,
                                      "u": answer.user_id, "a": int(answer.agree)})


def url(base_url: str, game_id: int, token: str) -> str:
    return f"{base_url}/games/{game_id}/answer/{token}"


def read(session: Session, secret: Secret, token: str, game_id: int, max_age: float) -> Answer:
    """The answer ``token`` carries, checked against the game in the URL and the seat's player
    now; raise AnswerRefused."""
    try:
        data = _serializer(secret).loads(token, max_age=max_age)
        answer = Answer(str(data["p"]), int(data["g"]), int(data["r"]), str(data["s"]),
                        int(data["u"]), bool(data["a"]))
    except SignatureExpired:
        raise AnswerRefused(N_("This link has expired; the game page asks the question "
                               "while it is open."), 410) from None
    except (BadSignature, KeyError, TypeError, ValueError):
        raise AnswerRefused(N_("This link is damaged or was not made by this server: copy "
                               "the whole link from the mail, or open the game page.")) from None
    if answer.purpose not in PURPOSES or answer.game_id != game_id:
        raise AnswerRefused(N_("This link does not belong to this game."))
    holder = session.exec(select(Seat.user_id).where(Seat.game_id == game_id,
                                                     Seat.seat == answer.seat)).first()
    if holder != answer.user_id:
        raise AnswerRefused(N_("This link was made for the player who held the seat then."),
                            403)
    return answer
