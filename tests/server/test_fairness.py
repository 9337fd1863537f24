"""Verifiable fairness: a finished game's chance draws are confirmed from its revealed seed,
offline from the downloaded log or from the database; tampering is caught at its seq."""

from __future__ import annotations

import copy
import json
import random
import shutil
from dataclasses import dataclass

import engine.core as engine
import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from server import cli, db
from server.models import Game, LogEntry, Order
from server.services import fairness
from server.services import games as svc
from server.services.users import sha256_hex

SEATS = {"kennedy": None, "nixon": None}


# --- helpers shared with test_cli.py and test_metrics.py -----------------------------------
@dataclass
class Played:
    applied: int = 0  # orders applied (sequential orders, and every order of a resolved step)
    resolutions: int = 0  # simultaneous steps resolved


def state_of(session, gid):
    session.expire_all()
    return svc.whole_state(session, session.get(Game, gid))


def both_choose(state) -> bool:
    """A simultaneous step where every seat has a real choice (no order is sealed for it)."""
    active = state.active()
    return len(active) > 1 and all(len(state.legal_actions(s)) > 1 for s in active)


def play(session, gid, rng, until=lambda state: False, played: Played | None = None,
         limit: int = 5000):
    """Take random legal decisions through the order service until ``until(state)`` holds or
    the game ends; return the state reached."""
    played = played if played is not None else Played()
    for _ in range(limit):
        state = state_of(session, gid)
        game = session.get(Game, gid)
        if game.status != "active" or until(state):
            return state
        active = state.active()
        if len(active) == 1:
            svc.submit_order(session, gid, active[0], game.step,
                             [rng.choice(state.legal_actions(active[0]))], by_player=False)
            played.applied += 1
            continue
        sealed = set(session.exec(select(Order.seat).where(
            Order.game_id == gid, Order.step == game.step, Order.status == "pending")).all())
        for seat in active:
            if seat not in sealed:
                svc.submit_order(session, gid, seat, game.step,
                                 [rng.choice(state.legal_actions(seat))], by_player=False)
        assert svc.resolve_step(session, gid, game.step)
        played.applied += len(active)
        played.resolutions += 1
    raise AssertionError("the game did not get there")


def new_game(session, seed) -> int:
    return svc.create_game(session, "tmotp", {}, SEATS, seed=seed).id


def copy_database(src_url: str, dst_dir) -> str:
    """A copy of a (closed) SQLite database file in dst_dir; returns its URL."""
    src = src_url.removeprefix("sqlite:///")
    dst = dst_dir / "copy.db"
    shutil.copy(src, dst)
    return f"sqlite:///{dst}"


# --- a finished game, played once per module ------------------------------------------------
@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A game played to the end through the order service; the database URL, the game id and
    the log exactly as GET /api/v1/games/{id}/log gives it after the end."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fair') / 'finished.db'}"
    db.migrate(url)
    eng = db.make_engine(url)
    with Session(eng) as session:
        gid = new_game(session, "fair-seed-1")
        play(session, gid, random.Random(11))
        game = session.get(Game, gid)
        assert game.status == "finished"
        data = {"game_id": gid, "game_type": game.game_type, "options": game.options,
                "seed_hash": game.seed_hash, "seed": game.seed, "complete": True,
                "entries": svc.log_for(session, game, None)}
        result = game.result
    eng.dispose()  # closes every connection: the file alone holds the database
    return {"url": url, "gid": gid, "log": data, "result": result}


def _random_draws(data):
    """The seqs of chance entries that had more than one possible outcome, with the state
    just before each."""
    state = engine.new_game(data["game_type"], seed=data["seed"], options=data["options"])
    out = []
    for entry in data["entries"]:
        if entry["chance"] and len(state.chance_weights()[0]) > 1:
            out.append((entry["seq"], copy.deepcopy(state)))
        state.apply(entry["seat"], entry["action"])
    return out


