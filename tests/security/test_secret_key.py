"""No default secret in production (issue 23, item 2). The attack: a server put on the internet
with the built-in key, which is public (it is in the source), so anybody can sign a decision link
for every seat and a sign-in link for every account. The app refuses to start with the default,
an empty or a short key unless BASE_URL is a loopback address; scripts/run writes a random key
into var/ on first start, so the embedded default signs with a key nobody else has."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from server import config
from server.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def app_with(tmp_path, **settings):
    return create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}",
                       "VAR_DIR": str(tmp_path / "var"), **settings})


@pytest.mark.parametrize("key, why", [
    (config.DEV_SECRET_KEY, "built-in development default"),
    ("", "is empty"),
    ("short-but-not-default", "only 21 characters"),
])
@pytest.mark.parametrize("base", ["https://games.example.org", "http://203.0.113.7:5000",
                                  "http://[2001:db8::1]/"])
def test_a_public_server_refuses_a_known_or_weak_key(tmp_path, key, why, base):
    with pytest.raises(config.ConfigError) as err:
        app_with(tmp_path, SECRET_KEY=key, BASE_URL=base)
    assert "WHISTLESTOP_SECRET_KEY" in str(err.value) and why in str(err.value)
    assert "WHISTLESTOP_BASE_URL" in str(err.value)


@pytest.mark.parametrize("base", ["http://127.0.0.1:5000", "http://localhost:5000",
                                  "http://[::1]:8000", "http://127.0.5.9",
                                  "http://games.localhost"])
def test_a_loopback_server_starts_with_the_default(tmp_path, base):
    app = app_with(tmp_path, SECRET_KEY=config.DEV_SECRET_KEY, BASE_URL=base)
    assert app.test_client().get("/healthz").status_code == 200


def test_a_public_server_starts_with_a_long_random_key(tmp_path):
    app = app_with(tmp_path, SECRET_KEY="k" * 20 + "x" * 20, BASE_URL="https://games.example.org")
    assert app.test_client().get("/healthz").status_code == 200


def test_the_key_file_is_written_once_private_and_read_when_no_key_is_set(tmp_path):
    var = tmp_path / "var"
    path = config.write_key_file(var)
    key = path.read_text().strip()
    assert len(key) >= config.MIN_SECRET_KEY_LENGTH and key != config.DEV_SECRET_KEY
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert config.write_key_file(var).read_text().strip() == key          # kept
    env = {"WHISTLESTOP_VAR_DIR": str(var)}
    assert config.from_env(env)["SECRET_KEY"] == key
    assert config.from_env({**env, "WHISTLESTOP_SECRET_KEY": "x" * 40})["SECRET_KEY"] == "x" * 40
    assert config.from_env({"WHISTLESTOP_VAR_DIR": str(tmp_path / "none")})["SECRET_KEY"] == \
        config.DEV_SECRET_KEY


def test_scripts_run_writes_the_key_before_anything_starts(tmp_path):
    """The step scripts/run takes, as it takes it (the venv's python, VAR_DIR from the
    environment): a fresh var/ gets a random key, and the app built there uses it."""
    env = {**os.environ, "WHISTLESTOP_VAR_DIR": str(tmp_path / "var")}
    env.pop("WHISTLESTOP_SECRET_KEY", None)
    step = ("from server import config; c = config.from_env(); "
            "config.write_key_file(c['VAR_DIR']); print(config.welcome(c), flush=True)")
    source = (ROOT / "scripts" / "run").read_text().replace('"\n                    "', "")
    assert step in source
    said = subprocess.run([sys.executable, "-c", step], env=env, check=True, cwd=ROOT,
                          capture_output=True, text=True).stdout
    key = (tmp_path / "var" / config.SECRET_KEY_FILE).read_text().strip()
    assert config.from_env(env)["SECRET_KEY"] == key
    # ...and it says first, plainly, the address to open (issue 28)
    base = config.from_env(env)["BASE_URL"]
    assert said.startswith(f"Whistlestop: open {base}/ in a browser") and key not in said
