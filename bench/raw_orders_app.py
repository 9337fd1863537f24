"""The limit for bench/order_throughput.py: the order request with the raw database driver only.

A one-route Flask app (no SQLAlchemy, no engine, no schemas) that answers ``POST
/api/v1/games/<id>/orders`` with the same reads and writes as the real endpoint: the token's
user, the game row with its cached state (without its history since issue 28: the log and the
notes are in rows, server/services/game_history.py), the seat, the order row, the new log rows, a
note row, the game row saved with its step bumped by compare-and-set, one outbox row, one commit;
and a JSON answer of the same shape. It applies no rules, so it is what the request costs without the engine and the
ORM. Served by gunicorn exactly like the real app. Database: BENCH_SQLITE_PATH. It reads and
writes the JSON with orjson, as the real app's database engine does (server/db.py), so the
limit is not slowed by a codec the real app does not use; and it waits for SQLite's write lock as
the real app does.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
from datetime import datetime, timezone
from urllib.parse import urlsplit

import orjson
from flask import Flask, jsonify, request

from server.db import begin_immediate

app = Flask(__name__)
_conn: sqlite3.Connection | None = None
_news: list = []  # [socket, channel] once made: the process's own one-way Redis connection


def _news_socket():
    """The worker's own connection to the Redis broker, answers off (made at its first
    order, in the worker: gunicorn forks after loading the app); None without Redis."""
    if not _news:
        url = os.environ.get("WHISTLESTOP_BROKER_URL", "")
        if os.environ.get("BENCH_LIMIT_SENDS") != "1" or not url.startswith("redis://"):
            _news.extend([None, None])
        else:
            parts = urlsplit(url)
            sock = socket.create_connection((parts.hostname, parts.port or 6379))
            sock.sendall(_command(b"CLIENT", b"REPLY", b"OFF"))
            number = parts.path.strip("/") or "0"
            _news.extend([sock, f"whistlestop:{number}:games".encode()])
    return _news[0]


def _command(*parts: bytes) -> bytes:
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)


def _db() -> sqlite3.Connection:
    global _conn
    if _conn is None:
        # The same settings as server/db.py: WAL with synchronous=NORMAL (until 2026-11-27 the
        # limit kept SQLite's default, FULL, and waited for the disk at every commit, which the
        # real app has not done since 2026-11-22: a slower limit, a flattering ratio), a busy
        # timeout, BEGIN IMMEDIATE.
        _conn = sqlite3.connect(os.environ["BENCH_SQLITE_PATH"], timeout=30,
                                isolation_level=None, check_same_thread=False)
        _conn.execute("PRAGMA journal_mode=WAL")
        _conn.execute("PRAGMA synchronous=NORMAL")
        _conn.execute("PRAGMA foreign_keys=ON")
    return _conn


@app.post("/api/v1/games/<int:game_id>/orders")
def order(game_id: int):
    order = request.get_json()
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    now = datetime.now(timezone.utc).isoformat()
    db = _db()
    if not begin_immediate(db):  # the real app's wait for the write lock (server/db.py)
        db.execute("BEGIN IMMEDIATE")
    try:
        user = db.execute("SELECT u.id, u.email FROM apitoken t JOIN user u ON u.id = t.user_id "
                          "WHERE t.token_hash = ?",
                          (hashlib.sha256(token.encode()).hexdigest(),)).fetchone()
        game = db.execute("SELECT id, step, status, state, options, game_type FROM game "
                          "WHERE id = ?", (game_id,)).fetchone()
        seat = db.execute("SELECT seat FROM seat WHERE game_id = ? AND user_id = ?",
                          (game_id, user[0])).fetchone()[0]
        step = game[1]
        # The cached state, read and written back as the real app does: without its history,
        # which it counts (engine.core.history).
        state = orjson.loads(game[3])
        log_length = state["log_from"] + len(state["log"])
        new_entries = [[seat, a] for a in order["actions"]]
        db.execute("INSERT INTO \"order\" (game_id, step, seat, actions, status, created_at, "
                   "updated_at) VALUES (?, ?, ?, ?, 'applied', ?, ?)",
                   (game_id, step, seat, json.dumps(order["actions"]), now, now))
        for i, (s, a) in enumerate(new_entries):
            db.execute("INSERT INTO logentry (game_id, seq, seat, action, is_chance) "
                       "VALUES (?, ?, ?, ?, 0)", (game_id, log_length + i, s, a))
        # An order's words: the rules write a note or more (one here, as it applies no rules).
        db.execute("INSERT INTO gamenote (game_id, seq, note) VALUES (?, ?, ?)",
                   (game_id, state["notes_from"],
                    orjson.dumps([log_length, "(no engine)", "(no engine)", {}]).decode()))
        state["log_from"] = log_length + len(new_entries)
        state["notes_from"] += 1
        done = db.execute("UPDATE game SET step = ?, state = ?, updated_at = ? "
                          "WHERE id = ? AND step = ?",
                          (step + 1, orjson.dumps(state).decode(), now, game_id, step)).rowcount
        db.execute("INSERT INTO outboxmessage (kind, payload, created_at, attempts) "
                   "VALUES ('your_decision', ?, ?, 0)",
                   (json.dumps({"game_id": game_id, "seat": seat, "step": step + 1}), now))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    if not done:
        return jsonify(title="Stale step"), 409
    sock = _news_socket()
    if sock is not None:  # the game's live news, as the real request publishes it
        sock.sendall(_command(b"PUBLISH", _news[1], b"%d %d active" % (game_id, step + 1)))
    return jsonify({
        "applied": order["actions"], "step": step + 1,
        "decision": {"step": step + 1, "active": True, "prompt": "(no engine)",
                     "legal_actions": order["actions"], "simultaneous": False}})
