"""The `whistlestop` command: small operator tasks."""

from __future__ import annotations

import argparse
import sys

from server import __version__


def _version(_args: argparse.Namespace) -> int:
    print(__version__)
    return 0


def _initdb(_args: argparse.Namespace) -> int:
    from server import config, db

    url = config.from_env()["DATABASE_URL"]
    db.migrate(url)
    print(f"database ready: {url}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return the process exit code."""
    parser = argparse.ArgumentParser(prog="whistlestop", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("version", help="print the version").set_defaults(func=_version)
    commands.add_parser("initdb", help="create or upgrade the database tables (alembic upgrade head)").set_defaults(func=_initdb)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
