"""Verifiable fairness: check that a game's chance draws are the ones its committed seed gives.

At creation every seat sees ``seed_hash`` = sha256 hex of the secret seed; the seed is revealed
when the game ends. Anybody holding the revealed seed and the full log (the API's
``GET /api/v1/games/{id}/log`` after the end) can then check, offline:

1. sha256(seed) == seed_hash: the seed is the one committed to before the first draw;
2. the log replays from the seed under the rules (every entry is a legal action at its place);
3. at every chance entry, the outcome the seeded sampler draws at that log position
   (``engine.core.sample_chance``: a generator derived from (seed, log position) only) is the
   outcome the log records. So the server could not choose a draw, nor re-draw one.

Everything here is a pure function of (game_type, options, seed, seed_hash, entries); the CLI
(``whistlestop verify``) only prints the result.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import engine.core as engine
from engine.core import CHANCE, ActionError, OptionsError


class LogFileError(ValueError):
    """A downloaded log file that is not in the expected shape."""


@dataclass
class Verification:
    ok: bool = False
    seed_matches: bool = False
    entries: int = 0  # log entries replayed
    draws: int = 0  # chance entries confirmed
    random_draws: int = 0  # of which had more than one possible outcome
    game_over: bool = False  # the replay reached the end of the game by the rules
    outcome: dict | None = None  # winner and reason, when the replay reached the end
    failed_seq: int | None = None  # seq of the first entry that failed
    expected: str | None = None  # what the seed draws there
    logged: str | None = None  # what the log records there
    reason: str = ""  # the failure, in words
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _entry(raw: Mapping[str, Any], index: int) -> tuple[int, str, str, bool]:
    try:
        seq, seat, action = int(raw["seq"]), str(raw["seat"]), str(raw["action"])
    except (KeyError, TypeError, ValueError):
        raise LogFileError(f"Log entry #{index} needs seq, seat and action.") from None
    chance = bool(raw.get("chance", seat == CHANCE))
    return seq, seat, action, chance


def verify(game_type: str, options: Mapping[str, Any] | None, seed: str, seed_hash: str,
           entries: Iterable[Mapping[str, Any]]) -> Verification:
    """Check the seed against its hash, then replay ``entries`` confirming every chance draw.

    ``entries`` are {"seq", "seat", "action", "chance"} dicts, in any order. Stops at the first
    failure and names its seq.
    """
    result = Verification()
    seed = str(seed)
    if sha256_hex(seed) != str(seed_hash).strip().lower():
        result.reason = (f"The seed does not match the committed hash: sha256(seed) is "
                         f"{sha256_hex(seed)}, the game committed to {seed_hash}.")
        return result
    result.seed_matches = True
    rows = sorted((_entry(raw, i) for i, raw in enumerate(entries)), key=lambda e: e[0])
    try:
        state = engine.new_game(game_type, seed=seed, options=dict(options or {}))
    except OptionsError as exc:  # an unknown game or bad options
        result.reason = f"The game cannot be set up: {exc}"
        return result
    for seq, seat, action, chance in rows:
        result.failed_seq, result.logged = seq, action
        if seq != state.log_length():
            result.reason = (f"The log skips or repeats a position: entry seq {seq} where "
                             f"seq {state.log_length()} was expected.")
            return result
        if chance != (seat == CHANCE):
            result.reason = f"Entry {seq} is marked chance={chance} but its seat is '{seat}'."
            return result
        active = state.active()
        if chance:
            if active != [CHANCE]:
                result.reason = (f"Entry {seq} is a chance draw, but no draw is due there "
                                 f"({', '.join(active) or 'the game is over'} must act).")
                return result
            outcomes, _weights = state.chance_weights()
            expected = engine.sample_chance(state)
            if expected != action:
                result.expected = expected
                result.reason = (f"Chance draw {seq} does not match the seed: the seed draws "
                                 f"'{expected}', the log records '{action}'.")
                return result
            result.draws += 1
            result.random_draws += len(outcomes) > 1
        elif active == [CHANCE]:
            result.reason = f"Entry {seq} is {seat}'s action, but a chance draw is due there."
            return result
        try:
            state.apply(seat, action)
        except ActionError as exc:
            result.reason = f"Entry {seq} ({seat}: {action}) is not legal there: {exc.reason}"
            return result
        result.entries += 1
    result.failed_seq = result.logged = None
    result.game_over = not state.active()
    if result.game_over:
        outcome = state.outcome()
        result.outcome = outcome.to_dict() if outcome else None
    else:
        result.notes.append("The log ends before the end of the game by the rules "
                            "(a resignation, or a game still in play).")
    result.ok = True
    return result


def verify_log_file(data: Mapping[str, Any]) -> Verification:
    """Verify the JSON a player downloads from ``GET /api/v1/games/{id}/log`` after the end."""
    if not isinstance(data, Mapping):
        raise LogFileError("The log file must be a JSON object.")
    missing = [k for k in ("game_type", "seed_hash", "entries") if k not in data]
    if missing:
        raise LogFileError(f"The log file lacks {', '.join(missing)}.")
    if data.get("seed") in (None, ""):
        raise LogFileError("The log file carries no seed: the seed is revealed only when the "
                           "game ends; download the log again after the end.")
    if not isinstance(data["entries"], list):
        raise LogFileError("The log file's entries must be a list.")
    result = verify(data["game_type"], data.get("options") or {}, data["seed"],
                    data["seed_hash"], data["entries"])
    if result.ok and data.get("complete") is False:
        result.notes.append("The file says its log is not complete.")
    return result
