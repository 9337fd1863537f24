"""issue 27 item 6: rematch offers, ratings per role, and the games rated

Revision ID: 0017
Revises: 0018
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0017'
down_revision: Union[str, Sequence[str], None] = '0018'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        'rematchoffer',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False,
                  unique=True),
        sa.Column('offered_by', sa.Integer(), sa.ForeignKey('user.id'), nullable=False),
        sa.Column('swap', sa.Boolean(), nullable=False),
        sa.Column('accepted', sa.JSON(), nullable=False, server_default='[]'),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('new_game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=True),
        sa.Column('created_at', TZ, nullable=False),
        sa.Column('updated_at', TZ, nullable=False),
    )
    op.create_index('ix_rematchoffer_new_game_id', 'rematchoffer', ['new_game_id'])
    op.create_table(
        'rating',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_type', sa.String(length=50), nullable=False),
        sa.Column('role', sa.String(length=50), nullable=False),
        sa.Column('player', sa.String(length=60), nullable=False),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), nullable=True),
        sa.Column('bot', sa.String(length=30), nullable=True),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('ordinal', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('updated_at', TZ, nullable=False),
        sa.UniqueConstraint('game_type', 'role', 'player', name='uq_rating_player'),
    )
    op.create_index('ix_rating_user_id', 'rating', ['user_id'])
    op.create_index('ix_rating_ladder', 'rating', ['game_type', 'role', 'ordinal'])
    op.create_table(
        'ratedgame',
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), primary_key=True),
        sa.Column('rated_at', TZ, nullable=False),
        sa.Column('changes', sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('ratedgame')
    op.drop_index('ix_rating_ladder', table_name='rating')
    op.drop_index('ix_rating_user_id', table_name='rating')
    op.drop_table('rating')
    op.drop_index('ix_rematchoffer_new_game_id', table_name='rematchoffer')
    op.drop_table('rematchoffer')
