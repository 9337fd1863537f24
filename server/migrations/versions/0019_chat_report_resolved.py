"""issue 27: a chat report is resolved by the operator (`whistlestop chat-reports --resolve ID
--note ...`): when, and a short note saying what was done

Revision ID: 0019
Revises: 0014
Create Date: 2026-11-28
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0019'
down_revision: Union[str, Sequence[str], None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('chatreport') as batch:
        batch.add_column(sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('resolution', sa.String(length=500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('chatreport') as batch:
        batch.drop_column('resolution')
        batch.drop_column('resolved_at')
