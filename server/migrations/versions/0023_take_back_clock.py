"""issue 45, M1: a take back gives the decision back as it was. The hold's row keeps the
mover's decision before the move (its deadline, next alarm, reminders sent and clock), which a
take back restores (services/retract.py); null on holds recorded before: they get a fresh
period, as they did.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0023'
down_revision: Union[str, Sequence[str], None] = '0022'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_MOMENTS = ('before_deadline_at', 'before_alarm_at', 'before_clock_started_at',
            'before_clock_stopped_at')


def upgrade() -> None:
    with op.batch_alter_table('retractable') as batch:
        for name in _MOMENTS:
            batch.add_column(sa.Column(name, sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('before_reminders_sent', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('retractable') as batch:
        batch.drop_column('before_reminders_sent')
        for name in reversed(_MOMENTS):
            batch.drop_column(name)
