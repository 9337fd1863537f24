"""Configuration defaults, read from WHISTLESTOP_* environment variables.

This is the one place where settings and their defaults live; the README's configuration
table mirrors it. The defaults are the embedded mode: everything under ./var, no service to
install. Production overrides the URLs (PostgreSQL, Redis) and the secret key.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping

PREFIX = "WHISTLESTOP_"

DEV_SECRET_KEY = "dev-only-not-secret"
# The file scripts/run writes a random key into on first start (in VAR_DIR), read when
# WHISTLESTOP_SECRET_KEY is not set: the embedded default signs its links with a key of its own.
SECRET_KEY_FILE = "secret_key"
MIN_SECRET_KEY_LENGTH = 32


class ConfigError(RuntimeError):
    """A setting the server refuses to start with; the message names the variable."""


def _get(env: Mapping[str, str], name: str, default: str) -> str:
    """Return the WHISTLESTOP_-prefixed variable, or the default when unset or empty."""
    value = env.get(PREFIX + name, "")
    return value if value != "" else default


def from_env(env: Mapping[str, str] | None = None) -> dict:
    """Return the effective settings as a flat dict of upper-case keys."""
    env = os.environ if env is None else env
    var_dir = Path(_get(env, "VAR_DIR", "var")).resolve()
    broker_dir = Path(_get(env, "BROKER_DIR", str(var_dir / "broker"))).resolve()
    return {
        "VAR_DIR": str(var_dir),
        "SECRET_KEY": _get(env, "SECRET_KEY", _key_file(var_dir) or DEV_SECRET_KEY),
        # Earlier keys, still accepted for checking (never for signing) while a rotation
        # settles: sessions (Flask's own setting of this name), links, reply addresses, mail
        # settings links (server/secret_keys.py; docs/operating.md, "Rotating the secret key").
        "SECRET_KEY_FALLBACKS": _key_list(env, "SECRET_KEY_FALLBACKS"),
        "DATABASE_URL": _get(env, "DATABASE_URL", f"sqlite:///{var_dir / 'whistlestop.db'}"),
        # /healthz answers 503 when the disk of VAR_DIR (or of a SQLite database) has less free.
        "DISK_MIN_FREE_MB": _count(env, "DISK_MIN_FREE_MB", "100"),
        # kombu's filesystem transport: a folder of JSON files, so the embedded mode needs no
        # Redis or RabbitMQ. Production sets redis://... here.
        "BROKER_URL": _get(env, "BROKER_URL", "filesystem://"),
        "BROKER_DIR": str(broker_dir),
        # The filesystem broker only: how long a worker that found no task waits before it
        # looks again (each look lists the queue folder). Measured (bench/README.md,
        # told_latency.py): an idle worker uses 0.3 % of a core at 0.1 s, 1.7 % at 0.01 s.
        "BROKER_POLL_SECONDS": float(_get(env, "BROKER_POLL_SECONDS", "0.1")),
        # Set but empty means no result backend (the tasks' results are not needed to run).
        "RESULT_BACKEND": env[PREFIX + "RESULT_BACKEND"] if PREFIX + "RESULT_BACKEND" in env
        else f"db+sqlite:///{var_dir / 'celery-results.db'}",
        "BEAT_SCHEDULE_FILE": _get(
            env, "BEAT_SCHEDULE_FILE", str(var_dir / "celerybeat-schedule")
        ),
        # Redis only: seconds before a message that a worker took but never acknowledged
        # (the worker died) is delivered again. Keep it above the longest task run and retry delay.
        "BROKER_VISIBILITY_TIMEOUT": float(_get(env, "BROKER_VISIBILITY_TIMEOUT", "3600")),
        # How often beat runs the outbox relay, which sends again every row its task has not
        # consumed OUTBOX_REDELIVER_SECONDS after it was written or last sent (and at once a
        # row whose send failed).
        "OUTBOX_RELAY_SECONDS": float(_get(env, "OUTBOX_RELAY_SECONDS", "5")),
        "OUTBOX_REDELIVER_SECONDS": float(_get(env, "OUTBOX_REDELIVER_SECONDS", "60")),
        # How often beat runs the resolution sweep, which publishes resolve_step again for every
        # step whose seats have all committed but which is still unresolved this long after.
        "RESOLVE_SWEEP_SECONDS": float(_get(env, "RESOLVE_SWEEP_SECONDS", "30")),
        # How often beat looks for reminders and deadlines due (server/services/deadlines.py).
        "DEADLINE_SWEEP_SECONDS": float(_get(env, "DEADLINE_SWEEP_SECONDS", "60")),
        # Issue 46 (services/absences.py): an active game nobody has played for this many days
        # ends unrated as abandoned (0: never); beat looks every SILENT_SWEEP_SECONDS.
        "SILENT_GAME_DAYS": int(_get(env, "SILENT_GAME_DAYS", "30")),
        "SILENT_SWEEP_SECONDS": float(_get(env, "SILENT_SWEEP_SECONDS", "3600")),
        # The daily digest (users whose mail preference is "digest"): from this hour (UTC),
        # looked for by beat every DIGEST_SWEEP_SECONDS.
        "DIGEST_HOUR": int(_get(env, "DIGEST_HOUR", "7")),
        # Table talk (server/services/chat.py): a chat mail waits this long for more lines;
        # reports of chat lines are mailed to the operator's address, if there is one.
        "CHAT_MAIL_DELAY_SECONDS": float(_get(env, "CHAT_MAIL_DELAY_SECONDS", "300")),
        "OPERATOR_EMAIL": _get(env, "OPERATOR_EMAIL", ""),
        # No mail while you watch (server/services/presence.py): a decision mail to a player
        # whose game page is live waits until this long after the page was last live (0: it
        # does not wait).
        "PRESENCE_DELAY_SECONDS": float(_get(env, "PRESENCE_DELAY_SECONDS", "120")),
        "DIGEST_SWEEP_SECONDS": float(_get(env, "DIGEST_SWEEP_SECONDS", "600")),
        # Outbound mail: the SMTP server mail is sent through (the embedded default is the
        # local mail catcher), its login and STARTTLS, and the sender.
        "MAIL_SMTP_HOST": _get(env, "MAIL_SMTP_HOST", "127.0.0.1"),
        "MAIL_SMTP_PORT": int(_get(env, "MAIL_SMTP_PORT", "8026")),
        "MAIL_SMTP_USERNAME": _get(env, "MAIL_SMTP_USERNAME", ""),
        "MAIL_SMTP_PASSWORD": _get(env, "MAIL_SMTP_PASSWORD", ""),
        "MAIL_SMTP_STARTTLS": _get(env, "MAIL_SMTP_STARTTLS", "false").strip().lower()
        in ("1", "true", "yes"),
        "MAIL_SMTP_TIMEOUT": float(_get(env, "MAIL_SMTP_TIMEOUT", "30")),
        "MAIL_FROM": _get(env, "MAIL_FROM", "games@whistlestop.localhost"),
        # How long the signed choice links in mails work (seconds; default 30 days).
        "LINK_MAX_AGE_SECONDS": float(_get(env, "LINK_MAX_AGE_SECONDS", str(30 * 86400))),
        "SIGN_IN_MAX_AGE_SECONDS": float(_get(env, "SIGN_IN_MAX_AGE_SECONDS", "3600")),
        # How long a browser stays signed in (days) unless it signs out.
        "SESSION_DAYS": float(_get(env, "SESSION_DAYS", "60")),
        "MAIL_FROM_NAME": _get(env, "MAIL_FROM_NAME", "Whistlestop"),
        # A mail being sent keeps other runs of its task off it this long (seconds); a run that
        # died holding it is taken over after that.
        "MAIL_SEND_LEASE_SECONDS": float(_get(env, "MAIL_SEND_LEASE_SECONDS", "300")),
        # The outbound SMTP catcher of the embedded default (the `mail` process listens on
        # MAIL_SMTP_PORT and keeps every sent mail in MAIL_CATCHER_DIR, shown at /mail).
        "MAIL_CATCHER": _get(env, "MAIL_CATCHER", "true").strip().lower() in ("1", "true", "yes"),
        "MAIL_CATCHER_DIR": _get(env, "MAIL_CATCHER_DIR", str(var_dir / "mail" / "outbound")),
        "MAIL_DOMAIN": _get(env, "MAIL_DOMAIN", "whistlestop.localhost"),
        # The authserv-id of the MTA that receives the players' mail and writes its verdict in
        # Authentication-Results (RFC 8601): only its headers are read, and an order or a chat
        # line by mail needs its aligned pass (DMARC, or DKIM or SPF for the From domain).
        # Empty (the embedded default): the topmost header's failures alone refuse a mail.
        "MAIL_AUTHSERV_ID": _get(env, "MAIL_AUTHSERV_ID", "").strip(),
        # POST /inbound/mail (a mail provider's inbound hook) requires this secret as a bearer
        # token or HTTP Basic password; empty turns the hook off (404). Bodies larger than
        # INBOUND_MAIL_MAX_BYTES are refused (413).
        "INBOUND_MAIL_SECRET": _get(env, "INBOUND_MAIL_SECRET", ""),
        "INBOUND_MAIL_MAX_BYTES": int(_get(env, "INBOUND_MAIL_MAX_BYTES", str(10 * 1024 * 1024))),
        # Rate limits (server/rate_limits.py): where they are counted, and each limit.
        # database:// (server/rate_limit_store.py) or redis://...: shared by every process.
        "RATELIMIT_STORAGE_URI": _get(env, "RATELIMIT_STORAGE_URI", "database://"),
        **{key: _get(env, key, default) for key, default in _rate_defaults().items()},
        "ALL_BOT_GAMES_PER_USER": int(_get(env, "ALL_BOT_GAMES_PER_USER", "20")),
        # Any other request larger than this is refused (413), chunked ones too.
        "REQUEST_MAX_BYTES": int(_get(env, "REQUEST_MAX_BYTES", str(1024 * 1024))),
        # Webhooks (Discord, Slack): only https:// URLs unless this is true (tests, a local
        # relay); a webhook that does not answer within WEBHOOK_TIMEOUT seconds is retried.
        "WEBHOOK_ALLOW_HTTP": _get(env, "WEBHOOK_ALLOW_HTTP", "false").strip().lower()
        in ("1", "true", "yes"),
        "WEBHOOK_TIMEOUT": float(_get(env, "WEBHOOK_TIMEOUT", "10")),
        # A post a webhook could not take is tried again after WEBHOOK_RETRY_SECONDS, then
        # twice as long each time, WEBHOOK_ATTEMPTS times in all; a webhook whose posts failed
        # for good WEBHOOK_DISABLE_AFTER times in a row is turned off, and its user told by
        # mail. Posts run on their own Celery queue ("webhooks"); beat sends those due every
        # WEBHOOK_SWEEP_SECONDS (server/mail/webhook_queue.py).
        "WEBHOOK_RETRY_SECONDS": float(_get(env, "WEBHOOK_RETRY_SECONDS", "60")),
        "WEBHOOK_ATTEMPTS": int(_get(env, "WEBHOOK_ATTEMPTS", "6")),
        "WEBHOOK_DISABLE_AFTER": int(_get(env, "WEBHOOK_DISABLE_AFTER", "5")),
        "WEBHOOK_SWEEP_SECONDS": float(_get(env, "WEBHOOK_SWEEP_SECONDS", "30")),
        # Webhooks reach public internet addresses only (server/mail/public_http.py), unless
        # this is set: a relay on the operator's own network, tests.
        "WEBHOOK_ALLOW_PRIVATE": _get(env, "WEBHOOK_ALLOW_PRIVATE", "false").strip().lower()
        in ("1", "true", "yes"),
        "BASE_URL": _get(env, "BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        # How many reverse proxies stand in front of gunicorn, each appending the address it
        # saw to X-Forwarded-For (server/trusted_proxies.py: werkzeug's ProxyFix): the
        # per-client limits count the client the outermost of them saw. 0: gunicorn faces the
        # clients, and X-Forwarded-For is ignored.
        "TRUSTED_PROXY_HOPS": _count(env, "TRUSTED_PROXY_HOPS", "0"),
        # The game pages' live news streams (server/web/live.py) are served by the Procfile's
        # `live` process on LIVE_PORT (server/gunicorn_live.py); the pages reach it at
        # LIVE_URL: unset, BASE_URL's host on LIVE_PORT; "same-origin" when a proxy routes
        # BASE_URL's /games/<id>/events to it (or the pages' server is threaded, as the tests').
        "LIVE_PORT": int(_get(env, "LIVE_PORT", "5001")),
        "LIVE_URL": _get(env, "LIVE_URL", "").rstrip("/"),
        # Of a `live` process's streams (server/web/live_process.py): how many one reader may
        # hold (a signed-in reader per account, another per address), and what share of them
        # the readers not signed in may hold together.
        "LIVE_STREAMS_PER_CLIENT": _count(env, "LIVE_STREAMS_PER_CLIENT", "8"),
        "LIVE_ANONYMOUS_SHARE": _share(env, "LIVE_ANONYMOUS_SHARE", "0.5"),
        "SMTP_HOST": _get(env, "SMTP_HOST", "127.0.0.1"),
        "SMTP_PORT": int(_get(env, "SMTP_PORT", "8025")),
        # POST /api/v1/users lets anybody sign up (true/false); false: operators make accounts.
        "OPEN_SIGNUP": _get(env, "OPEN_SIGNUP", "true").strip().lower() in ("1", "true", "yes"),
        # Vacations (server/services/vacations.py): whole days a calendar year, and how long
        # before its first day a vacation must be booked.
        "VACATION_DAYS_PER_YEAR": int(_get(env, "VACATION_DAYS_PER_YEAR", "30")),
        "VACATION_NOTICE_HOURS": float(_get(env, "VACATION_NOTICE_HOURS", "24")),
        # An Idempotency-Key request still being processed: a repeat waits this long (seconds)
        # for the first one's answer, then gets 409 "retry".
        "IDEMPOTENCY_WAIT_SECONDS": float(_get(env, "IDEMPOTENCY_WAIT_SECONDS", "10")),
        # A claimed Idempotency-Key with no answer after this long (seconds) was abandoned by a
        # crashed process (its effect and its answer commit together, so it had none): retaken.
        "IDEMPOTENCY_ABANDONED_SECONDS": float(_get(env, "IDEMPOTENCY_ABANDONED_SECONDS", "120")),
        # Bearer token that GET /metrics requires; empty leaves the endpoint open.
        "METRICS_TOKEN": _get(env, "METRICS_TOKEN", ""),
        # `whistlestop stuck-steps`: a committed step or an outbox row this old (seconds) is stuck.
        "STUCK_AFTER_SECONDS": int(_get(env, "STUCK_AFTER_SECONDS", "300")),
        # `whistlestop stuck-steps`: a decision waiting this long (seconds; 7 days) is reported.
        "DECISION_STUCK_AFTER_SECONDS": int(_get(env, "DECISION_STUCK_AFTER_SECONDS", "604800")),
    }


def _count(env: Mapping[str, str], name: str, default: str) -> int:
    """A whole number of 0 or more; ConfigError naming the variable otherwise."""
    value = _get(env, name, default).strip()
    if not value.isascii() or not value.isdigit():
        raise ConfigError(f"{PREFIX}{name} must be a whole number of 0 or more, not {value!r}.")
    return int(value)


def _share(env: Mapping[str, str], name: str, default: str) -> float:
    """A fraction from 0 to 1; ConfigError naming the variable otherwise."""
    value = _get(env, name, default).strip()
    try:
        share = float(value)
    except ValueError:
        share = -1.0
    if not 0 <= share <= 1:
        raise ConfigError(f"{PREFIX}{name} must be a fraction from 0 to 1, not {value!r}.")
    return share


def _rate_defaults() -> dict:
    from server.rate_limits import defaults
    return defaults()


def _key_list(env: Mapping[str, str], name: str) -> list[str]:
    """The keys of a comma- or whitespace-separated variable, in its order ([] when unset)."""
    return [key for key in re.split(r"[\s,]+", env.get(PREFIX + name, "")) if key]


def _key_file(var_dir: Path) -> str:
    """The key scripts/run wrote into VAR_DIR, or "" when there is none."""
    try:
        return (var_dir / SECRET_KEY_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def write_key_file(var_dir: str | Path) -> Path:
    """Write a random secret key into VAR_DIR (once: an existing one is kept), readable by its
    owner only; scripts/run calls it on every start."""
    import secrets

    path = Path(var_dir) / SECRET_KEY_FILE
    if not _key_file(Path(var_dir)):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_urlsafe(48) + "\n")
    return path


def is_loopback_url(url: str) -> bool:
    """Whether a base URL names this machine only (localhost, 127.0.0.0/8, ::1)."""
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check(cfg: Mapping) -> None:
    """Refuse settings that would be unsafe on a server others can reach: a secret key that is
    the built-in default, empty or short while BASE_URL is not a loopback address (anybody who
    knows the key can sign links to every seat and sign in as anybody)."""
    key = cfg.get("SECRET_KEY") or ""
    if is_loopback_url(cfg.get("BASE_URL", "")):
        return
    if key == DEV_SECRET_KEY or len(key) < MIN_SECRET_KEY_LENGTH:
        why = "is the built-in development default" if key == DEV_SECRET_KEY else \
            "is empty" if not key else f"is only {len(key)} characters long"
        raise ConfigError(
            f"{PREFIX}SECRET_KEY {why}, and {PREFIX}BASE_URL ({cfg.get('BASE_URL')}) is not a "
            f"loopback address: set {PREFIX}SECRET_KEY to a random value of at least "
            f"{MIN_SECRET_KEY_LENGTH} characters (for instance: python3 -c 'import secrets; "
            f"print(secrets.token_urlsafe(48))') before serving others.")
    for earlier in cfg.get("SECRET_KEY_FALLBACKS") or ():
        if earlier == DEV_SECRET_KEY or len(earlier) < MIN_SECRET_KEY_LENGTH:
            raise ConfigError(
                f"{PREFIX}SECRET_KEY_FALLBACKS holds a key that is the built-in development "
                f"default or shorter than {MIN_SECRET_KEY_LENGTH} characters, and "
                f"{PREFIX}BASE_URL ({cfg.get('BASE_URL')}) is not a loopback address: anybody "
                f"who knows it could sign links; take it out.")


def welcome(cfg: dict) -> str:
    """The line ``scripts/run`` starts with: the address to open, and where sent mail is shown
    when the embedded mail catcher keeps it (shown on a loopback BASE_URL only)."""
    line = f"Whistlestop: open {cfg['BASE_URL']}/ in a browser"
    if cfg["MAIL_CATCHER"] and is_loopback_url(cfg["BASE_URL"]):
        line += f"; the mail it sends is shown at {cfg['BASE_URL']}/mail"
    return line + "."
