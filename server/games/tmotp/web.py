"""What 1960's pages show beyond the shared templates (the Web section of
server/games/presenter.py)."""

from __future__ import annotations


class Web:
    pass
