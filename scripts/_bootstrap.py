"""Shared by scripts/run and scripts/test: make .venv and install the project into it.

Uses only the standard library, so it works on a machine with nothing but Python 3.11+.
The install runs again only when pyproject.toml (or the Python version) has changed since
the last successful one; a hash stamp in .venv/ remembers it.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".whistlestop-install-stamp"


def _say(message: str) -> None:
    print(f"[bootstrap] {message}", file=sys.stderr, flush=True)


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def ensure_venv() -> Path:
    """Create .venv and install the project if needed; chdir to the repo root; return venv python."""
    if sys.version_info < (3, 11):
        sys.exit(f"Whistlestop needs Python 3.11 or newer, not {sys.version.split()[0]}")
    os.chdir(ROOT)
    if not PYTHON.exists():
        _say(f"creating {VENV}")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    wanted = _wanted_stamp()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        _say('installing the project: pip install -e ".[dev]"')
        env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
        result = subprocess.run(
            [str(PYTHON), "-m", "pip", "install", "--quiet", "-e", ".[dev]"], env=env
        )
        if result.returncode != 0:
            STAMP.unlink(missing_ok=True)
            sys.exit(f"pip install failed with exit code {result.returncode}")
        STAMP.write_text(wanted + "\n")
    return PYTHON


def _apt_install(need: list[str]) -> None:
    if not need or not shutil.which("apt-get"):
        return
    sudo = [] if os.geteuid() == 0 else (["sudo", "-n"] if shutil.which("sudo") else None)
    if sudo is None:
        _say(f"missing {', '.join(need)}: install them with apt-get (no root here)")
        return
    _say(f"installing {', '.join(need)} (apt-get)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = [*sudo, "apt-get", "install", "-y", "--no-install-recommends", *need]
    if subprocess.run(install, env=env).returncode != 0:
        subprocess.run([*sudo, "apt-get", "update"], env=env)
        subprocess.run(install, env=env)


# What the tests run for real (tests/services.py, tests/web/browser.py), as Debian packages:
# (package, a command it installs, other places that command may be).
TEST_PACKAGES = (
    ("redis-server", "redis-server", ()),
    ("postgresql", "initdb", ("/usr/lib/postgresql/*/bin/initdb",)),
    ("chromium", "chromium", ()),
    # Japanese in the pages' screenshots (tests/web: en and ja at 390 px), not boxes
    ("fonts-noto-cjk", "", ("/usr/share/fonts/opentype/noto/NotoSansCJK*.ttc",)),
)


def ensure_test_packages() -> None:
    """Install the Debian packages of the servers and the browser the tests use, when missing
    and this machine can (apt-get, as root or with sudo); else the tests that need one fail
    saying how to install it."""
    need = [package for package, command, elsewhere in TEST_PACKAGES
            if not (command and shutil.which(command))
            and not any(glob.glob(g) for g in elsewhere)]
    _apt_install(need)


def venv_env() -> dict[str, str]:
    """Return os.environ with the venv activated (its bin first on PATH)."""
    env = dict(os.environ)
    env["VIRTUAL_ENV"] = str(VENV)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONHOME", None)
    return env
