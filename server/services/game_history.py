"""A game's history in its own rows, not in the state an order loads (issue 28).

The engine's state holds the game's whole history: its log and its notes (what happened, in
words). In a late game of 1960 they are most of its 60 kB, and an order that read, parsed and
wrote them all took twice as long at the end of a game as at its start. So ``Game.state`` holds
the state trimmed of them (engine.core.history): the log is in LogEntry rows (the source of
truth), the notes in GameNote rows; the state says how many of each come before it.

- The rules (an order, a resolution, who is asked, what is legal) play on the trimmed state:
  ``games._load``. They append to the log and the notes; the order saves the state
  ``trimmed`` again, then ``store_notes`` writes the new notes (games._write_progress the new
  log rows).
- A view needs the whole history: ``whole`` reads the rows and joins them to the state. Every
  view goes through it (the engine's view refuses a trimmed state: HistoryNotHeld).
"""

from __future__ import annotations

import json

import engine.core as engine
from engine.core import history
from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from server import db
from server.models import Game, GameNote, LogEntry
from server.raw_sql import Raw

_NOTE_INSERT = Raw(GameNote.__table__.insert())
_LOG = LogEntry.__table__
_GAME = Game.__table__
_NOTES = GameNote.__table__
# Run on the driver's cursor (server/raw_sql.py): every view of a late game reads hundreds of
# rows.
_LOG_IN_PLAY = Raw(select(_LOG.c.seat, _LOG.c.action)
                   .where(_LOG.c.game_id == bindparam("game_id"), _LOG.c.retraction.is_(None))
                   .order_by(_LOG.c.seq))
_NOTES_OF = Raw(select(_NOTES.c.note).where(_NOTES.c.game_id == bindparam("game_id"))
                .order_by(_NOTES.c.seq))


def trimmed(data: dict) -> dict:
    """The state ``data`` (whole or trimmed) as Game.state stores it."""
    return history.split(data)[0]


def store_notes(session: Session, game_id: int, data: dict, stored: dict | None) -> None:
    """Write the notes that ``data`` (a state, whole or trimmed) holds beyond those stored with
    ``stored`` (the game's state as it was, or None), and drop stored notes past its end (a
    state rebuilt after a move was taken back). Only once the game's row is saved by its
    compare-and-set: a state played from a step another order has taken writes nothing."""
    _, _, (notes_from, notes) = history.split(data)
    had = (stored or {}).get("notes_from", 0)
    end = notes_from + len(notes)
    if end < had:
        session.execute(delete(GameNote).where(GameNote.game_id == game_id,
                                               GameNote.seq >= end))
    new = [{"game_id": game_id, "seq": seq, "note": notes[seq - notes_from]}
           for seq in range(max(had, notes_from), end)]
    if new:
        _NOTE_INSERT.executemany(db.connection(session), new)


def log_in_play(session: Session, game_id: int) -> list[list[str]]:
    """The game's log in play, [seat, action] pairs (entries taken back left out)."""
    return [[seat, action] for seat, action in
            _LOG_IN_PLAY.rows(db.connection(session), {"game_id": game_id})]


def notes(session: Session, game_id: int) -> list:
    return [note for (note,) in _NOTES_OF.rows(db.connection(session), {"game_id": game_id})]


def whole(session: Session, game, copy: bool = True):
    """The game's engine state with its whole history, for a view. A state that holds its
    history already (a state replayed in memory, services/held_view.py) is taken as it is.

    The history is the one of the state ``game`` holds, even when later moves were committed
    after its row was read: outside a reading snapshot (db.reading), on PostgreSQL's READ
    COMMITTED, the log's rows are read later than the game's and may hold a worker's move
    made meanwhile (the e2e game's 500 on POST /start while the bot played). The log and the
    notes only grow, so the state's history is their first rows. A move taken back meanwhile
    changes those rows: then the game's row is read again, with them (``_reread``)."""
    data = game.state
    if not history.is_trimmed(data):
        return engine.from_dict(data, copy=copy)
    for _ in range(_READS):
        try:
            return _joined(session, game.id, data, copy)
        except ValueError:
            data = _reread(session, game)
    return _joined(session, game.id, data, copy)


_READS = 3


def _joined(session: Session, game_id: int, data: dict, copy: bool):
    log_end = data["log_from"] + len(data["log"])
    notes_end = data["notes_from"] + len(data["notes"])
    if copy:    # only the stored part is shared with the game's row: the rows' lists are new
        data = json.loads(json.dumps(data))
    return engine.from_dict(history.join(data, log_in_play(session, game_id)[:log_end],
                                         notes(session, game_id)[:notes_end]), copy=False)


def _reread(session: Session, game) -> dict:
    """The game's row read again in the session's transaction (its columns set on ``game``,
    a Game or a games.GameRow); its state."""
    row = session.execute(select(_GAME).where(_GAME.c.id == game.id)).one()
    tracked = hasattr(game, "_sa_instance_state")   # a Game: set as loaded, not as changed
    for name, value in row._mapping.items():
        if tracked:
            set_committed_value(game, name, value)
        else:
            setattr(game, name, value)
    return game.state
