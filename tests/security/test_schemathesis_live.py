"""Schemathesis against the live API (issue 23): every check and every phase, the stateful one
included, with a fixed budget and deterministic generation: 0 server errors, 0 schema
violations, 0 failed checks.

The app is served over real sockets (werkzeug, in a thread of this process) on a fresh migrated
SQLite file; Schemathesis runs as its own process as ann, with bob as her peer (the
object-level authorization check replays ann's reads of her objects as bob), and games between
them so that ids exist.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from schemathesis.checks import CHECKS, load_all_checks

import pytest

from tests.server.api.helpers import Client, Player
from tests.services import free_port
from tests.web.browser import LiveServer

ROOT = str(Path(__file__).resolve().parents[2])

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)

# Test cases per operation and phase, generated deterministically. For a longer hunt by hand:
# ST_MAX_EXAMPLES=500 for more cases, ST_SEED=<n> for other ones (random, from that seed).
MAX_EXAMPLES = int(os.environ.get("ST_MAX_EXAMPLES", 100))
GENERATION = (["--seed", os.environ["ST_SEED"]] if os.environ.get("ST_SEED")
              else ["--generation-deterministic"])
PHASES = ("examples", "coverage", "fuzzing", "stateful")

# Every check runs ([checks] enabled = true; `--checks all` on the command line would override
# the per-operation switches below). A check is switched off only for an operation where it
# cannot hold, and why:
NOT_APPLICABLE = {
    # A game's seats are named by its type and options (Mr. President: p1 to p<players>), one
    # address per seat, each reminder before decision_hours: rules across fields that JSON
    # Schema cannot state, so a body the schema allows may still be refused (422, saying why).
    "POST /api/v1/games": ["positive_data_acceptance"],
    # Whether an action is legal is the game's position, not the order's shape (an order in the
    # game's notation is refused with the reason and the legal actions: 422).
    "POST /api/v1/games/{game_id}/orders": ["positive_data_acceptance"],
    # Issue 27: a new invitation code is for a free seat of the game (its type's seat names,
    # not a bot's, not taken): the game's rows, so a seat the schema allows may be refused
    # (422 naming it, 409 taken).
    "POST /api/v1/games/{game_id}/code": ["positive_data_acceptance"],
    # A display name is letters and digits of any script, at most 3 marks on a letter, a full
    # stop only at the end of a word (server/services/display_names.py): Unicode categories,
    # which a JSON Schema pattern cannot state.
    "POST /api/v1/users": ["positive_data_acceptance"],
    # A game's id is the registry's, which a game may join at run time (a test's game): an
    # unknown one is refused (422) naming the games there are.
    "GET /api/v1/ratings": ["positive_data_acceptance"],
    # Issue 27, table talk: who may post where is the game's seats and the creator's choice,
    # a line of only blanks or with control characters is refused in words (422); one's own
    # line is not reported, nor reported twice; nobody mutes themselves.
    "POST /api/v1/games/{game_id}/chat": ["positive_data_acceptance"],
    "POST /api/v1/games/{game_id}/chat/{message_id}/report": ["positive_data_acceptance"],
    "POST /api/v1/users/me/mutes": ["positive_data_acceptance"],
    # Issue 27, your data: deleting the account asks for its own address typed again (422
    # "confirmation required" otherwise), which no schema can know.
    "DELETE /api/v1/users/me": ["positive_data_acceptance"],
    # At least one of time_zone and retract_hold_seconds (an empty change is refused, 422).
    "PATCH /api/v1/me": ["positive_data_acceptance"],
    # Issue 27, schedule: a vacation is booked at least VACATION_NOTICE_HOURS ahead, within
    # the year's allowance, its last day not before its first: the clock's and the account's
    # rules; quiet hours are both times or both null (one alone is refused, 422).
    "POST /api/v1/users/me/vacations": ["positive_data_acceptance"],
    "PUT /api/v1/users/me/quiet-hours": ["positive_data_acceptance"],
    # Issue 46: a choice about an absent seat is the game's state (a seat that is absent, a
    # choice allowed now: 409, 400 naming the choices), a replacement's code one a player was
    # given (404 otherwise), and only a player whose seat a bot plays comes back (409).
    "POST /api/v1/games/{game_id}/absences/{seat}": ["positive_data_acceptance"],
    "POST /api/v1/games/{game_id}/take-seat": ["positive_data_acceptance"],
    "POST /api/v1/games/{game_id}/come-back": ["positive_data_acceptance"],
}

CONFIG = """[checks]
enabled = true

