"""each account's time zone, for the times its mails and pages show

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False,
                                   server_default='UTC'))


def downgrade() -> None:
    with op.batch_alter_table('user') as batch:
        batch.drop_column('time_zone')
