"""webhook posts queued with backoff, webhooks turned off after failing; mail settings links
that rotate

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0011'
down_revision: Union[str, Sequence[str], None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('webhook') as batch:
        batch.add_column(sa.Column('failures', sa.Integer(), nullable=False,
                                   server_default='0'))
        batch.add_column(sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('last_error', sa.String(length=2000), nullable=True))
    with op.batch_alter_table('webhooksent') as batch:
        batch.add_column(sa.Column('payload', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('next_at', sa.DateTime(timezone=True), nullable=True))
        batch.create_index('ix_webhooksent_next_at', ['next_at'])
    op.create_index('ix_mailsent_address_outbox', 'mailsent', ['address', 'outbox_id'])


def downgrade() -> None:
    op.drop_index('ix_mailsent_address_outbox', table_name='mailsent')
    with op.batch_alter_table('webhooksent') as batch:
        batch.drop_index('ix_webhooksent_next_at')
        batch.drop_column('next_at')
        batch.drop_column('payload')
    with op.batch_alter_table('webhook') as batch:
        batch.drop_column('last_error')
        batch.drop_column('disabled_at')
        batch.drop_column('failures')