[auth.wfc]
path = "{auth}"
user = "ann"
peers = ["ann", "bob"]
"""

OPERATION = """
[[operations]]
include-name = "{label}"
checks.{check}.enabled = false
"""


def _config(folder: Path, players: dict[str, Player]) -> str:
    """schemathesis.toml: the players' tokens (a Web Fuzzing Commons document), as peers."""
    auth = folder / "auth.json"
    auth.write_text(json.dumps({"auth": [
        {"name": name, "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {p.token}"}]}
        for name, p in players.items()]}))
    config = folder / "schemathesis.toml"
    config.write_text(CONFIG.format(auth=auth) + "".join(
        OPERATION.format(label=label, check=check)
        for label, checks in NOT_APPLICABLE.items() for check in checks))
    return str(config)


def _later_token(client: Client, player: Player, spare: int = 2) -> Player:
    """The player with a token made after ``spare`` others of theirs, which DELETE
    /users/me/tokens/{token_id} may revoke (the run's own are kept: schemathesis_hooks.py)."""
    for _ in range(spare + 1):
        r = client.post("/me/tokens", player)
        assert r.status_code == 201, r.get_json()
        player = dataclasses.replace(player, token=r.get_json()["token"])
    return player


def _token_id(client: Client, player: Player) -> int:
    """The id of the token ``player`` runs with (the list marks the caller's own)."""
    r = client.get("/users/me/tokens", player)
    assert r.status_code == 200, r.get_json()
    (current,) = [t["id"] for t in r.get_json() if t["current"]]
    return current


def _report(folder: Path) -> tuple[dict[str, str], set[str], Counter]:
    """From the NDJSON report: each phase's status, the checks that ran, and how many stateful
    scenarios followed how many links."""
    phases, checks, links = {}, set(), Counter()
    (path,) = folder.glob("*.ndjson")
    for line in path.read_text().splitlines():
        ((kind, event),) = json.loads(line).items()
        if kind == "PhaseFinished":
            phases[event["phase"]["name"]] = event["status"]
        elif kind == "ScenarioFinished":
            recorder = event["recorder"]
            checks.update(c["name"] for cs in (recorder.get("checks") or {}).values() for c in cs)
            if event["phase"] == "stateful":
                links[sum(bool(case.get("is_transition_applied"))
                          for case in (recorder.get("cases") or {}).values())] += 1
    return phases, checks, links


def test_schemathesis_finds_nothing_against_the_live_api(app, client, store, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="werkzeug")  # not a line per request
    ann, bob = client.signup("ann@example.org", "Ann"), client.signup("bob@example.org", "Bob")
    ann, bob = _later_token(client, ann), _later_token(client, bob)
    client.two_player_game(store, ann, bob, seed="schemathesis-private")
    client.two_player_game(store, bob, ann, seed="schemathesis-public", public=True)
    client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email})  # bob may join
    reports = tmp_path / "reports"
    kept = ",".join(str(_token_id(client, p)) for p in (ann, bob))
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.security.schemathesis_hooks",
           "WS_KEPT_TOKEN_IDS": kept,
           "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    with LiveServer(app, free_port()) as server:
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli",
             "--config-file", _config(tmp_path, {"ann": ann, "bob": bob}),
             "run", f"{server.url}/api/v1/openapi.json",
             "--phases", ",".join(PHASES), "--max-examples", str(MAX_EXAMPLES), *GENERATION,
             "--workers", "1", "--continue-on-failure", "--request-timeout", "30",
             "--no-color", "--output-truncate", "false",
             "--report", "ndjson", "--report-dir", str(reports)],
            capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)
    print(run.stdout, run.stderr)  # Schemathesis's report, shown by pytest on a failure
    exit_code = run.returncode
    assert exit_code == 0, "Schemathesis failed: its report is the captured stdout"

    # The run's own tokens still work at its end: the revoking operation did not cut it short.
    for player in (ann, bob):
        assert client.get("/me", player).status_code == 200, player.email

    phases, checks, links = _report(reports)
    assert {name: phases.get(name) for name in PHASES} == dict.fromkeys(PHASES, "success")
    load_all_checks()
    assert set(CHECKS.get_all_names()) <= checks
    # The stateful phase chained calls: many scenarios followed links, some several in a row.
    assert sum(n for followed, n in links.items() if followed) >= 10, links
    assert sum(n for followed, n in links.items() if followed >= 2) >= 3, links
