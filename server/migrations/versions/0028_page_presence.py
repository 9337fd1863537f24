"""issue 46, item 5: no mail while you watch. One row per (game, user) whose game page is open
and live (server/models.py: PagePresence, services/presence.py): when it was last live and in view,
and when it last said it was leaving. A decision mail to a player whose page is live waits
(server/mail/delivery.py).

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0028'
down_revision: Union[str, Sequence[str], None] = '0027'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'pagepresence',
        sa.Column('game_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('user_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('game_id', 'user_id'))


def downgrade() -> None:
    op.drop_table('pagepresence')
