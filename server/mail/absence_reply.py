"""Choices about an absent seat by reply (issue 46, item 1; services/absences.py): a reply to
the seat's address whose first line is ``claim win``, ``end game``, ``bot`` or ``replace``
(optionally followed by the address to invite: ``replace ann@example.org``), in any of the
server's languages (the catalogue's words: ``勝利を申告``, ``terminar la partida`` ...; each
command has a short and a long spelling), chooses it through ``absences.choose``. Any case,
NFKC-normalised (full-width letters and spaces count), accents, spaces, quotes and a closing
full stop or exclamation mark ignored. The lines after it (a sentence to the others, a sign-off)
are not read.

The reply is answered, in its thread, by an "absence" mail to the replier alone (event
"answer": server/mail/absence_mail.py): what was done (with the link to pass on, for an
invitation without an address), or why not and what may be chosen instead. The mail is marked
handled, the choice made and the answer written in one transaction (``before_commit``); a
refusal is marked and answered in one of its own. The others are told by the "absence" mail the
choice writes. These words are in no game's notation (a line that starts with a game's verb is
never read as one of these: server/mail/replies.py)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from sqlmodel import Session

from server.catalogue import N_
from server.i18n import LOCALES, gettext
from server.models import OutboxMessage, Seat
from server.services import absences

# Each choice's words, as the mails show them first, then a longer spelling also read.
WORDS = {
    "claim": (N_("claim win"), N_("claim the win")),
    "end": (N_("end game"), N_("end the game")),
    "bot": (N_("bot"), N_("hand to a bot")),
    "replace": (N_("replace"), N_("invite a replacement")),
}
_AROUND = "\"'“”‘’「」『』«»()[].!！。．¡¿?？:： \t"
# An address to invite: plain characters only (the answer quotes the line back, in HTML too).
_ADDRESS = re.compile(r"<?(?:mailto:)?([\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)>?")


def words(choice: str, locale: str) -> str:
    """The words a reply writes for ``choice``, in the reader's language."""
    return gettext(WORDS[choice][0], locale)


def _normal(text: str) -> str:
    """The words without case, accents, spacing or the quotes and marks around them."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"\s+", "", text.strip(_AROUND))


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """{every spelling of a command, normalised: its choice}."""
    found = {}
    for choice, messages in WORDS.items():
        for message in messages:
            for spelling in [message] + [gettext(message, locale) for locale in LOCALES]:
                found.setdefault(_normal(spelling), choice)
    return found


def parse(line: str) -> tuple[str, str | None] | None:
    """(the choice, the address to invite or None) the line says, or None when it is no
    command of these (an address goes with ``replace`` only)."""
    line = unicodedata.normalize("NFKC", line or "")
    address = _ADDRESS.search(line)
    rest = (line[:address.start()] + line[address.end():]) if address else line
    choice = _spellings().get(_normal(rest)) if rest.strip(_AROUND) else None
    if choice is None or (address and choice != "replace"):
        return None
    return choice, address.group(1) if address else None


def is_line(line: str) -> bool:
    return parse(line) is not None


def quoted_line(line: str) -> str:
    """The line as the answer quotes it: its words, and the bare address if any."""
    line = unicodedata.normalize("NFKC", line or "").strip()
    return _ADDRESS.sub(lambda m: m.group(1), line)


def apply(session: Session, seat: Seat, line: str, mark, answer: dict) -> absences.Choice:
    """Choose what ``line`` says for ``seat``; ``mark(session)`` marks the mail handled, and
    the answer (``answer``: the reply's thread and words) is written, in the choice's
    transaction. Raise absences.AbsenceError (nothing changed, the mail not marked)."""
    choice, address = parse(line)
    opened = absences.open_ones(session, seat.game_id)

    def before_commit(session: Session, done: absences.Choice) -> None:
        mark(session, {"kind": "absence", "choice": choice, "done": done.done})
        session.add(answer_row(seat, answer, done.absence_id, _absent(session, done.absence_id),
                               done=done.done, code=done.code))

    return absences.choose(session, seat.game_id, seat.seat, choice,
                           absence_id=opened[0].id if len(opened) == 1 else None,
                           invite_email=address, before_commit=before_commit)


def _absent(session: Session, absence_id: int | None) -> str | None:
    from server.models import SeatAbsence
    row = session.get(SeatAbsence, absence_id) if absence_id else None
    return row.seat if row is not None else None


def refusal_row(session: Session, seat: Seat, answer: dict,
                error: absences.AbsenceError) -> OutboxMessage:
    """The answer to a choice refused: why, and (the mail's builder lists them) what the
    replier may choose now about the game's open absence."""
    opened = absences.open_ones(session, seat.game_id)
    row = opened[0] if len(opened) == 1 else None
    return answer_row(seat, answer, row.id if row else None, row.seat if row else None,
                      reason=error.message, params=error.params)


def answer_row(seat: Seat, answer: dict, absence_id: int | None, absent: str | None, *,
               done: str | None = None, code: str | None = None, reason: str | None = None,
               params: dict | None = None) -> OutboxMessage:
    return OutboxMessage(kind="absence", payload={
        "game_id": seat.game_id, "absence_id": absence_id, "seat": absent, "event": "answer",
        "by": seat.seat, "line": answer.get("line", ""), "done": done, "code": code,
        "reason": reason, "params": params or {},
        "reply_message_id": answer.get("reply_message_id")})


def handle(engine, inbound_id: int, message_id: int | None, answer: dict, seat: Seat,
           line: str, finish, mark) -> str:
    """The reply's choice, made and answered (server/mail/replies.py hands it here when its
    first line is one, with its ``finish`` and ``mark``: the mail marked handled, raising
    replies.AlreadyHandled when it was); "order" (answered)."""
    answer = {**answer, "line": quoted_line(line)}
    with Session(engine) as session:
        try:
            apply(session, seat, line,
                  lambda s, outcome: mark(s, inbound_id, message_id, outcome), answer)
            return "order"
        except absences.AbsenceError as error:
            session.rollback()
            row, why = refusal_row(session, seat, answer, error), error.message
    finish(engine, inbound_id, message_id, {"kind": "absence", "refused": why}, [row])
    return "order"