def _tampered(data, index=None):
    """The log with one random chance outcome changed to another legal outcome."""
    draws = _random_draws(data)
    seq, state = draws[len(draws) // 2 if index is None else index]
    logged = data["entries"][seq]["action"]
    other = next(a for a in state.chance_weights()[0] if a != logged)
    bad = copy.deepcopy(data)
    bad["entries"][seq]["action"] = other
    return bad, seq, logged, other


# --- the pure verification ------------------------------------------------------------------
def test_finished_game_verifies(finished):
    data = finished["log"]
    result = fairness.verify_log_file(data)
    chance = [e for e in data["entries"] if e["chance"]]
    assert result.ok and result.seed_matches, result.reason
    assert result.entries == len(data["entries"])
    assert result.draws == len(chance) > 0
    assert result.random_draws == len(_random_draws(data)) > 0
    assert result.game_over and result.outcome["winner"] == finished["result"]["winner"]
    assert result.failed_seq is None and not result.notes


def test_changed_chance_outcome_fails_at_its_seq(finished):
    bad, seq, logged, other = _tampered(finished["log"])
    assert other != logged
    result = fairness.verify_log_file(bad)
    assert not result.ok and result.seed_matches
    assert result.failed_seq == seq
    assert result.expected == logged and result.logged == other
    chance_before = sum(1 for e in bad["entries"][:seq] if e["chance"])
    assert result.draws == chance_before
    assert f"'{logged}'" in result.reason and f"'{other}'" in result.reason


def test_first_draw_changed_fails_at_seq_0(finished):
    bad, seq, _, _ = _tampered(finished["log"], index=0)
    result = fairness.verify_log_file(bad)
    assert seq == 0 and not result.ok and result.failed_seq == 0 and result.draws == 0


def test_wrong_seed_fails_the_hash_check(finished):
    bad = dict(finished["log"], seed="not-the-seed")
    result = fairness.verify_log_file(bad)
    assert not result.ok and not result.seed_matches and result.entries == 0
    assert "does not match the committed hash" in result.reason
    assert sha256_hex("not-the-seed") in result.reason


def test_another_seed_with_its_own_hash_fails_at_the_first_random_draw(finished):
    # A server that swapped both seed and hash after the fact: the draws give it away.
    bad = dict(finished["log"], seed="other", seed_hash=sha256_hex("other"))
    result = fairness.verify_log_file(bad)
    first = _random_draws(finished["log"])[0][0]
    assert result.seed_matches and not result.ok
    assert result.failed_seq is not None and result.failed_seq <= first


def test_missing_and_illegal_entries_are_named(finished):
    data = finished["log"]
    gap = copy.deepcopy(data)
    del gap["entries"][5]
    result = fairness.verify_log_file(gap)
    assert not result.ok and result.failed_seq == 6 and "skips" in result.reason
    seat_entry = next(e for e in data["entries"] if not e["chance"])
    illegal = copy.deepcopy(data)
    illegal["entries"][seat_entry["seq"]]["action"] = "strategy 99"
    result = fairness.verify_log_file(illegal)
    assert not result.ok and result.failed_seq == seat_entry["seq"]
    assert "not legal" in result.reason


def test_log_file_without_seed_is_refused(finished):
    with pytest.raises(fairness.LogFileError, match="revealed only when the game ends"):
        fairness.verify_log_file(dict(finished["log"], seed=None))
    with pytest.raises(fairness.LogFileError, match="entries"):
        fairness.verify_log_file({k: v for k, v in finished["log"].items() if k != "entries"})


# --- the CLI: the --file form (offline) -----------------------------------------------------
def test_verify_file_command(finished, tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(finished["log"]))
    assert cli.main(["verify", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    draws = sum(1 for e in finished["log"]["entries"] if e["chance"])
    assert f"confirmed {draws} chance draws" in out
    assert "OK: every chance draw" in out

    bad, seq, _, _ = _tampered(finished["log"])
    path.write_text(json.dumps(bad))
    assert cli.main(["verify", "--file", str(path)]) == 1
    assert f"FAILED at seq {seq}:" in capsys.readouterr().out

    path.write_text(json.dumps(dict(finished["log"], seed="x")))
    assert cli.main(["verify", "--file", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["seed_matches"] is False

    path.write_text(json.dumps(dict(finished["log"], seed=None)))
    assert cli.main(["verify", "--file", str(path)]) == 2
    assert "revealed only when the game ends" in capsys.readouterr().err

    path.write_text("{not json")
    assert cli.main(["verify", "--file", str(path)]) == 2
    assert "is not JSON" in capsys.readouterr().err


# --- the CLI: from the database -------------------------------------------------------------
@pytest.fixture
def finished_db(finished, tmp_path, monkeypatch):
    url = copy_database(finished["url"], tmp_path)
    monkeypatch.setenv("WHISTLESTOP_DATABASE_URL", url)
    monkeypatch.setenv("WHISTLESTOP_VAR_DIR", str(tmp_path / "var"))
    eng = db.make_engine(url)
    yield eng
    eng.dispose()


def test_verify_finished_game_from_the_database(finished, finished_db, capsys):
    gid = finished["gid"]
    assert cli.main(["verify", str(gid)]) == 0
    out = capsys.readouterr().out
    assert "seed matches seed_hash" in out and "OK: every chance draw" in out
    assert cli.main(["verify", str(gid), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["seed"] == "fair-seed-1"
    assert report["draws"] == sum(1 for e in finished["log"]["entries"] if e["chance"])


def test_verify_tampered_database_log_names_the_seq(finished, finished_db, capsys):
    gid = finished["gid"]
    bad, seq, _, other = _tampered(finished["log"])
    with Session(finished_db) as session:
        session.execute(update(LogEntry).where(LogEntry.game_id == gid, LogEntry.seq == seq)
                        .values(action=other))
        session.commit()
    assert cli.main(["verify", str(gid)]) == 1
    assert f"FAILED at seq {seq}:" in capsys.readouterr().out


def test_verify_refuses_a_game_in_play_unless_operator(finished_db, capsys):
    with Session(finished_db) as session:
        gid = new_game(session, "in-play-seed")
        play(session, gid, random.Random(2), until=lambda s: s.log_length() > 40)
    assert cli.main(["verify", str(gid)]) == 2
    err = capsys.readouterr().err
    assert "not finished" in err and "--operator" in err
    assert cli.main(["verify", str(gid), "--operator"]) == 0
    out = capsys.readouterr().out
    assert "OK: every chance draw" in out and "in-play-seed" not in out
    assert "seed not shown" in out
    assert cli.main(["verify", str(gid), "--operator", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and not report["game_over"] and "seed" not in report


def test_verify_unknown_game_and_bad_arguments(finished_db, capsys):
    assert cli.main(["verify", "999"]) == 2
    assert "there is no game 999" in capsys.readouterr().err
    assert cli.main(["verify"]) == 2
    assert "give a game id or --file" in capsys.readouterr().err
    assert cli.main(["verify", "1", "--file", "x.json"]) == 2
