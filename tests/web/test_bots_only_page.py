"""Issue 47, item 7: a game whose other seats are all bots offers no pause, extension or table
talk (nobody to agree, grant or talk to); a game against a person still does."""

from __future__ import annotations

from sqlmodel import Session, select

from server.models import Game, User
from server.services import chat
from tests.web.pages_helpers import db_engine, new_game


def _create(jack, fields) -> int:
    answer = jack.post_form("/", "/games/new", fields)
    assert answer.status_code == 303, answer.data[-2000:]
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def test_against_bots_alone_there_is_no_pause_extension_or_table_talk(app, jack):
    gid = _create(jack, {"game_type": "tmotp", "seat": "kennedy", "edition": "gmt",
                         "opponent_bot": "random", "opponent": ""})
    page = jack.get(f"/games/{gid}").data.decode()
    assert "Playing against:" in page
    assert 'id="table-talk"' not in page and 'id="schedule-h"' not in page
    with Session(db_engine(app)) as session:   # nor by the API or mail: the chat service
        game = session.get(Game, gid)
        user = session.exec(select(User).where(User.email == jack.email)).one()
        assert chat.channels_for(session, game, user) == []


def test_against_a_person_both_are_offered(app, jack, dick):
    gid = new_game(jack, dick)
    page = jack.get(f"/games/{gid}").data.decode()
    assert 'id="table-talk"' in page and 'id="schedule-h"' in page
