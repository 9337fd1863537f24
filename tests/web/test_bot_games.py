"""Games against bots created from the lobby's forms: 1960 against the random bot, Mr. President
against a greedy and a strong bot. The bots answer by their tasks (Celery runs eagerly here)
as soon as they are asked; the player answers on the game page, and the game goes on."""

from __future__ import annotations

import random

from sqlmodel import Session, select

from server.models import Game, LogEntry
from server.services import bots as bot_seats
from tests.web.pages_helpers import db_engine, pick_answer


def _create(reader, form) -> int:
    answer = reader.post_form("/", "/games/new", form)
    assert answer.status_code == 303, answer.data[-2000:]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    return gid


def _play_from_the_page(reader, app, gid, rng, orders: int) -> None:
    for _ in range(orders):
        page = reader.get(f"/games/{gid}").data.decode()
        fields = pick_answer(page, rng)
        if not fields:
            break
        answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
        assert answer.status_code == 303, (fields, answer.data[-2000:])


def _entries(app, gid, seats) -> int:
    with Session(db_engine(app)) as s:
        return len(s.exec(select(LogEntry).where(LogEntry.game_id == gid,
                                                 LogEntry.seat.in_(seats))).all())


def test_1960_against_the_strong_bot_from_the_lobby(app, jack):
    lobby = jack.get("/").data.decode()
    assert 'name="opponent_bot"' in lobby and "Random bot" in lobby and "Strong bot" in lobby
    gid = _create(jack, {"game_type": "tmotp", "seat": "kennedy", "edition": "gmt",
                         "opponent_bot": "strong",
                         "opponent": ""})
    page = jack.get(f"/games/{gid}").data.decode()
    # issue 47: the other seat is a bot's, so the game began at once
    assert "Start the game" not in page and "Playing against:" in page
    started = jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {})
    assert started.status_code == 303       # a start changes nothing now
    _play_from_the_page(jack, app, gid, random.Random(2), 60)
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.bots == {"nixon": "strong"} and game.step > 30
    assert _entries(app, gid, ["nixon"]) > 5


def test_mr_president_against_two_bots_from_the_lobby(app, jack, monkeypatch):
    monkeypatch.setitem(bot_seats.BUDGETS, "strong", {"iterations": 6})
    lobby = jack.get("/").data.decode()
    assert 'name="bot_p2"' in lobby and "Strong bot" in lobby
    gid = _create(jack, {"game_type": "mrpresident", "players": "3", "edition": "chalkboard",
                         "email_p1": jack.email, "bot_p2": "greedy", "bot_p3": "strong",
                         "bot_delay_seconds": "0", "plurality": "on"})
    with Session(db_engine(app)) as s:     # begun at once: the other seats are bots'
        assert s.get(Game, gid).status in ("active", "finished")
    assert jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {}).status_code == 303
    _play_from_the_page(jack, app, gid, random.Random(3), 40)
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.status == "finished" and game.result["winner"] in ("p1", "p2", "p3")
    assert _entries(app, gid, ["p2", "p3"]) >= 2 * 6


def test_a_bots_pause_that_is_not_a_number_is_refused(app, jack):
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                                "seat": "kennedy", "opponent_bot": "random",
                                                "bot_delay_seconds": "soon"})
    assert answer.status_code == 422 and b"whole number of seconds" in answer.data
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                                "seat": "kennedy", "opponent_bot": "random",
                                                "bot_delay_seconds": "31"})
    assert answer.status_code == 422 and b"bot_delay_seconds" in answer.data
    with Session(db_engine(app)) as s:
        assert s.exec(select(Game)).all() == []
