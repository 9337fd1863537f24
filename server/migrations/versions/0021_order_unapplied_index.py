"""issue 28: the orders not applied (sealed, superseded, taken back) indexed on their own (a
partial index), so that the sweep for unresolved steps and the metrics read those, not every
order ever applied (bench/sweep_scale.py)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0021'
down_revision: Union[str, Sequence[str], None] = '0020'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index('ix_order_unapplied', 'order', ['game_id', 'step', 'status'],
                    sqlite_where=sa.text("status <> 'applied'"),
                    postgresql_where=sa.text("status <> 'applied'"))


def downgrade() -> None:
    op.drop_index('ix_order_unapplied', table_name='order')
