"""table talk: a chat per game (players' and spectators' channels), read markers, mutes and
reports to the operator (issue 27, item 1)

Revision ID: 0014
Revises: 0017
Create Date: 2026-11-27
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0014'
down_revision: Union[str, Sequence[str], None] = '0017'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_STR = sa.String


def upgrade() -> None:
    op.create_table(
        'gamechat',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('spectators', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('game_id'))
    op.create_table(
        'chatmessage',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('channel', _STR(length=20), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('seat', _STR(length=50), nullable=True),
        sa.Column('body', _STR(length=4000), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('reported', sa.Boolean(), nullable=False),
        sa.Column('reported_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('reported_by', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.ForeignKeyConstraint(['reported_by'], ['user.id']),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_chatmessage_game_channel_id', 'chatmessage',
                    ['game_id', 'channel', 'id'])
    op.create_index('ix_chatmessage_user_id', 'chatmessage', ['user_id'])
    op.create_table(
        'chatread',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('channel', _STR(length=20), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('read_through', sa.Integer(), nullable=False),
        sa.Column('mail_outbox_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'channel', 'user_id'))
    op.create_index('ix_chatread_game_id', 'chatread', ['game_id'])
    op.create_index('ix_chatread_user_id', 'chatread', ['user_id'])
    op.create_table(
        'chatmute',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('muted_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.ForeignKeyConstraint(['muted_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('user_id', 'muted_id'))
    op.create_index('ix_chatmute_user_id', 'chatmute', ['user_id'])
    op.create_table(
        'chatreport',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('message_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('reason', _STR(length=500), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['message_id'], ['chatmessage.id']),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('message_id', 'user_id'))
    op.create_index('ix_chatreport_message_id', 'chatreport', ['message_id'])


def downgrade() -> None:
    op.drop_index('ix_chatreport_message_id', table_name='chatreport')
    op.drop_table('chatreport')
    op.drop_index('ix_chatmute_user_id', table_name='chatmute')
    op.drop_table('chatmute')
    op.drop_index('ix_chatread_user_id', table_name='chatread')
    op.drop_index('ix_chatread_game_id', table_name='chatread')
    op.drop_table('chatread')
    op.drop_index('ix_chatmessage_user_id', table_name='chatmessage')
    op.drop_index('ix_chatmessage_game_channel_id', table_name='chatmessage')
    op.drop_table('chatmessage')
    op.drop_table('gamechat')
