"""bot seats

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('bots', sa.JSON(), nullable=False, server_default='{}'))
        batch.add_column(sa.Column('bot_delay_seconds', sa.Integer(), nullable=False,
                                   server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.drop_column('bot_delay_seconds')
        batch.drop_column('bots')
