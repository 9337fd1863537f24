"""Issue 46, item 5: the table of game pages open and live (services/presence.py).

Kept apart from server/models.py (which imports it, so that its table is registered with the
others): one row per (game, user), written by the page's small POSTs (server/web/presence.py),
read by the mail's delivery (server/mail/delivery.py). No foreign keys: a row is only ever
written for an active game's seated player, and says nothing but when a page was live.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlmodel import Field, SQLModel

from server.models import TZ


class PagePresence(SQLModel, table=True):
    """A user's page of a game: ``seen_at`` when one was last live and in view (its beat),
    ``left_at`` when one last said it was leaving (hidden, closed, reloaded)."""

    game_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    seen_at: datetime = Field(sa_type=TZ)
    left_at: Optional[datetime] = Field(default=None, sa_type=TZ)
