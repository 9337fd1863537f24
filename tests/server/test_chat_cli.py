"""The operator sees reported chat lines: `whistlestop chat-reports` (issue 27, item 1), the
open ones by default, and resolves them with a note (`--resolve ID --note TEXT`)."""

from __future__ import annotations

import json

from server.models import ChatMessage, ChatReport, Game, User
from server.services import chat
from server.services import games as svc
from tests.server.test_cli import env, run  # noqa: F401  (fixtures)


def test_chat_reports_lists_what_was_reported(run, session):  # noqa: F811
    ann, bob = User(email="ann@example.org", display_name="Ann"), User(email="bob@example.org")
    session.add_all([ann, bob])
    session.commit()
    gid = svc.create_game(session, "tmotp", {}, {"kennedy": ann.id, "nixon": bob.id},
                          seed="reports").id
    assert run("chat-reports") == (
        0, "no open chat reports (--all lists the resolved ones too)\n", "")
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


def _two_reports(session):
    """Two reports of two lines of Ann's, by Bob: (first report, second report, game id)."""
    ann, bob = User(email="ann@example.org", display_name="Ann"), User(email="bob@example.org")
    session.add_all([ann, bob])
    session.commit()
    game = session.get(Game, svc.create_game(session, "tmotp", {},
                                             {"kennedy": ann.id, "nixon": bob.id},
                                             seed="resolve").id)
    reports = []
    for text in ("first rude line", "second rude line"):
        line = chat.post(session, game, ann, "players", text, mail_delay=0)
        session.flush()
        reports.append(chat.report(session, bob, line.id, "insults").id)
    session.commit()
    return reports[0], reports[1], game.id


def test_a_resolved_report_leaves_the_open_list_and_shows_its_note(run, session):  # noqa: F811
    first, second, _gid = _two_reports(session)
    code, out, err = run("chat-reports", "--resolve", str(first), "--note",
                         "warned Ann by mail")
    assert (code, out, err) == (0, f"report {first} resolved\n", "")
    session.expire_all()
    row = session.get(ChatReport, first)
    assert row.resolved_at is not None and row.resolution == "warned Ann by mail"
    # The line itself stays as it was.
    assert session.get(ChatMessage, row.message_id).body == "first rude line"
    # By default only the open report is listed; --all lists both, the resolved one with when
    # and what.
    code, out, _err = run("chat-reports")
    assert f"report {second} " in out and f"report {first} " not in out
    assert "resolved at" not in out
    code, out, _err = run("chat-reports", "--all")
    assert f"report {second} " in out and f"report {first} " in out
    assert out.count("resolved at") == 1 and "'warned Ann by mail'" in out
    found = {r["report"]: r for r in json.loads(run("chat-reports", "--all", "--json")[1])}
    assert found[first]["resolution"] == "warned Ann by mail" and found[first]["resolved_at"]
    assert found[second]["resolution"] is None and found[second]["resolved_at"] is None
    assert [r["report"] for r in json.loads(run("chat-reports", "--json")[1])] == [second]
    # Once every report is resolved, the default list says so.
    assert run("chat-reports", "--resolve", str(second), "--note", "no action")[0] == 0
    assert run("chat-reports")[1] == \
        "no open chat reports (--all lists the resolved ones too)\n"


def test_resolving_is_refused_in_words_and_changes_nothing(run, session):  # noqa: F811
    first, _second, _gid = _two_reports(session)
    code, _out, err = run("chat-reports", "--resolve", str(first))
    assert code == 2 and "short note" in err
    code, _out, err = run("chat-reports", "--resolve", str(first), "--note", "   ")
    assert code == 2 and "short note" in err
    code, _out, err = run("chat-reports", "--resolve", str(first), "--note", "x" * 501)
    assert code == 2 and "501" in err and "500" in err
    code, _out, err = run("chat-reports", "--resolve", "999999", "--note", "done")
    assert code == 2 and "no report 999999" in err
    code, _out, err = run("chat-reports", "--note", "done")
    assert code == 2 and "--resolve" in err
    session.expire_all()
    assert session.get(ChatReport, first).resolved_at is None
    assert run("chat-reports", "--resolve", str(first), "--note", "warned")[0] == 0
    code, _out, err = run("chat-reports", "--resolve", str(first), "--note", "again")
    assert code == 2 and "resolved already" in err and "warned" in err
    session.expire_all()
    assert session.get(ChatReport, first).resolution == "warned"
