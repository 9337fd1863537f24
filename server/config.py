"""Configuration defaults, read from WHISTLESTOP_* environment variables.

This is the one place where settings and their defaults live; the README's configuration
table mirrors it. The defaults are the embedded mode: everything under ./var, no service to
install. Production overrides the URLs (PostgreSQL, Redis) and the secret key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

PREFIX = "WHISTLESTOP_"

DEV_SECRET_KEY = "dev-only-not-secret"


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
        "SECRET_KEY": _get(env, "SECRET_KEY", DEV_SECRET_KEY),
        "DATABASE_URL": _get(env, "DATABASE_URL", f"sqlite:///{var_dir / 'whistlestop.db'}"),
        # kombu's filesystem transport: a folder of JSON files, so the embedded mode needs no
        # Redis or RabbitMQ. Production sets redis://... here.
        "BROKER_URL": _get(env, "BROKER_URL", "filesystem://"),
        "BROKER_DIR": str(broker_dir),
        "RESULT_BACKEND": _get(
            env, "RESULT_BACKEND", f"db+sqlite:///{var_dir / 'celery-results.db'}"
        ),
        "BEAT_SCHEDULE_FILE": _get(
            env, "BEAT_SCHEDULE_FILE", str(var_dir / "celerybeat-schedule")
        ),
        "SMTP_HOST": _get(env, "SMTP_HOST", "127.0.0.1"),
        "SMTP_PORT": int(_get(env, "SMTP_PORT", "8025")),
        "INBOUND_MAIL_DIR": _get(env, "INBOUND_MAIL_DIR", str(var_dir / "mail" / "inbound")),
    }
