"""outbox rows are done when consumed: delivered_at

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21

A row is now done when its task has consumed it (delivered_at), not when it was sent: the relay
sends again what was not consumed in time. Rows written before this revision that were sent
count as consumed (their tasks ran or the sweep covers them).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('outboxmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_outboxmessage_delivered_at'), ['delivered_at'],
                              unique=False)
    op.execute("UPDATE outboxmessage SET delivered_at = published_at "
               "WHERE published_at IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table('outboxmessage', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outboxmessage_delivered_at'))
        batch_op.drop_column('delivered_at')
