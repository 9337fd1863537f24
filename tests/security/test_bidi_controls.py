"""Direction controls in what players write (issue 45, L8), each written as the attack.

A chat line, a chat reply by mail, private notes or a report's reason carrying a bidirectional
override or isolate (U+202A-U+202E, U+2066-U+2069) turns the text around it on every page and
mail that shows it ("‮gnp.exe" reads as "exe.png"); a zero-width space or a byte-order mark
hides a word from a filter. Each is refused with the reason naming the character (a 422 by
the API), nothing stored; display names already were. One check (services/visible_text.py)
serves every text a player writes; a joiner inside an emoji or a Persian word stays.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from server import db
from server.mail import chat_address
from server.models import ChatMessage, ChatReport, SeatNote
from tests.mail.test_replies import app as mail_app  # noqa: F401  (a fixture)
from tests.mail.test_replies import game as mail_game  # noqa: F401  (a fixture)
from tests.mail.test_replies import handle, reply
from tests.server.api.helpers import is_problem

CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
            "\u2069", "\u200b", "\ufeff", "\u2028", "\u200e"]


def _code(c: str) -> str:
    return f"U+{ord(c):04X}"


def _game(client, store, players) -> int:
    return client.two_player_game(store, players["kennedy"], players["nixon"])


@pytest.mark.parametrize("control", CONTROLS)
def test_a_chat_line_that_turns_the_text_around_is_refused(client, store, players, control):
    gid = _game(client, store, players)
    r = client.post(f"/games/{gid}/chat", players["kennedy"],
                    json={"body": f"my file: {control}gnp.exe"})
    body = is_problem(r, 422)
    assert _code(control) in body["detail"], body
    with store.session() as s:
        assert s.exec(select(ChatMessage)).all() == []


@pytest.mark.parametrize("control", ["\u202e", "\u2067", "\u200b"])
def test_a_report_reason_that_turns_the_text_around_is_refused(client, store, players,
                                                               control):
    gid = _game(client, store, players)
    line = client.post(f"/games/{gid}/chat", players["kennedy"], json={"body": "hi"}).get_json()
    r = client.post(f"/games/{gid}/chat/{line['id']}/report", players["nixon"],
                    json={"reason": f"rude {control}nimda"})
    body = is_problem(r, 422)
    assert _code(control) in body["detail"], body
    with store.session() as s:
        assert s.exec(select(ChatReport)).all() == []


@pytest.mark.parametrize("control", ["\u202d", "\u2066", "\ufeff"])
def test_notes_that_turn_the_text_around_are_refused(client, store, players, control):
    gid = _game(client, store, players)
    ann = players["kennedy"]
    r = client.tc.put(f"/api/v1/games/{gid}/notes", headers=ann.auth,
                      json={"text": f"plan: {control}AMIS"})
    body = is_problem(r, 422)
    assert _code(control) in body["detail"], body
    with store.session() as s:
        assert s.exec(select(SeatNote)).all() == []


def test_a_chat_reply_by_mail_that_turns_the_text_around_is_refused(mail_app, mail_game):
    user = mail_game["user"][mail_game["seat"]]
    to = chat_address.address(mail_app.config["SECRET_KEY"], mail_app.config["MAIL_DOMAIN"],
                              mail_game["id"], "players", user)
    raw = reply(mail_game, "see \u202egnp.exe", to=to, in_reply_to=False)
    handle(mail_app, raw)
    with Session(db.get_engine()) as s:
        assert s.exec(select(ChatMessage)).all() == []


def test_joiners_in_emoji_and_scripts_stay(client, store, players):
    gid = _game(client, store, players)
    for text in ("family: 👨\u200d👩\u200d👧", "می\u200cخواهم", "Good luck ¡Suerte! 頑張って"):
        r = client.post(f"/games/{gid}/chat", players["kennedy"], json={"body": text})
        assert r.status_code == 201, r.get_json()
    from server.services import visible_text
    assert visible_text.hidden("a\u200db", joiners=False) == "U+200D"
