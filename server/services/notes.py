"""Private notes: one notepad per game and player of a seat, up to ``MAX_CHARS`` characters,
with the time of its last change. Read and written only for the seat's own player (the game
page's section, GET/PUT /api/v1/games/<id>/notes); never in a view, a mail, a webhook or
another reader's page. Kept with the game (the replay shows them to their writer after the
end), erased with the account (server/services/account_deletion.py)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Game, SeatNote, utcnow
from server.services import visible_text

MAX_CHARS = 20_000


class NoteRefused(ValueError):
    """Notes not saved: ``template`` (to translate) with ``values``; nothing changed."""

    def __init__(self, template: str, **values):
        super().__init__(template % values if values else template)
        self.template, self.values = template, values


def of(session: Session, game_id: int, user_id: int) -> SeatNote | None:
    """The player's notes in the game, or None when they wrote none."""
    return session.exec(select(SeatNote).where(SeatNote.game_id == game_id,
                                               SeatNote.user_id == user_id)).first()


def of_user(session: Session, user_id: int) -> list[SeatNote]:
    """Every game's notes of the player, by game."""
    return list(session.exec(select(SeatNote).where(SeatNote.user_id == user_id)
                             .order_by(SeatNote.game_id)).all())


def check(text: str) -> str:
    """The notes as kept (line ends made "\\n"); NoteRefused when too long or not text."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_CHARS:
        raise NoteRefused(N_("Notes hold up to %(max)s characters; these have %(n)s. "
                             "Shorten them and save again."), max=MAX_CHARS, n=len(text))
    code = visible_text.hidden(text)
    if code:
        raise NoteRefused(N_("Notes are plain text: %(code)s is a control character or an "
                             "invisible one (such as a direction mark, which reverses the text "
                             "around it), and control characters cannot be saved."), code=code)
    return text


def save(session: Session, game: Game, seat: str, user_id: int, text: str,
         now: datetime | None = None) -> SeatNote:
    """Keep ``text`` as the player's notes in ``game`` (their ``seat``); the caller commits.
    NoteRefused changes nothing."""
    text = check(text)
    note = of(session, game.id, user_id) or SeatNote(game_id=game.id, user_id=user_id,
                                                     seat=seat)
    note.text, note.seat, note.updated_at = text, seat, now or utcnow()
    session.add(note)
    session.flush()
    return note
