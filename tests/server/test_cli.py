"""The operator CLI against a migrated SQLite file: users and tokens, creating, showing and
replaying games, stuck steps, the outbox; and the real `whistlestop` console script."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, update
from sqlmodel import select

from server import cli
from server.models import ApiToken, Game, LogEntry, Order, OutboxMessage, Seat, User, utcnow
from server.services import games as svc
from server.services import lobby, users
from tests.server.test_fairness import both_choose, new_game, play, state_of

WHISTLESTOP = Path(sys.executable).with_name("whistlestop")


@pytest.fixture
def env(db_url, tmp_path, monkeypatch):
    """The CLI's environment: the migrated database, every other path in tmp_path."""
    values = {"WHISTLESTOP_DATABASE_URL": db_url,
              "WHISTLESTOP_VAR_DIR": str(tmp_path / "var"),
              "WHISTLESTOP_BROKER_URL": "filesystem://",
              "WHISTLESTOP_BROKER_DIR": str(tmp_path / "broker"),
              "WHISTLESTOP_RESULT_BACKEND": f"db+sqlite:///{tmp_path / 'results.db'}"}
    for key in [k for k in os.environ if k.startswith("WHISTLESTOP_")]:
        monkeypatch.delenv(key)
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return {**{k: v for k, v in os.environ.items()}, **values}


@pytest.fixture
def run(env, session, capsys):
    """Run `whistlestop ARGV...` in process; return (exit code, stdout, stderr)."""
    def call(*argv):
        session.commit()  # end the test's transaction: on SQLite it holds the write lock
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err
    return call


@pytest.fixture
def script(env, session):
    """Run the real `whistlestop` console script in a subprocess."""
    def call(*argv):
        session.commit()
        return subprocess.run([str(WHISTLESTOP), *argv], env=env, capture_output=True,
                              text=True, timeout=120)
    return call


def _count(session, model):
    session.expire_all()
    return session.exec(select(func.count()).select_from(model)).one()


# --- users and tokens -----------------------------------------------------------------------
def test_create_user_and_issue_token(run, session):
    code, out, _ = run("create-user", "Alice@Example.COM", "--name", "Alice")
    assert code == 0 and "alice@example.com (Alice)" in out
    user = users.find_user(session, "alice@example.com")
    assert user.display_name == "Alice"

    code, _, err = run("create-user", "alice@example.com")
    assert code == 2 and "already exists" in err
    code, _, err = run("create-user", "not-an-address")
    assert code == 2 and "not an email address" in err
    assert _count(session, User) == 1

    code, out, err = run("issue-token", "alice@example.com")
    token = out.strip()
    assert code == 0 and token.startswith("ws_") and "shown only this once" in err
    caller = users.user_for_token(session, token)
    # The caller as its token's read found it: every column of the account, read-only.
    assert caller._asdict() == {c: getattr(user, c) for c in User.__table__.c.keys()}
    with pytest.raises(AttributeError):
        caller.email = "mallory@example.com"
    stored = session.exec(select(ApiToken)).one()
    assert stored.token_hash == users.sha256_hex(token) != token

    code, out, err = run("issue-token", "nobody@example.com")
    assert code == 2 and out == "" and "no user with the address nobody@example.com" in err


