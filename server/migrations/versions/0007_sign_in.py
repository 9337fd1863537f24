"""sign-in links used

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        'usedsignin',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('digest', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('used_at', TZ, nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('digest'),
    )
    op.create_index('ix_usedsignin_user_id', 'usedsignin', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_usedsignin_user_id', table_name='usedsignin')
    op.drop_table('usedsignin')
