"""an address counts only once proven

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0010'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('email_verified_at', sa.DateTime(timezone=True),
                                   nullable=True))
    # Whoever has signed in by a mailed link has proven the address already.
    op.execute("UPDATE \"user\" SET email_verified_at = (SELECT min(used_at) FROM usedsignin "
               "WHERE usedsignin.user_id = \"user\".id) "
               "WHERE id IN (SELECT user_id FROM usedsignin)")


def downgrade() -> None:
    with op.batch_alter_table('user') as batch:
        batch.drop_column('email_verified_at')
