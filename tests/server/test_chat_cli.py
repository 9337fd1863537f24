"""The operator sees reported chat lines: `whistlestop chat-reports` (issue 27, item 1)."""

from __future__ import annotations

import json

from server.models import Game, User
from server.services import chat
from server.services import games as svc
from tests.server.test_cli import env, run  # noqa: F401  (fixtures)


def test_chat_reports_lists_what_was_reported(run, session):  # noqa: F811
    ann, bob = User(email="ann@example.org", display_name="Ann"), User(email="bob@example.org")
    session.add_all([ann, bob])
    session.commit()
    gid = svc.create_game(session, "tmotp", {}, {"kennedy": ann.id, "nixon": bob.id},
                          seed="reports").id
    assert run("chat-reports") == (0, "no reported chat lines\n", "")
    line = chat.post(session, session.get(Game, gid), ann, "players", "<b>rude</b> words",
                     mail_delay=0)
    session.flush()
    chat.report(session, bob, line.id, "insults", operator_email=None)
    session.commit()
    code, out, _err = run("chat-reports")
    assert code == 0
    assert f"user {bob.id} reported line {line.id} of user {ann.id} (game {gid}, players, " \
           "seat kennedy): 'insults'" in out
    assert '"<b>rude</b> words"' in out
    code, out, _err = run("chat-reports", "--json")
    found = json.loads(out)
    assert [(r["message"], r["body"], r["reason"]) for r in found] == [
        (line.id, "<b>rude</b> words", "insults")]
