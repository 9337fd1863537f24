"""issue 27, item 3: retract until seen - the outbox's hold (not_before), the log's entries out
of play, each player's hold, and the retractable orders

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0018'
down_revision: Union[str, Sequence[str], None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('outboxmessage') as batch:
        batch.add_column(sa.Column('not_before', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('logentry') as batch:
        batch.add_column(sa.Column('retraction', sa.String(length=20), nullable=True))
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('log_offset', sa.Integer(), nullable=False,
                                   server_default='0'))
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('retract_hold_seconds', sa.Integer(), nullable=False,
                                   server_default='120'))
    op.create_table(
        'retractable',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=50), nullable=False),
        sa.Column('next_seat', sa.String(length=50), nullable=False),
        sa.Column('log_from', sa.Integer(), nullable=False),
        sa.Column('until', sa.DateTime(timezone=True), nullable=False),
        sa.Column('held', sa.JSON(), nullable=False),
        sa.Column('retracted_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'step'),
    )
    op.create_index(op.f('ix_retractable_game_id'), 'retractable', ['game_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_retractable_game_id'), table_name='retractable')
    op.drop_table('retractable')
    with op.batch_alter_table('user') as batch:
        batch.drop_column('retract_hold_seconds')
    with op.batch_alter_table('game') as batch:
        batch.drop_column('log_offset')
    with op.batch_alter_table('logentry') as batch:
        batch.drop_column('retraction')
    with op.batch_alter_table('outboxmessage') as batch:
        batch.drop_column('not_before')
