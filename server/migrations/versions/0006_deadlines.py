"""deadlines, standing orders, orders given for a seat, webhooks, digests

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('decision_hours', sa.Integer(), nullable=False,
                                      server_default='72'))
        batch_op.add_column(sa.Column('reminder_hours', sa.JSON(), nullable=False,
                                      server_default='[24]'))
        batch_op.add_column(sa.Column('on_deadline', sa.String(length=20), nullable=False,
                                      server_default='default'))
        batch_op.add_column(sa.Column('alarm_at', TZ, nullable=True))
        batch_op.add_column(sa.Column('reminders_sent', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.create_index('ix_game_alarm_at', ['alarm_at'], unique=False)
    op.create_table(
        'standingorder',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=50), nullable=False),
        sa.Column('kind', sa.String(length=30), nullable=False),
        sa.Column('value', sa.JSON(), nullable=True),
        sa.Column('updated_at', TZ, nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'seat', 'kind'),
    )
    op.create_index('ix_standingorder_game_id', 'standingorder', ['game_id'], unique=False)
    op.create_table(
        'autoorder',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=50), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('actions', sa.JSON(), nullable=False),
        sa.Column('source', sa.String(length=20), nullable=False),
        sa.Column('rule', sa.String(length=200), nullable=False),
        sa.Column('created_at', TZ, nullable=False),
        sa.Column('mailed_at', TZ, nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_autoorder_game_id', 'autoorder', ['game_id'], unique=False)
    op.create_table(
        'webhook',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('url', sa.String(length=2000), nullable=False),
        sa.Column('flavor', sa.String(length=20), nullable=False),
        sa.Column('created_at', TZ, nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_webhook_user_id', 'webhook', ['user_id'], unique=False)
    op.create_table(
        'webhooksent',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('outbox_id', sa.Integer(), nullable=False),
        sa.Column('webhook_id', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('last_error', sa.String(length=2000), nullable=True),
        sa.Column('updated_at', TZ, nullable=False),
        sa.ForeignKeyConstraint(['outbox_id'], ['outboxmessage.id']),
        sa.ForeignKeyConstraint(['webhook_id'], ['webhook.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('outbox_id', 'webhook_id', name='uq_webhooksent_outbox_webhook'),
    )
    op.create_index('ix_webhooksent_webhook_id', 'webhooksent', ['webhook_id'], unique=False)
    op.create_table(
        'digest',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('created_at', TZ, nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('user_id', 'day'),
    )
    op.create_index('ix_digest_user_id', 'digest', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_digest_user_id', table_name='digest')
    op.drop_table('digest')
    op.drop_index('ix_webhooksent_webhook_id', table_name='webhooksent')
    op.drop_table('webhooksent')
    op.drop_index('ix_webhook_user_id', table_name='webhook')
    op.drop_table('webhook')
    op.drop_index('ix_autoorder_game_id', table_name='autoorder')
    op.drop_table('autoorder')
    op.drop_index('ix_standingorder_game_id', table_name='standingorder')
    op.drop_table('standingorder')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_alarm_at')
        for column in ('reminders_sent', 'alarm_at', 'on_deadline', 'reminder_hours',
                       'decision_hours'):
            batch_op.drop_column(column)