# --- create-game ----------------------------------------------------------------------------
def test_create_game_creates_users_and_starts(run, session):
    users.create_user(session, "ann@example.com", "Ann")
    code, out, _ = run("create-game", "--type", "tmotp", "--edition", "zman",
                       "--option", "vp_cards=true", "--seat", "kennedy=ann@example.com",
                       "--seat", "nixon=Bob@Example.com", "--public", "--seed", "s-42", "--json")
    assert code == 0
    record = json.loads(out)
    session.expire_all()
    game = session.get(Game, record["id"])
    assert game.status == "active" and game.step == 1 and game.public
    assert game.options == {"edition": "zman", "vp_cards": True}
    assert game.seed == "s-42" and game.seed_hash == record["seed_hash"] == svc.sha256_hex("s-42")
    assert "s-42" not in out  # the seed stays secret
    seats = {s.seat: session.get(User, s.user_id).email
             for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    assert seats == {"kennedy": "ann@example.com", "nixon": "bob@example.com"}
    assert _count(session, User) == 2  # Ann reused, Bob created
    assert svc.rebuild(session, game.id)

    code, out, _ = run("create-game", "--type", "tmotp", "--seat", "kennedy=c@x.org",
                       "--seat", "nixon=d@x.org")
    assert code == 0 and out.startswith("game 2 started: tmotp") and "seed_hash" in out


@pytest.mark.parametrize("argv, message", [
    (["--seat", "kennedy=a@x.org"], "the seats of tmotp are kennedy, nixon"),
    (["--seat", "kennedy=a@x.org", "--seat", "nixon=a@x.org"], "two seats"),
    (["--seat", "kennedy=a@x.org", "--seat", "nixon=b@x.org", "--option", "bogus=1"],
     "Unknown option(s) bogus"),
    (["--seat", "kennedy=a@x.org", "--seat", "nixon=b@x.org", "--edition", "avalon"],
     "Edition 'avalon' does not exist"),
    (["--seat", "kennedy", "--seat", "nixon=b@x.org"], "must look like NAME=VALUE"),
    (["--seat", "kennedy=a@x.org", "--seat", "nixon=b@x.org", "--seat", "nixon=c@x.org"],
     "given twice"),
])
def test_create_game_refuses_bad_input(run, session, argv, message):
    code, out, err = run("create-game", "--type", "tmotp", *argv)
    assert code == 2 and message in err and out == ""
    assert _count(session, Game) == 0 and _count(session, User) == 0


def test_create_game_unknown_type(run, session):
    code, _, err = run("create-game", "--type", "chess", "--seat", "white=a@x.org")
    assert code == 2 and "No game 'chess'" in err
    code, _, err = run("create-game", "--seat", "kennedy=a@x.org")
    assert code == 2 and "--type" in err


# --- show-game ------------------------------------------------------------------------------
def test_show_game_hides_sealed_orders_unless_revealed(run, session):
    gid = new_game(session, "b")
    state = play(session, gid, random.Random(1), until=both_choose)
    step = session.get(Game, gid).step
    secret = state.legal_actions("kennedy")[-1]
    svc.submit_order(session, gid, "kennedy", step, [secret])

    code, out, _ = run("show-game", str(gid), "--log", "3")
    assert code == 0
    assert f"status active  step {step}" in out
    assert f"  step {step} kennedy: sealed\n" in out
    assert "kennedy [sealed]: " + state.prompt("kennedy") in out
    assert "nixon [waiting]: " + state.prompt("nixon") in out
    assert f"log (last 3 of {state.log_length()}, redacted" in out
    assert "seed " not in out.replace("seed_hash ", "")

    code, out, _ = run("show-game", str(gid), "--json", "--log", "3")
    record = json.loads(out)
    assert record["pending_orders"] == [{
        "id": record["pending_orders"][0]["id"], "step": step, "seat": "kennedy",
        "actions": None, "sealed": True, "updated_at": record["pending_orders"][0]["updated_at"]}]
    assert [d["seat"] for d in record["decision"]] == ["kennedy", "nixon"]
    assert [d["sealed"] for d in record["decision"]] == [True, False]
    assert [e["seq"] for e in record["log"]] == list(range(state.log_length() - 3,
                                                           state.log_length()))
    assert record["seed"] is None and record["log_redacted"]
    rows = session.exec(select(OutboxMessage)).all()
    mine = [m.id for m in rows if m.payload.get("game_id") == gid]
    assert [m["id"] for m in record["outbox"]] == mine and mine

    code, out, _ = run("show-game", str(gid), "--reveal-orders", "--json")
    record = json.loads(out)
    assert record["pending_orders"][0]["actions"] == [secret]
    assert record["seed"] == "b" and not record["log_redacted"]
    full = [[r.seat, r.action] for r in svc.log_of(session, gid)][-10:]
    assert [[e["seat"], e["action"]] for e in record["log"]] == full
    code, out, _ = run("show-game", str(gid), "--reveal-orders")
    assert f"  step {step} kennedy: {secret}\n" in out


def test_show_game_unknown_id_and_bad_arguments(run):
    code, out, err = run("show-game", "99")
    assert code == 2 and out == "" and "there is no game 99" in err
    code, _, err = run("show-game", "abc")
    assert code == 2 and "invalid int value" in err
    code, _, err = run("show-game", "1", "--log", "-1")
    assert code == 2 and "negative" in err


# --- replay ---------------------------------------------------------------------------------
def test_replay_detects_a_tampered_cache(run, session):
    good = new_game(session, "replay-good")
    bad = new_game(session, "replay-bad")
    creator = users.create_user(session, "host@example.com")
    opened, _ = lobby.open_game(session, creator, "tmotp", {},
                                {"kennedy": "host@example.com", "nixon": None})
    play(session, bad, random.Random(5), until=lambda s: s.log_length() > 30)
    assert run("replay", str(bad))[:2] == (0, f"game {bad}: OK\n")

    state = session.get(Game, bad).state
    tampered = json.loads(json.dumps(state))
    tampered["hands"]["kennedy"][0] = 999
    tampered["turn"] = state["turn"] + 1
    session.execute(update(Game).where(Game.id == bad).values(state=tampered))
    session.commit()

    code, out, _ = run("replay", str(bad))
    assert code == 1
    assert out == f"game {bad}: MISMATCH: differs at hands.kennedy[0], turn\n"

    code, out, _ = run("replay", "--all")
    assert code == 1
    assert f"game {good}: OK\n" in out and f"game {bad}: MISMATCH" in out
    assert f"game {opened.id}: skipped (not started" in out
    assert out.endswith("checked 3 games: 1 mismatch\n")

    # A log row changed under the cache: the log no longer replays at all.
    session.execute(update(Game).where(Game.id == bad).values(state=state))
    session.commit()
    assert run("replay", str(bad))[0] == 0
    first_seat_move = session.exec(select(LogEntry).where(
        LogEntry.game_id == bad, LogEntry.is_chance.is_(False)).order_by(LogEntry.seq)).first()
    session.execute(update(LogEntry).where(LogEntry.game_id == bad,
                                           LogEntry.seq == first_seat_move.seq)
                    .values(action="strategy 99"))
    session.commit()
    code, out, _ = run("replay", str(bad))
    assert code == 1 and "MISMATCH: the log does not replay" in out


def test_replay_arguments(run):
    assert run("replay")[0] == 2
    code, _, err = run("replay", "7")
    assert code == 2 and "there is no game 7" in err
    code, out, _ = run("replay", "--all")
    assert code == 0 and out == "checked 0 games: 0 mismatches\n"


# --- stuck-steps ----------------------------------------------------------------------------
def _backdate(session, model, where, seconds, *columns):
    then = utcnow() - timedelta(seconds=seconds)
    session.execute(update(model).where(*where).values(**{c: then for c in columns}))
    session.commit()


def test_stuck_steps(run, session):
    # Game A: every seat has sealed its order, and nothing resolved the step.
    a = new_game(session, "b")
    state = play(session, a, random.Random(1), until=both_choose)
    step = session.get(Game, a).step
    for seat in ("kennedy", "nixon"):
        svc.submit_order(session, a, seat, step, [state.legal_actions(seat)[0]])
    # Game B: only one seat has sealed; the other has not answered for two days.
    b = new_game(session, "b")
    play(session, b, random.Random(1), until=both_choose)
    b_step = session.get(Game, b).step
    svc.submit_order(session, b, "kennedy", b_step, [state_of(session, b).legal_actions(
        "kennedy")[0]])
    # Everything is fresh: nothing is stuck yet.
    code, out, _ = run("stuck-steps", "--older-than", "600")
    assert code == 0
    assert "committed steps not resolved after 600s: 0" in out

    _backdate(session, Order, [Order.game_id == a, Order.step == step], 3600,
              "created_at", "updated_at")
    _backdate(session, Game, [Game.id == a], 3600, "updated_at")
    _backdate(session, Order, [Order.game_id == b], 2 * 86400, "created_at", "updated_at")
    _backdate(session, Game, [Game.id == b], 2 * 86400, "updated_at")
    resolve = session.exec(select(OutboxMessage).where(
        OutboxMessage.kind == "resolve_step")).one()
    _backdate(session, OutboxMessage, [OutboxMessage.id == resolve.id], 3600, "created_at")
    session.execute(update(OutboxMessage).where(OutboxMessage.id == resolve.id)
                    .values(attempts=3, last_error="OperationalError: broker down"))
    session.commit()

    code, out, _ = run("stuck-steps", "--older-than", "600", "--json")
    assert code == 1
    found = json.loads(out)
    assert [(s["game_id"], s["step"], s["seats"]) for s in found["steps"]] == [
        (a, step, ["kennedy", "nixon"])]
    assert 3590 < found["steps"][0]["age_seconds"] < 3700
    assert [(m["id"], m["kind"], m["last_error"], m["attempts"]) for m in found["outbox"]] == [
        (resolve.id, "resolve_step", "OperationalError: broker down", 3)]
    assert found["outbox"][0]["payload"] == {"game_id": a, "step": step}
    assert found["decisions"] == []  # 2 days < the default 7 days

    code, out, _ = run("stuck-steps", "--older-than", "600",
                       "--decision-older-than", "1800")
    assert code == 1
    assert f"game {a} step {step}: every seat committed (kennedy, nixon) 60m ago" in out
    assert f"#{resolve.id} resolve_step" in out and "last_error: OperationalError" in out
    assert "decisions waiting over 1800s: 1\n" in out  # B only: A is listed as a stuck step
    assert f"game {b} step {b_step}: waiting for nixon for 2d" in out

    # Resolving the step (its task consumes the row) and consuming the rest clears it.
    assert svc.resolve_step(session, a, step, message_id=resolve.id)
    assert session.get(OutboxMessage, resolve.id).delivered_at is not None
    session.execute(update(OutboxMessage).values(delivered_at=utcnow()))
    session.commit()
    code, out, _ = run("stuck-steps", "--older-than", "600", "--json")
    found = json.loads(out)
    assert code == 0 and found["steps"] == [] and found["outbox"] == []


def test_stuck_steps_threshold_from_config(run, session, monkeypatch):
    new_game(session, "cfg")  # its outbox rows are a few milliseconds old
    monkeypatch.setenv("WHISTLESTOP_STUCK_AFTER_SECONDS", "0")
    code, out, _ = run("stuck-steps")
    assert code == 1 and "outbox rows unconsumed after 0s: 2" in out
    monkeypatch.setenv("WHISTLESTOP_STUCK_AFTER_SECONDS", "3600")
    assert run("stuck-steps")[0] == 0


# --- the database is not there --------------------------------------------------------------
def test_unmigrated_database_exits_3(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WHISTLESTOP_DATABASE_URL", f"sqlite:///{tmp_path / 'empty.db'}")
    monkeypatch.setenv("WHISTLESTOP_VAR_DIR", str(tmp_path / "var"))
    code = cli.main(["show-game", "1"])
    err = capsys.readouterr().err
    assert code == 3 and "no such table" in err and "whistlestop initdb" in err


# --- the real console script ----------------------------------------------------------------
COMMANDS = ("version", "initdb", "create-user", "issue-token", "create-game", "show-game",
            "replay", "republish-outbox", "stuck-steps", "verify")


def test_every_command_has_help(run):
    code, out, _ = run("--help")
    assert code == 0 and "exit codes:" in out
    for command in COMMANDS:
        assert command in out
        code, out_sub, _ = run(command, "--help")
        assert code == 0 and f"usage: whistlestop {command}" in out_sub
        assert len(out_sub.splitlines()) > 3
    code, _, err = run("no-such-command")
    assert code == 2 and "invalid choice" in err


def test_console_script_help_and_errors(script):
    assert WHISTLESTOP.exists()
    done = script("--help")
    assert done.returncode == 0 and all(c in done.stdout for c in COMMANDS)
    done = script("show-game", "12345")
    assert done.returncode == 2 and "there is no game 12345" in done.stderr


def test_console_script_republishes_the_outbox(script, session, tmp_path):
    new_game(session, "outbox")
    rows = session.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    assert len(rows) == 2 and all(r.published_at is None for r in rows)
    queue = tmp_path / "broker" / "queue"

    done = script("republish-outbox")  # no worker runs: nothing is consumed
    assert done.returncode == 0, done.stderr
    assert done.stdout == "sent 2 rows; 0 could not be sent\n"
    session.expire_all()
    assert all(r.published_at is not None and r.delivered_at is None
               for r in session.exec(select(OutboxMessage)))
    assert len(list(queue.iterdir())) == 2  # two messages wait in the broker

    # Consumed rows are not sent again, unless named.
    session.execute(update(OutboxMessage).values(delivered_at=utcnow()))
    session.commit()
    done = script("republish-outbox")
    assert done.stdout == "sent 0 rows; 0 could not be sent\n"
    done = script("republish-outbox", "--id", str(rows[0].id))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "sent 1 rows; 0 could not be sent\n"
    assert len(list(queue.iterdir())) == 3
    session.expire_all()
    assert session.get(OutboxMessage, rows[0].id).attempts == 2



def test_republish_unknown_row(run):
    code, out, err = run("republish-outbox", "--id", "999", "--id", "1000")
    assert code == 2 and out == "" and "no outbox row 999, 1000" in err
