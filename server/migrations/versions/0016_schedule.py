"""issue 27 items 4 and 5: vacations, pauses, extensions, quiet hours; the game's clock

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0016'
down_revision: Union[str, Sequence[str], None] = '0015'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('clock_started_at', TZ, nullable=True))
        batch.add_column(sa.Column('clock_stopped_at', TZ, nullable=True))
    op.create_table(
        'quiethours',
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), primary_key=True),
        sa.Column('start', sa.String(length=5), nullable=False),
        sa.Column('end', sa.String(length=5), nullable=False))
    op.create_table(
        'vacation',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), nullable=False),
        sa.Column('starts_at', TZ, nullable=False),
        sa.Column('ends_at', TZ, nullable=False),
        sa.Column('days', sa.Integer(), nullable=False),
        sa.Column('first_day', sa.String(length=10), nullable=False),
        sa.Column('created_at', TZ, nullable=False),
        sa.Column('ended_early_at', TZ, nullable=True))
    op.create_index('ix_vacation_user_id', 'vacation', ['user_id'])
    op.create_index('ix_vacation_starts_at', 'vacation', ['starts_at'])
    op.create_index('ix_vacation_ends_at', 'vacation', ['ends_at'])
    op.create_table(
        'gamepause',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False),
        sa.Column('asked_by', sa.String(length=50), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('agreed', sa.JSON(), nullable=False),
        sa.Column('answered_by', sa.String(length=50), nullable=True),
        sa.Column('asked_at', TZ, nullable=False),
        sa.Column('started_at', TZ, nullable=True),
        sa.Column('resumed_at', TZ, nullable=True))
    op.create_index('ix_gamepause_game_id', 'gamepause', ['game_id'])
    op.create_table(
        'extension',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False),
        sa.Column('seat', sa.String(length=50), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('hours', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('answered_by', sa.String(length=50), nullable=True),
        sa.Column('asked_at', TZ, nullable=False),
        sa.Column('answered_at', TZ, nullable=True),
        sa.UniqueConstraint('game_id', 'seat', name='uq_extension_game_seat'))
    op.create_index('ix_extension_game_id', 'extension', ['game_id'])


def downgrade() -> None:
    op.drop_index('ix_extension_game_id', 'extension')
    op.drop_table('extension')
    op.drop_index('ix_gamepause_game_id', 'gamepause')
    op.drop_table('gamepause')
    for name in ('ends_at', 'starts_at', 'user_id'):
        op.drop_index(f'ix_vacation_{name}', 'vacation')
    op.drop_table('vacation')
    op.drop_table('quiethours')
    with op.batch_alter_table('game') as batch:
        batch.drop_column('clock_stopped_at')
        batch.drop_column('clock_started_at')
