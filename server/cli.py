"""The `whistlestop` command: operator tasks on the database named by WHISTLESTOP_DATABASE_URL."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from server import __version__

EXIT_OK = 0
EXIT_PROBLEM = 1  # a check found something wrong (mismatch, stuck, failed verification)
EXIT_INPUT = 2  # bad arguments, unknown game or user, refused request
EXIT_DATABASE = 3  # the database cannot be reached or is not migrated

EPILOG = """exit codes: 0 ok; 1 a check found a problem (replay mismatch, failed verification,
something stuck); 2 bad input (unknown game or user, bad option) or a refused request;
3 the database cannot be used (check WHISTLESTOP_DATABASE_URL, run `whistlestop initdb`)."""


class CommandError(Exception):
    """A refused command: printed as `whistlestop: error: ...` with its exit code."""

    def __init__(self, message: str, code: int = EXIT_INPUT):
        self.code = code
        super().__init__(message)


# --- plumbing -------------------------------------------------------------------------------
def _database_url() -> str:
    from server import config

    return config.from_env()["DATABASE_URL"]


@contextmanager
def _engine():
    from server import db

    engine = db.make_engine(_database_url())
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _session(read_only: bool = False) -> Iterator:
    """A session on the configured database; ``read_only`` ones do not take SQLite's write
    lock, so an operator looking around never holds up the server."""
    from sqlmodel import Session

    from server import db

    with _engine() as engine, Session(engine) as session:
        if read_only:
            db.reading(session)
        yield session


def _dump(data) -> None:
    print(json.dumps(data, indent=2, sort_keys=True, default=str))


def _game_or_fail(session, game_id: int):
    from server.models import Game

    game = session.get(Game, game_id)
    if game is None:
        raise CommandError(f"there is no game {game_id}")
    return game


def _ago(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


# --- version, initdb ------------------------------------------------------------------------
def _version(_args) -> int:
    print(__version__)
    return EXIT_OK


def _initdb(_args) -> int:
    from server import db

    url = _database_url()
    db.migrate(url)
    print(f"database ready: {url}")
    return EXIT_OK


# --- users ----------------------------------------------------------------------------------
def _check_email(email: str) -> str:
    from server.services.users import normalize_email

    email = normalize_email(email)
    local, _, domain = email.partition("@")
    if not local or "." not in domain or " " in email:
        raise CommandError(f"'{email}' is not an email address")
    return email


def _create_user(args) -> int:
    from server.services import display_names, users

    email = _check_email(args.email)
    if users.reserved_domain(email) is not None:   # the deleted accounts' tombstones among them
        raise CommandError(f"no mail can reach {email}: .{users.reserved_domain(email)} is a "
                           "reserved domain")
    with _session() as session:
        try:
            user = users.create_user(session, email, display_name=args.name or "")
        except users.EmailTaken:
            raise CommandError(f"a user with the address {email} already exists") from None
        except display_names.NameRefused as refused:
            raise CommandError(refused.reason) from None
        print(f"user {user.id}: {user.email} ({user.display_name or 'no display name'})")
    return EXIT_OK


def _add_member(args) -> int:
    """Issue 48: the operator adds a member to a members-only club (WHISTLESTOP_OPEN_SIGNUP
    false); the member signs in on the web pages with the address."""
    from server.services import display_names, members, users

    email = _check_email(args.email)
    if users.reserved_domain(email) is not None:
        raise CommandError(f"no mail can reach {email}: .{users.reserved_domain(email)} is a "
                           "reserved domain")
    with _session() as session:
        try:
            user = members.add_member(session, email, args.name or "")
        except users.EmailTaken:
            raise CommandError(f"{email} is a member already; nothing was changed") from None
        except display_names.NameRefused as refused:
            raise CommandError(f"{refused.reason}; nothing was changed") from None
        print(f"member {user.id}: {user.email} ({user.display_name or 'no display name'}); "
              "they sign in on the web pages with this address")
    return EXIT_OK


def _issue_token(args) -> int:
    from server.services import users

    email = _check_email(args.email)
    with _session() as session:
        user = users.find_user(session, email)
        if user is None:
            raise CommandError(f"there is no user with the address {email} "
                               "(create it with `whistlestop create-user`)")
        user_id = user.id
        token = users.issue_token(session, user_id)
    print(token)
    print(f"API token for {email} (user {user_id}). It is shown only this once; "
          "only its hash is stored.", file=sys.stderr)
    return EXIT_OK


# --- create-game ----------------------------------------------------------------------------
def _option_value(text: str):
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _pairs(items: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise CommandError(f"{what} '{item}' must look like NAME=VALUE")
        if key in out:
            raise CommandError(f"{what} '{key}' is given twice")
        out[key] = value
    return out


def _create_game(args) -> int:
    import engine.core as engine

    from server.services import games, users

    options = {k: _option_value(v) for k, v in _pairs(args.option, "option").items()}
    if args.edition:
        options["edition"] = args.edition
    seats = {seat: _check_email(email) for seat, email in _pairs(args.seat, "seat").items()}
    try:
        names = engine.info(args.type).seats(options)
    except engine.OptionsError as exc:
        raise CommandError(str(exc)) from None
    if set(seats) != set(names):
        raise CommandError(f"the seats of {args.type} are {', '.join(names)}; give each one "
                           "with --seat SEAT=EMAIL")
    if len(set(seats.values())) != len(seats):
        raise CommandError("one person cannot take two seats in the same game")
    with _session() as session:
        user_ids = {seat: users.find_or_create_user(session, email).id
                    for seat, email in seats.items()}
        game = games.create_game(session, args.type, options, user_ids, seed=args.seed,
                                 public=args.public)
        record = {"id": game.id, "game_type": game.game_type, "options": game.options,
                  "status": game.status, "step": game.step, "seed_hash": game.seed_hash,
                  "public": game.public,
                  "seats": {seat: {"email": seats[seat], "user_id": user_ids[seat]}
                            for seat in names}}
    if args.json:
        _dump(record)
        return EXIT_OK
    print(f"game {record['id']} started: {record['game_type']} "
          f"{json.dumps(record['options'], sort_keys=True)}, step {record['step']}, "
          f"{'public' if record['public'] else 'private'}")
    print(f"  seed_hash {record['seed_hash']}")
    for seat in names:
        print(f"  {seat}: {seats[seat]} (user {user_ids[seat]})")
    return EXIT_OK


# --- show-game ------------------------------------------------------------------------------
def _show_game(args) -> int:
    from server.services import operator

    if args.log < 0:
        raise CommandError("--log takes a number of entries, 0 or more")
    with _session(read_only=True) as session:
        _game_or_fail(session, args.id)
        record = operator.game_record(session, args.id, log_count=args.log,
                                      reveal=args.reveal_orders)
    if args.json:
        _dump(record)
        return EXIT_OK
    r = record
    print(f"game {r['id']}: {r['game_type']} {json.dumps(r['options'], sort_keys=True)}  "
          f"status {r['status']}  step {r['step']}  {'public' if r['public'] else 'private'}")
    print(f"  created {r['created_at']}  updated {r['updated_at']}"
          + (f"  finished {r['finished_at']}" if r["finished_at"] else "")
          + (f"  deadline {r['deadline_at']}" if r["deadline_at"] else ""))
    print(f"  seed_hash {r['seed_hash']}" + (f"  seed {r['seed']}" if r["seed"] else ""))
    if r["result"]:
        print(f"  result: winner {r['result'].get('winner') or 'none'}: "
              f"{r['result'].get('reason', '')}")
    print("seats:")
    for s in r["seats"]:
        who = (f"{s['email']} (user {s['user_id']}, {s['name']})" if s["user_id"]
               else f"empty (invited: {s['invited'] or 'anybody with the code'})")
        print(f"  {s['seat']:<10} {who}")
    if r["decision"]:
        print("decision:")
        for d in r["decision"]:
            mark = "" if d["sealed"] is None else (" [sealed]" if d["sealed"] else " [waiting]")
            print(f"  {d['seat']}{mark}: {d['prompt']} ({d['legal_actions']} legal actions)")
    print(f"pending orders ({len(r['pending_orders'])}):")
    for o in r["pending_orders"]:
        text = " ; ".join(o["actions"]) if o["actions"] is not None else "sealed"
        print(f"  step {o['step']} {o['seat']}: {text}")
    shown = len(r["log"])
    print(f"log (last {shown} of {r['log_total']}"
          + (", redacted as spectators see it; --reveal-orders shows all" if r["log_redacted"]
             else "") + "):")
    for e in r["log"]:
        print(f"  {e['seq']:>5} {e['seat']:<8} {e['action']}")
    print(f"outbox ({len(r['outbox'])} rows):")
    for m in r["outbox"]:
        state = (f"consumed {m['delivered_at']}" if m["delivered_at"]
                 else f"NOT CONSUMED for {_ago(m['age_seconds'])}")
        print(f"  #{m['id']} {m['kind']} {json.dumps(m['payload'], sort_keys=True)} {state}, "
              f"relayed {m['attempts']} times"
              + (f" last_error: {m['last_error']}" if m["last_error"] else ""))
    return EXIT_OK


# --- replay ---------------------------------------------------------------------------------
def _replay(args) -> int:
    from server.services import operator

    if (args.id is None) == (not args.all):
        raise CommandError("give a game id or --all")
    with _session(read_only=True) as session:
        if args.all:
            ids = operator.all_game_ids(session)
        else:
            _game_or_fail(session, args.id)
            ids = [args.id]
        bad = 0
        for game_id in ids:
            check = operator.replay_check(session, game_id)
            session.expunge_all()  # one game at a time in memory
            if check.skipped:
                print(f"game {game_id}: skipped ({check.skipped})")
            elif check.ok:
                print(f"game {game_id}: OK")
            else:
                bad += 1
                detail = check.error or ("differs at " + ", ".join(check.differences))
                print(f"game {game_id}: MISMATCH: {detail}")
    if args.all:
        print(f"checked {len(ids)} games: {bad} mismatch{'es' if bad != 1 else ''}")
    return EXIT_PROBLEM if bad else EXIT_OK


# --- republish-outbox -----------------------------------------------------------------------
def _republish(args) -> int:
    from server.services import operator

    with _engine() as engine:
        try:
            counts = operator.republish(engine, args.id)
        except operator.UnknownOutboxRows as exc:
            raise CommandError("no outbox row "
                               + ", ".join(str(i) for i in exc.args[0])) from None
    print(f"sent {counts['sent']} rows; {counts['failed']} could not be sent")
    if counts["failed"]:
        print("the broker refused some rows (the relay tries again); see their last_error "
              "with `whistlestop stuck-steps --older-than 0`", file=sys.stderr)
        return EXIT_PROBLEM
    return EXIT_OK


# --- chat-reports (issue 27: table talk) ----------------------------------------------------
def _chat_reports(args) -> int:
    from server.services import chat

    if args.note is not None and args.resolve is None:
        raise CommandError("--note goes with --resolve ID")
    if args.resolve is not None:
        with _session() as session:
            try:
                chat.resolve_report(session, args.resolve, args.note)
            except chat.ChatRefused as exc:
                session.rollback()
                raise CommandError(exc.reason) from None
            session.commit()
        print(f"report {args.resolve} resolved")
        return EXIT_OK
    with _session(read_only=True) as session:
        found = chat.reports(session, resolved=args.all)[:args.limit]
    if args.json:
        _dump(found)
        return EXIT_OK
    if not found:
        print("no reported chat lines" if args.all else
              "no open chat reports (--all lists the resolved ones too)")
    for r in found:
        print(f"report {r['report']} at {r['reported_at']}: user {r['by_user']} reported line "
              f"{r['message']} of user {r['author_user']} (game {r['game']}, {r['channel']}"
              f"{', seat ' + r['seat'] if r['seat'] else ''})"
              + (f": {r['reason']!r}" if r['reason'] else ""))
        print("    " + json.dumps(r["body"], ensure_ascii=False))
        if r["resolved_at"] is not None:
            print(f"    resolved at {r['resolved_at']}: {r['resolution']!r}")
    return EXIT_OK


# --- stuck-steps ----------------------------------------------------------------------------
def _stuck(args) -> int:
    from server import config
    from server.services import operator

    try:
        cfg = config.from_env()
    except ValueError as exc:
        raise CommandError(f"bad setting: {exc} (the STUCK_* settings are whole seconds)") \
            from None
    step_seconds = cfg["STUCK_AFTER_SECONDS"] if args.older_than is None else args.older_than
    decision_seconds = (cfg["DECISION_STUCK_AFTER_SECONDS"] if args.decision_older_than is None
                        else args.decision_older_than)
    if step_seconds < 0 or decision_seconds < 0:
        raise CommandError("thresholds are seconds, 0 or more")
    with _session(read_only=True) as session:
        found = operator.stuck(session, step_seconds, decision_seconds)
    total = sum(len(v) for v in found.values())
    if args.json:
        _dump({**found, "older_than": step_seconds, "decision_older_than": decision_seconds})
        return EXIT_PROBLEM if total else EXIT_OK
    print(f"committed steps not resolved after {step_seconds}s: {len(found['steps'])}")
    for s in found["steps"]:
        print(f"  game {s['game_id']} step {s['step']}: every seat committed "
              f"({', '.join(s['seats'])}) {_ago(s['age_seconds'])} ago")
    print(f"outbox rows unconsumed after {step_seconds}s: {len(found['outbox'])}")
    for m in found["outbox"]:
        print(f"  #{m['id']} {m['kind']} {json.dumps(m['payload'], sort_keys=True)} "
              f"written {_ago(m['age_seconds'])} ago, attempts {m['attempts']}"
              + (f", last_error: {m['last_error']}" if m["last_error"] else ""))
    print(f"decisions waiting over {decision_seconds}s: {len(found['decisions'])}")
    for d in found["decisions"]:
        print(f"  game {d['game_id']} step {d['step']}: waiting for "
              f"{', '.join(d['waiting_for']) or 'nobody'} for {_ago(d['age_seconds'])}")
    return EXIT_PROBLEM if total else EXIT_OK


# --- verify ---------------------------------------------------------------------------------
def _verify(args) -> int:
    from server.services import fairness

    if (args.id is None) == (args.file is None):
        raise CommandError("give a game id or --file LOG.json")
    if args.file is not None:
        path = Path(args.file)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None
        try:
            result = fairness.verify_log_file(data)
        except fairness.LogFileError as exc:
            raise CommandError(f"{path}: {exc}") from None
        label = f"game {data.get('game_id', '?')} ({data['game_type']}, from {path})"
        seed_hash, seed_shown = data["seed_hash"], True
    else:
        from server.services.games import log_of

        with _session(read_only=True) as session:
            game = _game_or_fail(session, args.id)
            if game.status != "finished" and not args.operator:
                raise CommandError(
                    f"game {game.id} is {game.status}, not finished: its seed stays secret "
                    "until the end, so players cannot verify it yet. Operators may check a "
                    "game in play with --operator (the seed is not printed).")
            entries = [{"seq": r.seq, "seat": r.seat, "action": r.action, "chance": r.is_chance}
                       for r in log_of(session, game.id)]
            result = fairness.verify(game.game_type, game.options, game.seed, game.seed_hash,
                                     entries)
            label = f"game {game.id} ({game.game_type}, {game.status})"
            seed_hash, seed_shown = game.seed_hash, game.status == "finished"
            seed = game.seed
    if args.json:
        out = {"label": label, **result.to_dict()}
        if args.id is not None and seed_shown:
            out["seed"] = seed
        _dump(out)
        return EXIT_OK if result.ok else EXIT_PROBLEM
    print(f"{label}")
    if not result.seed_matches:
        print(f"FAILED: {result.reason}")
        return EXIT_PROBLEM
    print(f"  seed matches seed_hash {seed_hash}"
          + ("" if seed_shown else " (seed not shown: the game is still in play)"))
    if not result.ok:
        print(f"  replayed {result.entries} log entries and confirmed {result.draws} chance "
              "draws before the failure")
        print(f"FAILED at seq {result.failed_seq}: {result.reason}")
        return EXIT_PROBLEM
    print(f"  replayed {result.entries} log entries; confirmed {result.draws} chance draws "
          f"({result.random_draws} with more than one possible outcome)")
    if result.outcome:
        print(f"  game over: winner {result.outcome.get('winner') or 'none'}: "
              f"{result.outcome.get('reason', '')}")
    for note in result.notes:
        print(f"  note: {note}")
    print("OK: every chance draw is the one the committed seed gives.")
    return EXIT_OK


# --- the parser -----------------------------------------------------------------------------
def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _shown(value) -> str:
    """An option's default as --option takes it (unset: the game decides by the others)."""
    return "unset" if value is None else value if isinstance(value, str) else json.dumps(value)


