"""issue 27: an open game whose creator deleted their account passes to the player who joined
it first: when that happened (the open game's page says so)

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0020'
down_revision: Union[str, Sequence[str], None] = '0019'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('creator_left_at', sa.DateTime(timezone=True),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.drop_column('creator_left_at')
