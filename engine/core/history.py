"""A state's history kept apart from the rest of it (issue 28: an order's load must not grow
with the game's length).

A state kept as a plain dict (``Machine``) holds its history in two lists: ``log``, the
[seat, action] pairs applied, and ``notes``, what happened in words. They are the largest
part of a late game's state, and only the views read them whole: the rules read the log's
length (chance, the cache of legal actions, where a note belongs) and, when a simultaneous
step resolves, the entries of its own commitments.

So a state may be *trimmed*: ``log_from`` and ``notes_from`` say how many log entries and
notes come before those it holds. ``split`` trims a state to what the rules need (the log
entries of a simultaneous step still being committed, no notes) and says which parts of the
history it holds; ``join`` puts the whole state back together from the history kept
elsewhere (the server keeps it in rows). A trimmed state plays exactly as the whole one
(tests/engine/test_history.py); its view refuses (``HistoryNotHeld``).
"""
from __future__ import annotations

HISTORY = ("log", "notes")
COUNTS = ("log_from", "notes_from")


class HistoryNotHeld(Exception):
    """A trimmed state was asked for history it does not hold (a view, or log entries from
    before those it holds). A programming error: the caller must join the history first."""


def is_trimmed(data: dict) -> bool:
    return "log_from" in data


def pending_commits(data: dict) -> int:
    """How many commitments the step on top of the stack holds (their log entries are read
    when it resolves)."""
    stack = data.get("stack") or []
    return len(stack[-1].get("commits", {})) if stack else 0


def split(data: dict) -> tuple[dict, tuple[int, list], tuple[int, list]]:
    """``data`` (a whole or trimmed state) as (the trimmed state, (where its log starts, the
    log entries it held), (where its notes start, the notes it held)). The trimmed state
    keeps the log entries of the commitments pending on top of the stack and no notes; it
    shares values with ``data`` (a shallow copy)."""
    log_from, notes_from = data.get("log_from", 0), data.get("notes_from", 0)
    log, notes = data["log"], data["notes"]
    keep = min(pending_commits(data), len(log))
    rest = {k: v for k, v in data.items() if k not in HISTORY and k not in COUNTS}
    rest.update(log=log[len(log) - keep:], notes=[], log_from=log_from + len(log) - keep,
                notes_from=notes_from + len(notes))
    return rest, (log_from, log), (notes_from, notes)


def join(trimmed: dict, log: list, notes: list) -> dict:
    """The whole state: ``trimmed`` with its whole ``log`` and ``notes`` (kept elsewhere).
    ValueError if they do not fit it (so many entries and notes, ending in those it holds)."""
    log_from, notes_from = trimmed["log_from"], trimmed["notes_from"]
    held_log, held_notes = trimmed["log"], trimmed["notes"]
    if (len(log) != log_from + len(held_log) or len(notes) != notes_from + len(held_notes)
            or [list(e) for e in log[log_from:]] != [list(e) for e in held_log]):
        raise ValueError(f"The history does not fit the state: {len(log)} log entries and "
                         f"{len(notes)} notes for a state after {log_from + len(held_log)} "
                         f"entries and {notes_from + len(held_notes)} notes.")
    whole = {k: v for k, v in trimmed.items() if k not in HISTORY and k not in COUNTS}
    whole.update(log=list(log), notes=list(notes))
    return whole
