"""A game's row read before a move was committed still shows as the game it was (CI: the e2e
game on PostgreSQL answered POST /start with a 500 while the bot played, because the log's
rows, read after the game's row under READ COMMITTED, held the bot's move and no longer fitted
the state). The log only grows, so the state read is joined with its own first entries; a
move taken back meanwhile changes those entries, and then the game is read again."""

from __future__ import annotations

from sqlmodel import select

from server.models import LogEntry
from server.services import games as svc
from server.services import seat_view
from tests.server.api.helpers import other
from tests.server.api.test_retract import gid, moved  # noqa: F401  (fixtures)


def _row(store, gid):
    """The game's columns as an order reads them, in a transaction that then ends."""
    with store.session() as s:
        return svc.game_row(s, gid)


def _in_play(store, gid) -> int:
    with store.session() as s:
        return len(s.exec(select(LogEntry.seq).where(LogEntry.game_id == gid,
                                                    LogEntry.retraction.is_(None))).all())


def test_a_game_read_before_a_move_shows_the_game_it_was(client, store, players, gid):
    row = _row(store, gid)
    before = row.step
    with store.session() as s:
        first_view = seat_view.of(s, row, "kennedy").view
        log_length = len(seat_view.of(s, row, "kennedy").state.s["log"])
    store.advance_until(gid, lambda state: len(state.s["log"]) > log_length + 3, seed=5)
    assert _in_play(store, gid) > log_length
    with store.session() as s:
        seen = seat_view.of(s, row, "kennedy")
        assert len(seen.state.s["log"]) == log_length      # its own history, not the later one
        assert seen.view == first_view
        assert seen.step == before
        assert svc.game_row(s, gid).step > before           # the game itself moved on


def test_a_move_taken_back_after_the_read_shows_the_game_as_it_is_now(
        client, store, players, gid, moved):
    _, seat, _, answer = moved
    row = _row(store, gid)
    assert row.step == answer["step"]
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": answer["step"]})
    assert r.status_code == 200, r.get_json()
    in_play = _in_play(store, gid)
    with store.session() as s:
        seen = seat_view.of(s, row, other(seat))
        view = seen.view                      # no "history does not fit the state"
        assert seen.step == r.get_json()["step"]        # read again: the game as it is now
        assert len(seen.state.s["log"]) == in_play
        assert view == seat_view.of(s, svc.game_row(s, gid), other(seat)).view