def _games() -> dict[str, tuple[str, str]]:
    """{game: (its options and defaults, its seats with them)} of the engine's games, for help."""
    import engine.core as engine

    out = {}
    for game in engine.games():
        info = engine.info(game)
        options = ", ".join(f"{key}={_shown(value)}"
                            for key, value in info.option_defaults.items()) or "none"
        out[game] = (options, ", ".join(info.seats()))
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="whistlestop", description=__doc__, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, func, help_text, description=None):
        sub = commands.add_parser(name, help=help_text, description=description or help_text,
                                  epilog=EPILOG)
        sub.set_defaults(func=func)
        return sub

    command("version", _version, "print the version")
    command("initdb", _initdb, "create or upgrade the database tables (alembic upgrade head)")

    sub = command("create-user", _create_user, "add a user")
    sub.add_argument("email", metavar="EMAIL", help="the user's email address")
    sub.add_argument("--name", help="display name (default: none; others then see \"Player <id>\")")

    sub = command("add-member", _add_member,
                  "add a member to the club (the way in while WHISTLESTOP_OPEN_SIGNUP is false)",
                  "Add a member: an account for the address, which its owner then signs in "
                  "with on the web pages (a mailed link). While WHISTLESTOP_OPEN_SIGNUP is "
                  "false, members come only this way or by a member's invitation.")
    sub.add_argument("email", metavar="EMAIL", help="the member's email address")
    sub.add_argument("--name", help="display name (default: none; others then see \"Player <id>\")")

    sub = command("issue-token", _issue_token,
                  "issue an API token for a user and print it (shown once; only its hash "
                  "is stored)")
    sub.add_argument("email", metavar="EMAIL", help="the user's email address")

    sub = command("create-game", _create_game,
                  "create and start a game with known players (users are created if needed)",
                  "Create and start a game whose seats are already known. Players who have "
                  "no user yet get one (without a token). Prints the game id and seed_hash.")
    games = _games()
    sub.add_argument("--type", required=True, metavar="TYPE",
                     help="the game: " + ", ".join(games))
    sub.add_argument("--edition", help="the edition, for a game that has editions; same as "
                     "--option edition=E")
    sub.add_argument("--option", action="append", metavar="KEY=VALUE",
                     help="a game option (repeatable); true/false and integers are converted. "
                          "The options and their defaults: " + "; ".join(
                              f"{game}: {options}" for game, (options, _) in games.items()))
    sub.add_argument("--seat", action="append", metavar="SEAT=EMAIL",
                     help="who plays a seat (repeat for every seat), e.g. --seat "
                          "SEAT=a@example.com. The seats with the default options: " + "; ".join(
                              f"{game}: {seats}" for game, (_, seats) in games.items()))
    sub.add_argument("--public", action="store_true", help="anybody may watch the game")
    sub.add_argument("--seed", help="the chance seed (default: random); it stays secret until "
                     "the end, only its sha256 is shown")
    sub.add_argument("--json", action="store_true", help="print the new game as JSON")

    sub = command("show-game", _show_game,
                  "show a game: status, seats, decision, pending orders, log, outbox",
                  "Show a game as an operator sees it. Sealed orders show only their seat, and "
                  "the log of a game in play is redacted as spectators see it, unless "
                  "--reveal-orders is given.")
    sub.add_argument("id", type=int, metavar="ID", help="the game id")
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.add_argument("--log", type=_nonnegative_int, default=10, metavar="N",
                     help="how many of the last log entries to show (default 10)")
    sub.add_argument("--reveal-orders", action="store_true",
                     help="show hidden information: sealed order texts, the unredacted log "
                          "and the seed")

    sub = command("replay", _replay,
                  "rebuild games from their logs and compare with the cached state",
                  "Replay the action log of a game from its seed and compare the result with "
                  "the cached state. Prints OK or the first differing keys; exits 1 on any "
                  "mismatch.")
    sub.add_argument("id", type=int, nargs="?", metavar="ID", help="the game id")
    sub.add_argument("--all", action="store_true", help="check every game")

    sub = command("republish-outbox", _republish,
                  "send unconsumed outbox rows now (or the given rows)",
                  "Send now every outbox row its task has not consumed yet, without waiting "
                  "for the relay. With --id, send just those rows, consumed or not (tasks are "
                  "idempotent). Prints counts; exits 1 if the broker refused some.")
    sub.add_argument("--id", type=int, action="append", metavar="N",
                     help="an outbox row id to send again (repeatable)")

    sub = command("stuck-steps", _stuck,
                  "list stuck steps, outbox rows and long-waiting decisions (exit 1 if any)",
                  "List active games whose simultaneous step has every order sealed but has "
                  "not resolved, outbox rows not consumed by their task, both for longer than "
                  "--older-than, and games waiting on a decision longer than "
                  "--decision-older-than. Exits 1 if anything is listed (for cron and alerts).")
    sub.add_argument("--older-than", type=_nonnegative_int, metavar="SECONDS",
                     help="threshold for steps and outbox rows (default "
                          "WHISTLESTOP_STUCK_AFTER_SECONDS, 300)")
    sub.add_argument("--decision-older-than", type=_nonnegative_int, metavar="SECONDS",
                     help="threshold for waiting decisions (default "
                          "WHISTLESTOP_DECISION_STUCK_AFTER_SECONDS, 604800 = 7 days)")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = command("chat-reports", _chat_reports,
                  "list the open reports of chat lines, newest first; resolve one",
                  "List the table-talk lines readers reported to the operator (POST "
                  "/api/v1/games/{id}/chat/{line}/report or the game page's Report button) "
                  "and not resolved yet, newest first, with who reported them and why; --all "
                  "lists the resolved ones too, with when and the note. --resolve ID --note "
                  "TEXT marks a report resolved (the line itself stays as it is). Reports are "
                  "also mailed to WHISTLESTOP_OPERATOR_EMAIL when it is set.")
    sub.add_argument("--limit", type=_nonnegative_int, default=100, metavar="N",
                     help="list at most N reports (default 100)")
    sub.add_argument("--all", action="store_true",
                     help="list the resolved reports too")
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.add_argument("--resolve", type=int, metavar="ID",
                     help="mark report ID resolved (with --note)")
    sub.add_argument("--note", metavar="TEXT",
                     help="what was done, up to 500 characters (with --resolve)")

    sub = command("verify", _verify,
                  "verify a game's chance draws against its committed seed",
                  "Verifiable fairness: check sha256(seed) == seed_hash, replay the whole log "
                  "from the seed and confirm that every chance draw is the one the seed gives "
                  "at its log position. From the database (a finished game; --operator for "
                  "one in play) or from a log file downloaded from "
                  "GET /api/v1/games/{id}/log after the end.")
    sub.add_argument("id", type=int, nargs="?", metavar="ID", help="the game id")
    sub.add_argument("--file", metavar="LOG.json",
                     help="verify a downloaded log file instead (no database needed)")
    sub.add_argument("--operator", action="store_true",
                     help="allow a game still in play (its seed is used but not printed)")
    sub.add_argument("--json", action="store_true", help="print JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return the process exit code."""
    from sqlalchemy.exc import SQLAlchemyError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has printed
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    try:
        return args.func(args)
    except CommandError as exc:
        print(f"whistlestop {args.command}: error: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:  # `whistlestop show-game 1 | head`: the reader went away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PROBLEM
    except SQLAlchemyError as exc:
        first = str(exc).splitlines()[0]
        print(f"whistlestop {args.command}: database error: {first}\n"
              "Check WHISTLESTOP_DATABASE_URL and run `whistlestop initdb`.", file=sys.stderr)
        return EXIT_DATABASE


if __name__ == "__main__":
    sys.exit(main())
