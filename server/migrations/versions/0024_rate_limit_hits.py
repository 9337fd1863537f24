"""issue 45, L13: the rate limits' default store is the database (server/rate_limit_store.py),
shared by every process: one row per hit of a limit's moving window, keyed by the sha256 of the
limit's key.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0024'
down_revision: Union[str, Sequence[str], None] = '0023'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'ratelimithit',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('at', sa.Float(), nullable=False),
        sa.Column('expires', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_ratelimithit_expires', 'ratelimithit', ['expires'])
    op.create_index('ix_ratelimithit_key_at', 'ratelimithit', ['key', 'at'])


def downgrade() -> None:
    op.drop_index('ix_ratelimithit_key_at', table_name='ratelimithit')
    op.drop_index('ix_ratelimithit_expires', table_name='ratelimithit')
    op.drop_table('ratelimithit')
