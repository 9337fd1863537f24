"""What Mr. President's mails show beyond the shared templates (the Mail section of
server/games/presenter.py)."""

from __future__ import annotations


class Mail:
    pass
