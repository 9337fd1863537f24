"""mail: one row per mail sent for an outbox row and recipient; mail received; signed links
used; what each seat was last told; each user's choice of mails

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'mailsent',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('outbox_id', sa.Integer(), nullable=False),
        sa.Column('recipient', sa.String(length=320), nullable=False),
        sa.Column('address', sa.String(length=320), nullable=False),
        sa.Column('message_id', sa.String(length=400), nullable=False),
        sa.Column('kind', sa.String(length=50), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('step', sa.Integer(), nullable=True),
        sa.Column('error', sa.String(length=2000), nullable=True),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['outbox_id'], ['outboxmessage.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('outbox_id', 'recipient', name='uq_mailsent_outbox_recipient'),
    )
    op.create_index('ix_mailsent_game_id', 'mailsent', ['game_id'], unique=False)
    op.create_table(
        'inboundmail',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False),
        sa.Column('source', sa.String(length=10), nullable=False),
        sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('handled_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('outcome', sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_table(
        'usedlink',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('digest', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('digest'),
    )
    op.create_index('ix_usedlink_game_id', 'usedlink', ['game_id'], unique=False)
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notes_mailed', sa.Integer(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mail_mode', sa.String(length=20), nullable=False,
                                      server_default='every'))


def downgrade() -> None:
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('mail_mode')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('notes_mailed')
    op.drop_table('inboundmail')
    op.drop_index('ix_usedlink_game_id', table_name='usedlink')
    op.drop_table('usedlink')
    op.drop_index('ix_mailsent_game_id', table_name='mailsent')
    op.drop_table('mailsent')
