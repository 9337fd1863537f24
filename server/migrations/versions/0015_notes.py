"""issue 27: private notes per seat, the calendar feed's key, deleted accounts

Revision ID: 0015
Revises: 0013
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0015'
down_revision: Union[str, Sequence[str], None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'seatnote',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), nullable=False),
        sa.Column('seat', sa.String(length=50), nullable=False),
        sa.Column('text', sa.String(length=20000), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('game_id', 'user_id', name='uq_seatnote_game_user'),
    )
    op.create_index('ix_seatnote_game_id', 'seatnote', ['game_id'])
    op.create_index('ix_seatnote_user_id', 'seatnote', ['user_id'])
    op.create_table(
        'calendarfeed',
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), primary_key=True),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'accountdeletion',
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), primary_key=True),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('handed_over', sa.JSON(), nullable=False, server_default='[]'),
    )


def downgrade() -> None:
    op.drop_table('accountdeletion')
    op.drop_table('calendarfeed')
    op.drop_index('ix_seatnote_user_id', table_name='seatnote')
    op.drop_index('ix_seatnote_game_id', table_name='seatnote')
    op.drop_table('seatnote')
