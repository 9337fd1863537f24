"""Issue 47, item 4: each game of the lobby says what a player needs to choose where to go:
the game, the others and who plays them, where it stands (turn and phase), whose move it is,
the deadline in the reader's zone and how long ago the last move was, as one whole-row link
(at least 44 px high); the reader's-move games first."""

from __future__ import annotations

import re

from sqlalchemy import update
from sqlmodel import Session

from server.models import User
from tests.web.pages_helpers import db_engine, new_game


def _row(page: str, gid: int) -> str:
    return page.split(f'data-game="{gid}"', 1)[1].split("</li>", 1)[0]


def test_a_game_row_tells_the_game_the_opponent_the_turn_the_move_and_the_times(app, jack,
                                                                              dick):
    gid = new_game(jack, dick)
    jack_row, dick_row = _row(jack.get("/").data.decode(), gid), \
        _row(dick.get("/").data.decode(), gid)
    for row in (jack_row, dick_row):
        assert re.search(rf'<a class="row-link" href="/games/{gid}">', row)   # the whole row
        assert "1960" in row and "Turn 1" in row
        assert "Deadline: <time" in row and "Last move: just now" in row
    assert "you play Kennedy" in jack_row and "(Nixon)" in jack_row
    assert "you play Nixon" in dick_row and "(Kennedy)" in dick_row
    # whose move: one side is asked, the other waits for it by name
    asked = [row for row in (jack_row, dick_row) if "Your move" in row]
    waiting = [row for row in (jack_row, dick_row) if "Waiting for" in row]
    assert len(asked) == 1 and len(waiting) == 1
    assert "Nixon" in waiting[0] or "Kennedy" in waiting[0]


def test_the_rows_are_tall_enough_to_tap_and_your_move_comes_first(app, jack, dick):
    first, second = new_game(jack, dick), new_game(jack, dick)
    page = jack.get("/").data.decode()
    assert "min-height: 44px" in page.split(".game-row .row-link", 1)[1].split("}", 1)[0]
    order = [int(n) for n in re.findall(r'data-game="(\d+)"', page)]
    mine = [gid for gid in order if "Your move" in _row(page, gid)]
    assert order[:len(mine)] == mine        # the games waiting for the reader lead


def test_the_rows_speak_the_readers_language(app, jack, dick):
    gid = new_game(jack, dick)
    with Session(db_engine(app)) as s:
        s.execute(update(User).where(User.email == jack.email).values(locale="ja"))
        s.commit()
    page = jack.get("/").data.decode()
    row = _row(page, gid)
    assert "Turn 1" not in row and "Last move" not in row and "Deadline" not in row


def test_the_join_page_says_who_opened_the_game_its_time_limits_and_what_happens_next(
        app, jack, dick):
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": dick.email,
                                                "seat": "kennedy", "edition": "gmt",
                                                "decision_hours": "48",
                                                "reminder_hours": "12",
                                                "absent_after_missed": "3"})
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    page = dick.get(f"/games/{gid}").data.decode()
    assert "opened this game" in page and "Take my seat" in page
    assert "Each decision: 48 hours." in page
    assert "A reminder 12 hours before the deadline." in page
    assert "default order is played" in page
    assert "misses 3 deadlines in a row is absent" in page
    assert "begins by itself as soon as every seat is taken" in page
    by_hand = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": dick.email,
                                                 "seat": "kennedy", "edition": "gmt",
                                                 "start_by_hand": "on"})
    gid = int(by_hand.headers["Location"].rsplit("/", 1)[1])
    assert "the player who opened the game starts it" in dick.get(f"/games/{gid}").data.decode()
